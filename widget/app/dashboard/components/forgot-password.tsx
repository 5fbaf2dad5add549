/**
 * A forgotten password: the gateway's ForgotPassword by username and e-mail. Its answer is the
 * same whether or not they match (no way to learn which users exist), and is shown as it came.
 */
import { useRef, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { useI18n } from '../i18n/context.ts';
import { href } from '../route.ts';
import { Field, focusFirstInvalid } from './field.tsx';
import { Page } from './page.tsx';

export function ForgotPassword() {
  const { t } = useI18n();
  const form = useRef<HTMLFormElement>(null);
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [missing, setMissing] = useState<{ username?: boolean; email?: boolean }>({});
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const empty = { username: !username.trim(), email: !email.trim() };
    setMissing(empty);
    if (empty.username || empty.email) return focusFirstInvalid(form.current);
    setBusy(true);
    const res = await api.forgotPassword(username.trim(), email.trim());
    setBusy(false);
    if (res.ok) setAnswer({ ok: true, text: res.data.message });
    else setAnswer({ ok: false, text: res.kind === 'http' ? res.error.message : t('loadFailed') });
  };

  return (
    <Page title={t('forgotTitle')} testId="forgot-password">
      <p>{t('forgotIntro')}</p>
      <div
        role="status"
        class={answer ? (answer.ok ? 'pd-notice' : 'pd-alert') : 'pd-empty'}
        data-testid="forgot-answer"
      >
        {answer?.text}
      </div>
      <form ref={form} class="pd-form" onSubmit={submit} noValidate>
        <Field
          id="forgot-username"
          label={t('username')}
          autocomplete="username"
          autocapitalize="none"
          spellcheck={false}
          value={username}
          onInput={(e) => setUsername(e.currentTarget.value)}
          error={missing.username ? t('required') : undefined}
        />
        <Field
          id="forgot-email"
          type="email"
          label={t('email')}
          autocomplete="email"
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
          error={missing.email ? t('required') : undefined}
        />
        <button type="submit" class="pd-button pd-primary" aria-disabled={busy ? 'true' : undefined}>
          {t('sendLink')}
        </button>
      </form>
      <p>
        <a href={href('/sign-in')}>{t('backToSignIn')}</a>
      </p>
    </Page>
  );
}
