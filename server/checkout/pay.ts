/**
 * Paying a checkout session exactly once (DESIGN.md §8; security-requirements.md IDEM-1…7,
 * REL-2/3; checkout-anchors.md §5.7). In order:
 *   1. the Idempotency-Key is claimed (idempotency.ts): a replay, a mismatch (422) or a request
 *      still in flight (409) ends here;
 *   2. the session is read from the gateway (paid → the receipt; expired → 409; unknown → 404);
 *   3. an attempt row is committed `started` (one per session at a time; a stale one is recovered
 *      first, a live one answers 409);
 *   4. ProcessTransaction with the HostedPaymentToken, as the service: the gateway charges the
 *      session's amount at most once (its own claim answers `09` while another payment runs, `94`
 *      once paid);
 *   5. the attempt's end, the payment and the webhook event are committed together, and the
 *      answer is stored for the key.
 * Answers worth replaying (paid, declined, 3-D Secure challenge) are 200 and stored; errors free
 * the key. When the gateway's answer is lost, the attempt stays `started` and the key in flight:
 * recovery.ts settles both, so a retry with the same key gets the real outcome.
 */
import { declineMessage } from '../../shared/checkout/decline-messages.ts';
import type { z } from 'zod';
import type { CancelResponse, PayBody, PayResponse } from '../../shared/checkout/pay-schemas.ts';
import { PayframeError } from '../errors.ts';
import {
  type Attempt,
  finishAttempt,
  paymentOfSession,
  recordPayment,
  type SessionSnapshot,
  startAttempt,
  startedAttempt,
} from './attempts.ts';
import type { CallOrigin, CheckoutDeps } from './deps.ts';
import { brandingOf, type Payer, saleRequest, sessionDetails, transactionIdIn } from './gateway-calls.ts';
import {
  claimKey,
  completeKey,
  fingerprintOf,
  type KeyScope,
  releaseKey,
  storedAnswer,
} from './idempotency.ts';
import { PAY_ENDPOINT, recoverAttempt, recoverAttempts } from './recovery.ts';
import { paidBody } from './redirect.ts';
import { revokeWalletTokens } from './otp.ts';
import { getSessionMeta } from './session-meta.ts';
import { announceCanceled } from './session-expiry.ts';
import { challengeIdOf } from './three-ds-results.ts';

export interface PayAnswer {
  /** The answer's JSON text: stored for the key and sent byte for byte on every replay. */
  json: string;
  replayed: boolean;
}

// Gateway faults that mean "refused before anything happened": nothing can have been charged.
const REFUSED = new Set([
  'unauthorized',
  'forbidden',
  'invalid_request',
  'validation_failed',
  'not_found',
  'not_implemented',
]);

function isStale(deps: CheckoutDeps, since: Date): boolean {
  return deps.now().getTime() - since.getTime() > deps.staleAttemptMs;
}

/**
 * The answer already stored for this key and body, if any: a saved-card retry whose wallet
 * credential has since expired still gets its outcome (IDEM-2), not a 401.
 */
export async function replayedAnswer(
  deps: CheckoutDeps,
  token: string,
  key: string,
  body: PayBody,
): Promise<PayAnswer | null> {
  const scope: KeyScope = { sessionToken: token, endpoint: PAY_ENDPOINT, key };
  const json = await storedAnswer(deps.db, scope, fingerprintOf(deps.secret, PAY_ENDPOINT, body));
  return json === null ? null : { json, replayed: true };
}

