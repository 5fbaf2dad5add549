/**
 * Sign out: the session ends on the server first. When the server cannot be reached the user is
 * told and stays signed in, never shown as signed out while the session lives on.
 */
import { useState } from 'preact/hooks';
import { useI18n } from '../i18n/context.ts';

/** `onSignOut` answers false when the server could not be asked. */
export function SignOutButton({ onSignOut }: { onSignOut: () => Promise<boolean> }) {
  const { t } = useI18n();
  const [failed, setFailed] = useState(false);
  return (
    <>
      <button
        type="button"
        class="pd-link-button"
        onClick={async () => {
          setFailed(false);
          setFailed(!(await onSignOut()));
        }}
      >
        {t('signOut')}
      </button>
      <span role="alert" class={failed ? 'pd-alert' : 'pd-empty'} data-testid="sign-out-failed">
        {failed ? t('signOutFailed') : null}
      </span>
    </>
  );
}
