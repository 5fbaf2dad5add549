/**
 * The end of an open session's time, while the form is on show (moved out of components/app.tsx):
 * the warning two minutes before, and the form's turn to "expired" by itself at the end.
 */
import { useEffect, useState } from 'preact/hooks';
import type { WidgetSession } from '../../../shared/checkout/index.ts';
import type { SessionApi } from './api.ts';
import { expiryWarningIn } from './expiry-warning.ts';

/**
 * True once the warning is due. At the end, the session is asked for again and `onEnded` gets it
 * when it is no longer open; if the server still says open (this device's clock runs ahead) or
 * cannot be reached, it asks again a little later.
 */
export function useSessionEnd(
  formShown: boolean,
  expiresAt: string | null,
  api: SessionApi,
  onEnded: (s: WidgetSession) => void,
): boolean {
  const [expiryCheck, setExpiryCheck] = useState(0);
  useEffect(() => {
    if (!formShown || !expiresAt) return;
    const ms = new Date(expiresAt).getTime() - Date.now();
    if (!(ms < 2 ** 31 - 1)) return;
    const id = setTimeout(
      () =>
        void api.load().then((r) => {
          if (r.ok && r.data.status !== 'open') onEnded(r.data);
          else setExpiryCheck((n) => n + 1);
        }),
      ms > 0 ? ms + 1000 : 5000,
    );
    return () => clearTimeout(id);
  }, [formShown, expiresAt, expiryCheck]);

  // Two minutes before the end, said politely (issue 14 §7): typed card details are not kept past it.
  const [expiringSoon, setExpiringSoon] = useState(false);
  useEffect(() => {
    if (!formShown) return setExpiringSoon(false);
    const wait = expiryWarningIn(expiresAt, Date.now());
    if (wait === null) return;
    const id = setTimeout(() => setExpiringSoon(true), wait);
    return () => clearTimeout(id);
  }, [formShown, expiresAt]);
  return expiringSoon;
}
