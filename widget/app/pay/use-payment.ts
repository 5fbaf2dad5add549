/**
 * A payment from the press of Pay to its end: one request at a time (the Payer keeps one
 * Idempotency-Key per attempt, so a lost answer is asked again without a second charge), then
 * what the answer means for the page — the receipt, the bank's challenge, a decline at the field it
 * concerns or beside Pay, the server's field errors at their fields — and what the host page hears.
 */
import { useState } from 'preact/hooks';
import type { PayBody, PayResponse, WidgetSession } from '../../../shared/checkout/index.ts';
import { declineFamily } from '../../../shared/checkout/decline-messages.ts';
import { focusFirstInvalid, focusSoon } from '../ui/focus.ts';
import type { ChallengeResult, Payer, Result, SessionApi } from './api.ts';
import { type Embed, successMessage } from './embed.ts';
import type { I18n } from './i18n/index.ts';
import type { Screen } from './screen.ts';
import { declineProblems, NO_PROBLEMS, serverProblems } from './server-problems.ts';

/** A message beside Pay: a decline that concerns no field, or a failure to pay. */
export interface PayAlert {
  title?: string;
  text: string;
}

interface Deps {
  api: SessionApi;
  payer: Payer;
  i18n: I18n;
  session: WidgetSession | null;
  screen: Screen;
  setScreen: (s: Screen) => void;
  show: (s: WidgetSession) => void;
  embed: Embed | null;
  /** The hosted page goes back to the merchant at once after paying (its setting). */
  leaveOnSuccess: (redirectUrl: string) => void;
  preview: boolean;
}

/** The payment form on show (the card form stays mounted, hidden, while another is used). */
const visibleForm = () => [...document.querySelectorAll('form')].find((f) => f.offsetParent !== null) ?? null;

export function usePayment({
  api,
  payer,
  i18n,
  session,
  screen,
  setScreen,
  show,
  embed,
  leaveOnSuccess,
  preview,
}: Deps) {
  const { t } = i18n;
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<PayAlert | null>(null);
  const [problems, setProblems] = useState(NO_PROBLEMS);

  const fail = (text: string, title?: string, decline?: ReturnType<typeof declineFamily>) => {
    setAlert(title ? { title, text } : { text });
    const currency = session?.currency ?? null;
    const data = { message: text, currency, declineCode: decline ?? null };
    embed?.send({ type: 'error', data: { ...data, code: decline ? 'declined' : 'payment_failed' } });
  };

  const handle = async (res: Result<PayResponse>, body: PayBody, wallet?: string) => {
    if (res.ok) {
      const d = res.data;
      if (d.status === 'requires_action') {
        setScreen({ kind: 'challenge', challengeUrl: d.challengeUrl, resultUrl: d.resultUrl, body, wallet });
      } else if (d.status === 'declined') {
        const method = body.method === 'ach' ? 'ach' : 'card';
        const text = i18n.decline(d.code, method);
        const family = declineFamily(d.code, method);
        const atField = declineProblems(d.field ?? null, text);
        // A saved card has no number or expiry typed here: its decline is said beside Pay.
        if (atField.count > 0 && body.method !== 'saved') {
          setProblems(atField);
          embed?.send({
            type: 'error',
            data: {
              message: text,
              currency: session?.currency ?? null,
              declineCode: family,
              code: 'declined',
            },
          });
          focusFirstInvalid(visibleForm());
        } else fail(text, t('declinedTitle'), family);
      } else {
        setScreen({
          kind: 'paid',
          receipt: d.receipt,
          redirectUrl: d.redirectUrl,
          fresh: d.status === 'succeeded',
        });
        embed?.send(successMessage(d.receipt, d.status));
        if (d.redirectUrl && d.status === 'succeeded') leaveOnSuccess(d.redirectUrl);
      }
      return;
    }
    if (res.kind === 'network') return fail(t(res.status === 0 ? 'networkError' : 'serverError'));
    const p = res.status === 400 && res.error.fields?.length ? serverProblems(res.error.fields) : null;
    if (p && p.count > 0) {
      setProblems(p);
      focusFirstInvalid(visibleForm());
      return;
    }
    if (res.status === 404) return setScreen({ kind: 'not-found' });
    if (res.status === 409) {
      // Either the session is no longer open (expired, canceled, paid), or a request is in flight.
      const again = await api.load();
      if (again.ok && again.data.status !== 'open') return show(again.data);
      return fail(t('busyError'));
    }
    if (res.status === 429) return fail(t('rateLimited'));
    // The server's messages are English: shoppers get their own language, the host page the code.
    if (res.status === 401) return fail(t('errWalletExpired'));
    fail(t('serverError'));
  };

  const pay = async (body: PayBody, wallet?: string) => {
    if (preview) return;
    setBusy(true);
    setAlert(null);
    setProblems(NO_PROBLEMS);
    const res = await payer.pay(body, wallet);
    if (res === null) return; // the first click's request is still in flight
    setBusy(false);
    await handle(res, body, wallet);
  };

  const challengeDone = async (r: ChallengeResult) => {
    if (screen.kind !== 'challenge') return;
    const { body, wallet } = screen;
    setScreen({ kind: 'form' });
    if (
      r.status === 'authenticated' &&
      r.cavv &&
      r.eci &&
      r.xid &&
      r.dsTransactionId &&
      body.method !== 'ach'
    ) {
      const threeDSecure = { cavv: r.cavv, eci: r.eci, xid: r.xid, dsTransactionId: r.dsTransactionId };
      await pay({ ...body, threeDSecure }, wallet);
    } else {
      fail(t(r.status === 'expired' ? 'tdsExpired' : 'tdsFailed'));
      focusSoon('.pf-alert'); // the challenge that had the focus is gone
    }
  };

  const cancel = async () => {
    if (preview) return;
    const res = await api.cancel();
    if (res.ok) {
      setScreen({ kind: 'canceled' });
      // Ended for good, by the shopper's confirmed choice (a modal's close is `closed`, from the loader).
      embed?.send({ type: 'cancel', data: { reason: 'canceled', sessionOpen: false } });
      return;
    }
    const again = await api.load();
    if (again.ok && again.data.status !== 'open') return show(again.data);
    fail(t('serverError'));
  };

  return { busy, alert, clearAlert: () => setAlert(null), problems, pay, challengeDone, cancel };
}
