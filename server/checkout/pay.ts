/**
 * Paying a checkout session exactly once (DESIGN.md §8, §16–17; security-requirements.md IDEM-1…7,
 * REL-2/3; checkout-anchors.md §5.7). Two commits of the checkout's own, each one that
 * exactly-once needs, around one gateway call:
 *   1. in one transaction: the pay counters (rate limits), the Idempotency-Key claimed, and the
 *      attempt committed `started` — a replay, a mismatch (422), a request still in flight (409),
 *      a session already paid here, or another live attempt (409) ends here;
 *   2. PayCheckoutSession as the service: the gateway claims the session, charges its amount at most
 *      once and answers a typed Outcome with the session's fields (and, once paid, the redirect's
 *      signature);
 *   3. in one transaction: the attempt's end, the payment or the decline, the webhook event and the
 *      answer stored for the key.
 * Answers worth replaying (paid, declined, 3-D Secure challenge) are 200 and stored; errors free
 * the key. When the gateway's answer is lost, the attempt stays `started` and the key in flight:
 * recovery.ts settles both, so a retry with the same key gets the real outcome.
 */
import type { z } from 'zod';
import { declineMessage } from '../../shared/checkout/decline-messages.ts';
import type { CancelResponse, PayBody, PayResponse } from '../../shared/checkout/pay-schemas.ts';
import type { OperationResult } from '../../shared/contract/service.ts';
import type { Queryable } from '../db/database.ts';
import { isUnavailableError } from '../db/database.ts';
import { noteStorageRefusal } from '../db/storage-refusals.ts';
import { deliverReceipts } from '../notify/receipt-queue.ts';
import { PayframeError } from '../errors.ts';
import { finishAttempt, paymentOfSession, recordPayment, startAttempt, startedAttempt } from './attempts.ts';
import type { CallOrigin } from './contexts.ts';
import type { CheckoutDeps } from './deps.ts';
import { type Payer, paymentOf, readSessionAsService, saleRequest, snapshotOf } from './gateway-calls.ts';
import {
  claimKey,
  completeKey,
  fingerprintOf,
  type KeyClaim,
  type KeyScope,
  releaseKey,
  storedAnswer,
} from './idempotency.ts';
import { revokeWalletTokens } from './otp.ts';
import { hitAll, type Rule } from './rate-limit.ts';
import type { Attempt, Payment } from './records.ts';
import { PAY_ENDPOINT, RECOVERY_INTERVAL_MS, recoverAttempt } from './recovery.ts';
import { paidBody } from './redirect.ts';
import { declinedFieldOf, declineReasonOf } from '../../shared/contract/decline-reasons.ts';
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

type PayResult = OperationResult<'PayCheckoutSession'>;

function isStale(deps: CheckoutDeps, since: Date): boolean {
  return deps.now().getTime() - since.getTime() > deps.staleAttemptMs;
}

/**
 * A 409's Retry-After, true (issue 21): until `until` — when a request still running is taken for cut
 * short (its start + the stale time), or when the gateway settles the claim it holds — or, not
 * knowing, until recovery's next run. Never less than a second.
 */
export function payInProgress(
  deps: Pick<CheckoutDeps, 'now'>,
  until: Date | null,
  message?: string,
): PayframeError {
  const ms = until ? until.getTime() - deps.now().getTime() : RECOVERY_INTERVAL_MS;
  return new PayframeError('payment_in_progress', message, undefined, {
    retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)),
  });
}