export async function paySession(
  deps: CheckoutDeps,
  origin: CallOrigin,
  token: string,
  key: string,
  body: PayBody,
  wallet: Payer['wallet'] = undefined,
): Promise<PayAnswer> {
  const scope: KeyScope = { sessionToken: token, endpoint: PAY_ENDPOINT, key };
  const fingerprint = fingerprintOf(deps.secret, PAY_ENDPOINT, body);
  let claim = await claimKey(deps.db, scope, fingerprint, deps.now());
  if (claim.kind === 'in_flight' && isStale(deps, claim.since)) {
    // The request holding the key died: settle its attempt, or free a key no attempt holds.
    await recoverAttempts(deps, { sessionToken: token, origin });
    const started = await startedAttempt(deps.db, token);
    if (started?.idempotencyKey !== key) await releaseKey(deps.db, scope);
    claim = await claimKey(deps.db, scope, fingerprint, deps.now());
  }
  if (claim.kind === 'mismatch') throw new PayframeError('idempotency_mismatch');
  if (claim.kind === 'in_flight') {
    throw new PayframeError(
      'payment_in_progress',
      'A request with this Idempotency-Key is still in progress. Try again shortly.',
    );
  }
  if (claim.kind === 'replay') return { json: claim.body, replayed: true };

  let answer: PayResponse;
  try {
    answer = await execute(deps, origin, scope, body, wallet);
  } catch (err) {
    if (!(err instanceof OutcomeUnknown)) await releaseKey(deps.db, scope);
    throw err instanceof OutcomeUnknown
      ? new PayframeError(
          'internal',
          'The payment could not be confirmed yet. Wait a moment, then retry with the same Idempotency-Key: it will not charge twice.',
        )
      : err;
  }
  const json = JSON.stringify(answer);
  await completeKey(deps.db, scope, 200, json, deps.now());
  return { json, replayed: false };
}

class OutcomeUnknown extends Error {}

async function execute(
  deps: CheckoutDeps,
  origin: CallOrigin,
  scope: KeyScope,
  body: PayBody,
  wallet: Payer['wallet'],
): Promise<PayResponse> {
  const token = scope.sessionToken;
  // A saved card is a card: the merchant accepts it, declines read like a card's.
  const method = body.method === 'ach' ? 'ach' : 'card';
  const { detail, status } = await sessionDetails(deps, origin, token);
  if (status === null) throw new PayframeError('not_found', 'This checkout session does not exist.');
  if (status === 'expired' || status === 'canceled') {
    throw new PayframeError(status === 'expired' ? 'session_expired' : 'session_canceled');
  }
  const recorded = status === 'paid' ? await paymentOfSession(deps.db, token) : null;
  if (recorded?.transactionId) {
    return paidBody(deps.signer, recorded.attemptKey === scope.key ? 'succeeded' : 'already_paid', recorded);
  }
  // Paid but not fully recorded here: go on; the gateway answers 94 with the transaction id and
  // charges nothing (a paid session stays paid).
  const branding = await brandingOf(deps, origin, token);
  if (!branding.methods.includes(method)) {
    throw new PayframeError('validation_failed', 'This payment method is not accepted here.', [
      { field: 'method', code: 'method_not_accepted', message: 'This payment method is not accepted here.' },
    ]);
  }
  const meta = await getSessionMeta(deps.db, token);
  const snapshot: SessionSnapshot = {
    merchantId: branding.merchantId,
    merchantName: detail.MerchantName ?? branding.name,
    amount: detail.Amount,
    currency: meta?.currency ?? null,
    orderNumber: detail.OrderNumber ?? null,
    returnUrl: detail.ReturnUrl ?? recorded?.returnUrl ?? null,
  };
  const attempt = await beginAttempt(deps, origin, scope, method, snapshot);

  let res: Awaited<ReturnType<CheckoutDeps['port']['ProcessTransaction']>>;
  try {
    res = await deps.port.ProcessTransaction(
      {
        request: saleRequest(token, body, {
          email: detail.Email ?? null,
          phone: detail.PhoneNumber ?? null,
          wallet,
        }),
      },
      deps.contexts.service(origin),
    );
  } catch (err) {
    if (err instanceof PayframeError && REFUSED.has(err.code)) {
      await deps.db.transaction((tx) =>
        finishAttempt(tx, attempt, { kind: 'failed', code: err.code, message: err.message }, deps.now()),
      );
      deps.log.error({ err }, 'the gateway refused the payment request');
      throw new PayframeError('internal');
    }
    deps.log.error({ err, attemptId: attempt.id }, 'payment outcome unknown: left to recovery');
    throw new OutcomeUnknown();
  }
  return settle(deps, attempt, res, method);
}

async function beginAttempt(
  deps: CheckoutDeps,
  origin: CallOrigin,
  scope: KeyScope,
  method: 'card' | 'ach',
  snapshot: SessionSnapshot,
): Promise<Attempt> {
  const input = { sessionToken: scope.sessionToken, key: scope.key, method, snapshot };
  let attempt = await startAttempt(deps.db, input, deps.now());
  if (!attempt) {
    const other = await startedAttempt(deps.db, scope.sessionToken);
    if (other && isStale(deps, other.startedAt)) await recoverAttempt(deps, other, origin);
    attempt = await startAttempt(deps.db, input, deps.now());
  }
  if (!attempt) throw new PayframeError('payment_in_progress');
  return attempt;
}

