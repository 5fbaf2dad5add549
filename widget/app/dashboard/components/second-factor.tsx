/**
 * The second step of signing in (TOTP, RFC 6238). A user not enrolled yet gets a new secret: the
 * QR code (the server's SVG, shown as an image so nothing in it can run) and the same Setup key as
 * text for typing; the first good code completes the enrolment and the ten recovery codes are
 * shown, once. An enrolled user types the app's code, or a recovery code.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { SessionInfo } from '../api-types.ts';
import { useI18n } from '../i18n/context.ts';
import { SignOutButton } from './sign-out.tsx';
import { Field, focusFirstInvalid, focusSoon } from './field.tsx';
import { LoadFailed, Loading, Page } from './page.tsx';

interface Props {
  session: SessionInfo;
  onVerified: () => Promise<void>;
  onSignOut: () => Promise<boolean>;
}

type Setup = { state: 'loading' } | { state: 'failed' } | { state: 'ok'; setupKey: string; qrSvg: string };

/** An SVG string as an image address (img-src allows data:); an image cannot run script. */
export const svgImage = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

export function SecondFactor({ session, onVerified, onSignOut }: Props) {
  const enrolling = session.secondFactor === 'EnrolmentRequired';
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  if (recoveryCodes) return <RecoveryCodes codes={recoveryCodes} onContinue={onVerified} />;
  return enrolling ? (
    <Enrolment onCodes={setRecoveryCodes} onVerified={onVerified} onSignOut={onSignOut} />
  ) : (
    <CodeEntry onVerified={onVerified} onSignOut={onSignOut} />
  );
}

function Enrolment({
  onCodes,
  onVerified,
  onSignOut,
}: {
  onCodes: (codes: string[]) => void;
  onVerified: () => Promise<void>;
  onSignOut: () => Promise<boolean>;
}) {
  const { t } = useI18n();
  const [setup, setSetup] = useState<Setup>({ state: 'loading' });
  const begin = async () => {
    setSetup({ state: 'loading' });
    const res = await api.beginEnrolment();
    setSetup(res.ok ? { state: 'ok', ...res.data } : { state: 'failed' });
  };
  useEffect(() => void begin(), []);

  return (
    <Page title={t('enrolTitle')} testId="enrolment">
      <p>{t('enrolIntro')}</p>
      {setup.state === 'loading' ? <Loading /> : null}
      {setup.state === 'failed' ? <LoadFailed retry={() => void begin()} /> : null}
      {setup.state === 'ok' ? (
        <>
          <img class="pd-qr" src={svgImage(setup.qrSvg)} alt={t('qrAlt')} width={200} height={200} />
          <dl class="pd-facts">
            <div>
              <dt>{t('setupKey')}</dt>
              <dd class="pd-code" data-testid="setup-key" translate={false}>
                {setup.setupKey}
              </dd>
            </div>
          </dl>
          <CodeForm
            hint={t('codeHint')}
            onVerified={(codes) => (codes && codes.length > 0 ? onCodes(codes) : void onVerified())}
          />
        </>
      ) : null}
      <SignOutInstead onSignOut={onSignOut} />
    </Page>
  );
}

function CodeEntry({
  onVerified,
  onSignOut,
}: {
  onVerified: () => Promise<void>;
  onSignOut: () => Promise<boolean>;
}) {
  const { t } = useI18n();
  return (
    <Page title={t('codeTitle')} testId="code-entry">
      <CodeForm hint={t('codeOrRecoveryHint')} onVerified={() => void onVerified()} />
      <SignOutInstead onSignOut={onSignOut} />
    </Page>
  );
}

/** The code's field and Verify; a wrong code is said on the field, which keeps focus for the next try. */
function CodeForm({ hint, onVerified }: { hint: string; onVerified: (recoveryCodes?: string[]) => void }) {
  const { t } = useI18n();
  const form = useRef<HTMLFormElement>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const typed = code.replace(/\s+/g, '');
    if (!typed) {
      setError(t('required'));
      return focusFirstInvalid(form.current);
    }
    setBusy(true);
    const res = await api.verify(typed);
    setBusy(false);
    if (res.ok) return onVerified(res.data.recoveryCodes);
    if (res.status === 401) return; // the session ended: the app shows the sign-in
    setCode('');
    setError(res.kind === 'http' ? t('invalidCode') : t('loadFailed'));
    focusFirstInvalid(form.current);
  };

  return (
    <form ref={form} class="pd-form" onSubmit={submit} noValidate>
      <Field
        id="code"
        label={t('code')}
        hint={hint}
        autocomplete="one-time-code"
        autocapitalize="none"
        spellcheck={false}
        value={code}
        onInput={(e) => setCode(e.currentTarget.value)}
        error={error}
      />
      <button type="submit" class="pd-button pd-primary" aria-disabled={busy ? 'true' : undefined}>
        {t('verify')}
      </button>
    </form>
  );
}

function SignOutInstead({ onSignOut }: { onSignOut: () => Promise<boolean> }) {
  return (
    <p>
      <SignOutButton onSignOut={onSignOut} />
    </p>
  );
}

function RecoveryCodes({ codes, onContinue }: { codes: string[]; onContinue: () => Promise<void> }) {
  const { t } = useI18n();
  useEffect(() => focusSoon('#recovery-title'), []);
  return (
    <section class="pd-page" data-testid="recovery-codes" aria-labelledby="recovery-title">
      <h1 id="recovery-title" tabIndex={-1}>
        {t('recoveryTitle')}
      </h1>
      <p>{t('recoveryIntro')}</p>
      <ul class="pd-codes" aria-label={t('recoveryList')} translate={false}>
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <button type="button" class="pd-button pd-primary" onClick={() => void onContinue()}>
        {t('continue')}
      </button>
    </section>
  );
}
