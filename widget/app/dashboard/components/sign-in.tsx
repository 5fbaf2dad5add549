/**
 * Sign in: Username and Password, one answer for every failure (unknown user, wrong password,
 * locked: the server does not say which), and the way to a new password. After a session ended,
 * the page says so first.
 */
import { useRef, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { useI18n } from '../i18n/context.ts';
import { href } from '../route.ts';
import { Field, focusFirstInvalid } from './field.tsx';
import { Page } from './page.tsx';

interface Props {
  ended: boolean;
  onSignedIn: () => Promise<void>;
}

export function SignIn({ ended, onSignedIn }: Props) {
  const { t } = useI18n();
  const form = useRef<HTMLFormElement>(null);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState<{ username?: boolean; password?: boolean }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const empty = { username: !username.trim(), password: !password };
    setMissing(empty);
    if (empty.username || empty.password) return focusFirstInvalid(form.current);
    setBusy(true);
    setFailure(null);
    const res = await api.signIn(username.trim(), password);
    setBusy(false);
    if (res.ok) return onSignedIn();
    setPassword('');
    if (res.kind === 'network') setFailure(t('loadFailed'));
    else setFailure(res.status === 429 ? t('tooManyAttempts') : t('signInFailed'));
  };

  return (
    <Page title={t('signInTitle')} testId="sign-in">
      {ended ? (
        // An alert: it is on the page from its first render, where a status region is not read out.
        <p class="pd-notice" role="alert" data-testid="session-ended">
          {t('sessionEnded')}
        </p>
      ) : null}
      <div role="alert" class={failure ? 'pd-alert' : 'pd-empty'} data-testid="sign-in-error">
        {failure}
      </div>
      <form ref={form} class="pd-form" onSubmit={submit} noValidate>
        <Field
          id="username"
          label={t('username')}
          autocomplete="username"
          autocapitalize="none"
          spellcheck={false}
          value={username}
          onInput={(e) => setUsername(e.currentTarget.value)}
          error={missing.username ? t('required') : undefined}
        />
        <Field
          id="password"
          type="password"
          label={t('password')}
          autocomplete="current-password"
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
          error={missing.password ? t('required') : undefined}
        />
        <button type="submit" class="pd-button pd-primary" aria-disabled={busy ? 'true' : undefined}>
          {t('signIn')}
        </button>
      </form>
      <p>
        <a href={href('/forgot-password')}>{t('forgotLink')}</a>
      </p>
    </Page>
  );
}
