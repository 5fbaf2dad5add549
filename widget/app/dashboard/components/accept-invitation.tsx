/**
 * An invitation's link (`/dashboard/invite#iv_…`; docs/dashboard.md "Team"): what it is for, then
 * a user name and a password (twice) for the new user; then on to the sign-in, where the second
 * factor is set up. The token is read from the fragment, which no server ever receives, and sent in
 * a JSON body only.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { UserRole } from '../api-types.ts';
import { useI18n } from '../i18n/context.ts';
import type { MessageKey } from '../i18n/en.ts';
import { href } from '../route.ts';
import { useLoad } from '../use-load.ts';
import { Field, focusFirstInvalid, focusSoon } from './field.tsx';
import { LoadFailed, Loading, Page } from './page.tsx';

const ROLE_KEY: Record<UserRole, MessageKey> = {
  Owner: 'roleOwner',
  Admin: 'roleAdmin',
  Staff: 'roleStaff',
  Viewer: 'roleViewer',
};

type Errors = { username?: string; password?: string; confirm?: string };

export function AcceptInvitation() {
  const { t } = useI18n();
  const [token] = useState(() => location.hash.replace(/^#/, ''));
  // The token stays in this page's state only: not in the address bar, the history or a bookmark.
  useEffect(() => {
    if (location.hash) history.replaceState(null, '', location.pathname + location.search);
  }, []);
  const [loaded, reload] = useLoad(() => api.invitation(token), [token]);
  const form = useRef<HTMLFormElement>(null);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const next: Errors = {
      username: username.trim() ? undefined : t('required'),
      password: password ? undefined : t('required'),
      confirm: confirm === password ? undefined : t('passwordsDiffer'),
    };
    setErrors(next);
    setProblem(null);
    if (next.username || next.password || next.confirm) return focusFirstInvalid(form.current);
    setBusy(true);
    const res = await api.acceptInvitation(token, username.trim(), password);
    setBusy(false);
    if (res.ok) {
      setDone(t('accepted'));
      focusSoon('#accept-done');
      return;
    }
    if (res.kind === 'http' && res.error.fields?.length) {
      const byField: Errors = {};
      for (const f of res.error.fields) {
        if (f.field === 'username' || f.field === 'userName') byField.username = f.message;
        else if (f.field === 'password') byField.password = f.message;
      }
      if (byField.username || byField.password) {
        setErrors(byField);
        return focusFirstInvalid(form.current);
      }
    }
    setProblem(res.kind === 'http' ? res.error.message : t('loadFailed'));
    focusSoon('#accept-problem');
  };

  let body;
  if (loaded.state === 'loading') body = <Loading />;
  else if (loaded.state === 'failed' && loaded.status === 400) {
    body = (
      <div role="alert" class="pd-alert" data-testid="invitation-unusable">
        <p>{t('acceptUnusable')}</p>
        <p>
          <a href={href('/sign-in')}>{t('goToSignIn')}</a>
        </p>
      </div>
    );
  } else if (loaded.state === 'failed') body = <LoadFailed retry={() => void reload()} />;
  else if (done) {
    body = (
      <div id="accept-done" tabIndex={-1} role="status" class="pd-notice" data-testid="invitation-accepted">
        <p>{done}</p>
        <p>
          <a href={href('/sign-in')}>{t('goToSignIn')}</a>
        </p>
      </div>
    );
  } else {
    const i = loaded.data;
    body = (
      <>
        <p data-testid="invitation-intro">
          {t('acceptIntro', { merchant: i.merchantName, role: t(ROLE_KEY[i.role]), email: i.email })}
        </p>
        <p id="accept-problem" tabIndex={-1} role="alert" class={problem ? 'pd-alert' : 'pd-empty'}>
          {problem}
        </p>
        <form ref={form} class="pd-form" onSubmit={submit} noValidate>
          <Field
            id="accept-username"
            label={t('newUsername')}
            hint={t('usernameHint')}
            autocomplete="username"
            autocapitalize="none"
            spellcheck={false}
            value={username}
            onInput={(e) => setUsername(e.currentTarget.value)}
            error={errors.username}
          />
          <Field
            id="accept-password"
            type="password"
            label={t('newPassword')}
            hint={t('passwordHint')}
            autocomplete="new-password"
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
            error={errors.password}
          />
          <Field
            id="accept-confirm"
            type="password"
            label={t('confirmPassword')}
            autocomplete="new-password"
            value={confirm}
            onInput={(e) => setConfirm(e.currentTarget.value)}
            error={errors.confirm}
          />
          <button type="submit" class="pd-button pd-primary" aria-disabled={busy ? 'true' : undefined}>
            {t('createUser')}
          </button>
        </form>
      </>
    );
  }
  return (
    <Page title={t('acceptTitle')} testId="accept-invitation">
      {body}
    </Page>
  );
}
