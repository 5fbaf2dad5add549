/**
 * Recovery of attempts left `started` (security-requirements.md REL-3, Brandur's "completer"): the
 * checkout crashed, or lost its answer, between committing the attempt and recording the gateway's
 * answer. It runs at start, periodically, and before a new attempt on the same session. It never
 * charges: it only asks the gateway what became of the session.
 *
 * For each attempt `started` longer ago than `staleAttemptMs` (longer than any ProcessTransaction
 * call can take), GetHostedPaymentDetails(token) as the service:
 *   - **paid**: the session was charged, by this attempt (the only one the checkout had in flight on
 *     it) or by a direct SOAP payment. The attempt becomes `succeeded` (`recovered`), the payment is
 *     recorded with its `payment.succeeded` webhook (once: the payments table's key), and the
 *     attempt's Idempotency-Key replays the receipt. The transaction id is taken from the gateway's
 *     message when it names it; otherwise it stays unknown until the next pay request on the session,
 *     whose ProcessTransaction the gateway answers `94` "(transaction N)" without charging (paid is
 *     final), and the checkout fills it in.
 *   - **open, expired, canceled or unknown**: the gateway recorded no payment. The attempt becomes
 *     `failed` and its key is released, so the shopper's retry with the SAME key runs again. If the
 *     gateway itself had charged the processor and crashed before recording it, that retry's
 *     ProcessTransaction finds the gateway's stale claim and looks the charge up at the processor
 *     by its reference (server/gateway/payments/session-claim.ts): it is recorded, not charged again.
 *   - **the gateway cannot be reached**: the attempt stays `started`; the next run tries again.
 */
import type { FastifyBaseLogger } from 'fastify';
import { type Attempt, finishAttempt, markRecovered, staleAttempts } from './attempts.ts';
import type { CallOrigin, CheckoutDeps } from './deps.ts';
import { sessionDetails, transactionIdIn } from './gateway-calls.ts';
import { completeKey, type KeyScope, releaseKey } from './idempotency.ts';
import { paidBody } from './redirect.ts';

export const PAY_ENDPOINT = 'pay';

export type Resolution = 'succeeded' | 'failed' | 'unknown';

export function workerOrigin(log: FastifyBaseLogger): CallOrigin {
  return { requestId: 'checkout-recovery', remoteAddress: '127.0.0.1', log };
}

export async function recoverAttempt(
  deps: CheckoutDeps,
  attempt: Attempt,
  origin: CallOrigin,
): Promise<Resolution> {
  let found: Awaited<ReturnType<typeof sessionDetails>>;
  try {
    found = await sessionDetails(deps, origin, attempt.sessionToken);
  } catch (err) {
    deps.log.warn({ err, attemptId: attempt.id }, 'attempt recovery: gateway unavailable');
    return 'unknown';
  }
  const now = deps.now();
  const scope: KeyScope = {
    sessionToken: attempt.sessionToken,
    endpoint: PAY_ENDPOINT,
    key: attempt.idempotencyKey,
  };
  if (found.status === 'paid') {
    const outcome = {
      kind: 'succeeded' as const,
      transactionId: transactionIdIn(found.detail.Message),
      approvalCode: null,
      maskedCard: null,
    };
    const payment = await deps.db.transaction(async (tx) => {
      const p = await finishAttempt(tx, attempt, outcome, now);
      await markRecovered(tx, attempt.id);
      return p!;
    });
    // Signed outside the transaction: the in-process signer reads the database itself.
    const status = payment.attemptKey === attempt.idempotencyKey ? 'succeeded' : 'already_paid';
    await completeKey(
      deps.db,
      scope,
      200,
      JSON.stringify(await paidBody(deps.signer, status, payment)),
      deps.now(),
    );
    deps.log.info({ attemptId: attempt.id }, 'attempt recovery: the session was paid');
    return 'succeeded';
  }
  await deps.db.transaction(async (tx) => {
    await finishAttempt(
      tx,
      attempt,
      { kind: 'failed', code: 'not_completed', message: 'The payment was not completed.' },
      now,
    );
    await markRecovered(tx, attempt.id);
    await releaseKey(tx, scope);
  });
  deps.log.info({ attemptId: attempt.id, status: found.status }, 'attempt recovery: nothing was charged');
  return 'failed';
}

/** Resolves every stale `started` attempt (or those of one session). */
export async function recoverAttempts(
  deps: CheckoutDeps,
  options: { sessionToken?: string; origin?: CallOrigin } = {},
): Promise<Record<Resolution, number>> {
  const before = new Date(deps.now().getTime() - deps.staleAttemptMs);
  const stale = await staleAttempts(deps.db, before, options.sessionToken);
  const tally: Record<Resolution, number> = { succeeded: 0, failed: 0, unknown: 0 };
  for (const attempt of stale) {
    tally[await recoverAttempt(deps, attempt, options.origin ?? workerOrigin(deps.log))]++;
  }
  return tally;
}