type Response = Awaited<ReturnType<CheckoutDeps['port']['ProcessTransaction']>>;

async function settle(
  deps: CheckoutDeps,
  attempt: Attempt,
  res: Response,
  method: 'card' | 'ach',
): Promise<PayResponse> {
  const code = res.ResponseCode ?? '';
  const message = res.ResponseMessage ?? '';
  const now = deps.now();
  if (code === '00') {
    const outcome = {
      kind: 'succeeded' as const,
      transactionId: res.TransactionID,
      approvalCode: res.ApprovalCode ?? null,
      maskedCard: res.MaskedCardNumber ?? null,
    };
    const payment = await deps.db.transaction(
      async (tx) => (await finishAttempt(tx, attempt, outcome, now))!,
    );
    return paidBody(
      deps.signer,
      payment.attemptKey === attempt.idempotencyKey ? 'succeeded' : 'already_paid',
      payment,
    );
  }
  if (code === '94') {
    const payment = await deps.db.transaction(async (tx) => {
      await finishAttempt(tx, attempt, { kind: 'failed', code, message }, now);
      const outcome = {
        kind: 'succeeded' as const,
        transactionId: transactionIdIn(message),
        approvalCode: null,
        maskedCard: null,
      };
      return recordPayment(tx, { ...attempt, id: null, idempotencyKey: null }, outcome, now);
    });
    return paidBody(deps.signer, 'already_paid', payment);
  }
  // The session changed under the attempt (a cancel or the expiry won the race): not a decline.
  const closed =
    code === '12'
      ? /expired/i.test(message)
        ? 'session_expired'
        : /cancel/i.test(message)
          ? 'session_canceled'
          : null
      : null;
  if (code === '09' || closed) {
    await deps.db.transaction((tx) => finishAttempt(tx, attempt, { kind: 'failed', code, message }, now));
    throw new PayframeError(closed ?? 'payment_in_progress');
  }
  if (code === '65' && res.ResponseMessageDetail && res.TransactionID === '0') {
    await deps.db.transaction((tx) => finishAttempt(tx, attempt, { kind: 'failed', code, message }, now));
    const challengeUrl = res.ResponseMessageDetail;
    const id = challengeIdOf(challengeUrl);
    if (id === null)
      throw new PayframeError('internal', 'The gateway answered a challenge this checkout cannot read.');
    // Polled on the page's own origin (connect-src 'self'), also when the gateway is elsewhere.
    const resultUrl = `/api/checkout/sessions/${attempt.sessionToken}/three-ds/${id}`;
    return { status: 'requires_action', challengeUrl, resultUrl };
  }
  const transactionId = res.TransactionID && res.TransactionID !== '0' ? res.TransactionID : null;
  await deps.db.transaction((tx) =>
    finishAttempt(tx, attempt, { kind: 'declined', code, message, transactionId }, now),
  );
  return { status: 'declined', code, message: declineMessage(code, method) };
}

/**
 * Cancels the session at the gateway (CancelHostedPayment). Canceling twice answers the same; a
 * paid session answers 409 "already paid", and a payment in flight 409 too: a cancel never hides a
 * charge.
 */
export async function cancelSession(
  deps: CheckoutDeps,
  origin: CallOrigin,
  token: string,
): Promise<z.infer<typeof CancelResponse>> {
  const { detail, status } = await sessionDetails(deps, origin, token);
  if (status === null) throw new PayframeError('not_found', 'This checkout session does not exist.');
  if (status === 'paid') throw new PayframeError('session_paid');
  if (status === 'expired') throw new PayframeError('session_expired');
  if (status === 'open') {
    const res = await deps.port.CancelHostedPayment({ token }, deps.contexts.service(origin));
    const after = res.Status ? 'canceled' : (await sessionDetails(deps, origin, token)).status;
    if (after !== 'canceled') {
      throw new PayframeError(
        after === 'paid' ? 'session_paid' : after === 'expired' ? 'session_expired' : 'payment_in_progress',
      );
    }
  }
  // Also when it was canceled already: a first cancel cut short before these two is finished here
  // (both are once-only).
  await revokeWalletTokens(deps, token);
  await announceCanceled(deps, token, { amount: detail.Amount, orderNumber: detail.OrderNumber ?? null });
  return { status: 'canceled' };
}