/** When a `started` attempt is settled at the latest: when it turns stale, or as recovery learnt. */
function settledBy(deps: CheckoutDeps, startedAt: Date | undefined, recovered: Date | null): Date | null {
  if (recovered) return recovered;
  if (startedAt && !isStale(deps, startedAt)) return new Date(startedAt.getTime() + deps.staleAttemptMs + 1);
  return null;
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

type Begun =
  | Exclude<KeyClaim, { kind: 'claimed' }>
  | { kind: 'limited'; wait: number }
  | { kind: 'paid'; payment: Payment }
  | { kind: 'busy'; other: Attempt | null }
  | { kind: 'started'; attempt: Attempt };

/**
 * Step 1, one transaction in two round trips: the counters, the key's claim and the session's
 * payment here sent together; then the attempt, with the COMMIT.
 */
async function begin(
  deps: CheckoutDeps,
  scope: KeyScope,
  fingerprint: string,
  method: 'card' | 'ach',
  limits: readonly (readonly [string, Rule])[],
): Promise<Begun> {
  const now = deps.now();
  const begun = await deps.db.transaction(async (tx): Promise<Begun | { kind: 'taken' }> => {
    const [wait, claim, payment] = await Promise.all([
      hitAll(tx, limits, now),
      claimKey(tx, scope, fingerprint, now),
      paymentOfSession(tx, scope.sessionToken),
    ]);
    if (wait > 0) {
      // Refused: the key is not used up (the counters stay).
      if (claim.kind === 'claimed') await releaseKey(tx, scope);
      return { kind: 'limited', wait };
    }
    if (claim.kind !== 'claimed') return claim;
    // Paid and recorded here already: the receipt, without asking the gateway.
    if (payment?.transactionId) return { kind: 'paid', payment };
    const input = { sessionToken: scope.sessionToken, key: scope.key, method, owner: deps.instanceOwner };
    const attempt = await startAttempt(tx, input, now, { last: true });
    return attempt ? { kind: 'started', attempt } : { kind: 'taken' };
  });
  if (begun.kind !== 'taken') return begun;
  // Another attempt of the session is running: this key is not used up (the counters stay). Freed
  // after the commit; one left claimed by a crash here is freed as abandoned (releaseAbandonedKeys).
  await releaseKey(deps.db, scope);
  return { kind: 'busy', other: await startedAttempt(deps.db, scope.sessionToken) };
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
  // A saved card is a card: the merchant accepts it, declines read like a card's.
  const method = body.method === 'ach' ? 'ach' : 'card';
  const limits = [
    [`pay:ip:${origin.remoteAddress}`, deps.limits.payPerIp],
    [`pay:session:${token}`, deps.limits.payPerSession],
  ] as const;
  let begun = await begin(deps, scope, fingerprint, method, limits);
  // What recovery learnt of a claim the gateway still holds: when it settles it at the latest.
  let recovered: Date | null = null;
  if (begun.kind === 'in_flight' && isStale(deps, begun.since)) {
    // The request holding the key died: settle its attempt, or free a key no attempt holds.
    const stale = await startedAttempt(deps.db, token);
    if (stale && isStale(deps, stale.startedAt))
      recovered = (await recoverAttempt(deps, stale, origin)).settlesBy;
    const started = await startedAttempt(deps.db, token);
    if (started?.idempotencyKey !== key) await releaseKey(deps.db, scope);
    begun = await begin(deps, scope, fingerprint, method, []);
  }
  if (begun.kind === 'busy' && begun.other && isStale(deps, begun.other.startedAt)) {
    recovered = (await recoverAttempt(deps, begun.other, origin)).settlesBy;
    begun = await begin(deps, scope, fingerprint, method, []);
  }
  switch (begun.kind) {
    case 'limited':
      throw new PayframeError('rate_limited', undefined, undefined, { retryAfterSeconds: begun.wait });
    case 'mismatch':
      throw new PayframeError('idempotency_mismatch');
    case 'in_flight': {
      const attempt = await startedAttempt(deps.db, token);
      throw payInProgress(
        deps,
        settledBy(deps, attempt?.idempotencyKey === key ? attempt.startedAt : begun.since, recovered),
        'A request with this Idempotency-Key is still in progress. Try again shortly.',
      );
    }
    case 'busy':
      throw payInProgress(deps, settledBy(deps, begun.other?.startedAt, recovered));
    case 'replay':
      return { json: begun.body, replayed: true };
    case 'paid': {
      const p = begun.payment;
      const json = JSON.stringify(
        await paidBody(deps.signer, p.attemptKey === key ? 'succeeded' : 'already_paid', p),
      );
      await completeKey(deps.db, scope, 200, json, deps.now());
      return { json, replayed: false };
    }
    case 'started':
      return { json: await execute(deps, origin, scope, begun.attempt, body, wallet), replayed: false };
  }
}

/** Ends the attempt as `failed` and frees its key: nothing was charged, nothing is replayed. */
async function giveUp(deps: CheckoutDeps, scope: KeyScope, attempt: Attempt, code: string, message: string) {
  await deps.db.transaction(async (tx) => {
    await finishAttempt(tx, attempt, { kind: 'failed', code, message }, deps.now());
    await releaseKey(tx, scope);
  });
}

async function execute(
  deps: CheckoutDeps,
  origin: CallOrigin,
  scope: KeyScope,
  attempt: Attempt,
  body: PayBody,
  wallet: Payer['wallet'],
): Promise<string> {
  let res: PayResult;
  try {
    res = await deps.port.PayCheckoutSession(
      { token: scope.sessionToken, request: saleRequest(body, { wallet }) },
      deps.contexts.service(origin),
    );
  } catch (err) {
    if (err instanceof PayframeError && REFUSED.has(err.code)) {
      await giveUp(deps, scope, attempt, err.code, err.message);
      if (err.code === 'not_found')
        throw new PayframeError('not_found', 'This checkout session does not exist.');
      deps.log.error({ err }, 'the gateway refused the payment request');
      throw new PayframeError('internal');
    }
    // Timeout, network, 5xx: the gateway may have charged. The attempt stays `started` and the key
    // in flight; recovery asks the gateway and settles both.
    deps.log.error({ err, attemptId: attempt.id }, 'payment outcome unknown: left to recovery');
    if (isUnavailableError(err) || (err instanceof PayframeError && err.code === 'database_unavailable')) {
      // The gateway's database is away or refuses writes (issue 19 §6): 503, and the same key then
      // answers the true outcome once recovery has it (the attempt's stale time, not before).
      noteStorageRefusal(err);
      throw new PayframeError(
        'database_unavailable',
        'The payment could not be confirmed yet. Retry with the same Idempotency-Key after the time given: it will not charge twice.',
        undefined,
        { retryAfterSeconds: Math.max(1, Math.ceil((deps.staleAttemptMs + 1000) / 1000)) },
      );
    }
    throw new PayframeError(
      'internal',
      'The payment could not be confirmed yet. Wait a moment, then retry with the same Idempotency-Key: it will not charge twice.',
    );
  }
  return settle(deps, scope, attempt, res, body.method === 'ach' ? 'ach' : 'card', body);
}

/**
 * The receipt a payment queued goes out once the answer is on its way, not at the next background
 * run; what this misses (a kill, a failure) the background run sends (receipt-queue.ts).
 */
function sendReceiptsSoon(deps: CheckoutDeps): void {
  const notifier = deps.notifier;
  if (!notifier) return;
  notifier.sendLater(
    async () => {
      // One: this payment's, in the usual case; the rest are the background run's.
      await deliverReceipts(deps.db, { notifier, log: deps.log, now: deps.now }, 1);
      return null;
    },
    (err) => deps.log.warn({ err }, 'receipt e-mails: left to the background run'),
  );
}

/** Stores the answer for the key as the settling transaction's last statement, with its COMMIT. */
async function answered(
  q: Queryable,
  deps: CheckoutDeps,
  scope: KeyScope,
  answer: PayResponse,
): Promise<string> {
  const json = JSON.stringify(answer);
  await completeKey(q, scope, 200, json, deps.now(), { last: true });
  return json;
}

async function settle(
  deps: CheckoutDeps,
  scope: KeyScope,
  attempt: Attempt,
  res: PayResult,
  method: 'card' | 'ach',
  body: PayBody,
): Promise<string> {
  const now = deps.now();
  const snapshot = snapshotOf(res);
  // The receipt names the bank account's type the shopper chose (the gateway answers no type).
  const receiptTo =
    snapshot.receiptTo && body.method === 'ach'
      ? { ...snapshot.receiptTo, accountType: body.ach.accountType }
      : snapshot.receiptTo;
  const session = { ...snapshot, receiptTo };
  const code = res.ResponseCode ?? '';
  const message = res.ResponseMessage ?? '';
  switch (res.Outcome) {
    case 'Approved':
    case 'AlreadyPaid': {
      const paid = paymentOf(scope.sessionToken, res, null);
      if (!paid) throw new Error('The gateway answered a payment without its time.');
      return deps.db
        .transaction(async (tx) => {
          let payment: Payment;
          if (res.Outcome === 'Approved') {
            const outcome = {
              kind: 'succeeded' as const,
              transactionId: paid.transactionId,
              approvalCode: paid.approvalCode,
              maskedCard: paid.maskedCard,
            };
            payment = (await finishAttempt(tx, attempt, outcome, now, { ...session, payment: paid }))!;
          } else {
            await finishAttempt(
              tx,
              attempt,
              { kind: 'failed', code: '94', message: 'already paid' },
              now,
              session,
            );
            payment = await recordPayment(tx, paid, null, session.webhookUrl, now, session.receiptTo);
          }
          const status = payment.attemptKey === attempt.idempotencyKey ? 'succeeded' : 'already_paid';
          // The gateway signed the redirect with its answer, so nothing here reads the database again.
          // A card saved with this payment (the gateway answers its token): the receipt says so.
          const saved = status === 'succeeded' && Boolean(res.Token);
          return answered(tx, deps, scope, await paidBody(deps.signer, status, payment, saved));
        })
        .finally(() => sendReceiptsSoon(deps));
    }
    case 'Declined': {
      if (res.DeclineReason === 'MethodNotAccepted') {
        await giveUp(deps, scope, attempt, code, message);
        throw new PayframeError('validation_failed', 'This payment method is not accepted here.', [
          {
            field: 'method',
            code: 'method_not_accepted',
            message: 'This payment method is not accepted here.',
          },
        ]);
      }
      if (res.DeclineReason === 'NameOnCardRequired') {
        await giveUp(deps, scope, attempt, code, message);
        throw new PayframeError('validation_failed', 'card.name must not be empty.', [
          { field: 'card.name', code: 'required', message: 'card.name must not be empty.' },
        ]);
      }
      const decline = { kind: 'declined' as const, code, message, transactionId: res.TransactionID ?? null };
      // The field it concerns, from the gateway's reason; in spec mode the service gives only the code.
      const field = declinedFieldOf(res.DeclineReason ?? declineReasonOf(code, method, false));
      return deps.db.transaction(async (tx) => {
        await finishAttempt(tx, attempt, decline, now, session);
        return answered(tx, deps, scope, {
          status: 'declined',
          code,
          message: declineMessage(code, method),
          field,
        });
      });
    }
    case 'ChallengeRequired': {
      const challengeUrl = res.ChallengeUrl ?? '';
      const id = challengeIdOf(challengeUrl);
      if (id === null) {
        await giveUp(deps, scope, attempt, code, message);
        throw new PayframeError('internal', 'The gateway answered a challenge this checkout cannot read.');
      }
      // Polled on the page's own origin (connect-src 'self'), also when the gateway is elsewhere.
      const resultUrl = `/api/checkout/sessions/${attempt.sessionToken}/three-ds/${id}`;
      return deps.db.transaction(async (tx) => {
        await finishAttempt(tx, attempt, { kind: 'failed', code, message }, now, session);
        return answered(tx, deps, scope, { status: 'requires_action', challengeUrl, resultUrl });
      });
    }
    case 'InProgress':
      await giveUp(deps, scope, attempt, '09', 'in progress');
      throw payInProgress(deps, res.PaymentSettlesBy ? new Date(res.PaymentSettlesBy) : null);
    case 'Closed':
      // The session changed under the attempt (a cancel or the expiry won the race): not a decline.
      await giveUp(deps, scope, attempt, '12', res.Status);
      throw new PayframeError(res.Status === 'Canceled' ? 'session_canceled' : 'session_expired');
  }
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
  let session = await readSessionAsService(deps, origin, token);
  if (!session) throw new PayframeError('not_found', 'This checkout session does not exist.');
  if (session.status === 'open') {
    const res = await deps.port.CancelHostedPayment({ token }, deps.contexts.service(origin));
    if (!res.Status) session = (await readSessionAsService(deps, origin, token)) ?? session;
    else session = { ...session, status: 'canceled' };
  }
  if (session.status !== 'canceled') {
    if (session.status === 'open') throw payInProgress(deps, session.paymentSettlesBy);
    throw new PayframeError(session.status === 'paid' ? 'session_paid' : 'session_expired');
  }
  // Also when it was canceled already: a first cancel cut short before these two is finished here
  // (both are once-only).
  await revokeWalletTokens(deps, token);
  await announceCanceled(deps, session);
  return { status: 'canceled' };
}
