/**
 * Recovery of attempts left `started` (security-requirements.md REL-3, Brandur's "completer"): the
 * checkout crashed, or lost its answer, between committing the attempt and recording the gateway's
 * answer. It runs at start, periodically, and before a new attempt on the same session. It never
 * charges: it only asks the gateway what became of the session (GetCheckoutSession, typed).
 *
 * For each attempt `started` longer ago than `staleAttemptMs` (longer than any PayCheckoutSession
 * call can take):
 *   - **Paid**: the session was charged, by this attempt (the only one the checkout had in flight on
 *     it) or by a direct SOAP payment. The attempt becomes `succeeded` (`recovered`), the payment is
 *     recorded as the gateway reports it (transaction id, time, redirect signature) with its
 *     `payment.succeeded` webhook (once: the payments table's key), and the attempt's
 *     Idempotency-Key replays the receipt.
 *   - **A payment in progress** (open, or expired since): the gateway holds a claim on the session —
 *     its own attempt is running, or was cut short and is settled by the gateway's claim sweep
 *     (server/gateway/payments/claim-sweep.ts) within seconds of the claim timeout. Nothing is
 *     concluded: the attempt stays `started` and the next run asks again, and then finds it Paid
 *     (or not).
 *   - **Open, Expired, Canceled, or no such session**: the gateway recorded no payment and holds no
 *     claim. The attempt becomes `failed` and its key is released, so the shopper's retry with the
 *     SAME key runs again.
 *   - **the gateway cannot be reached**: the attempt stays `started`; the next run tries again.
 *   - **Undecided** (in progress with no time it settles by: a spec-mode service's history that
 *     cannot decide, server/checkout/README.md "Spec mode"): the attempt stays `started`, and the
 *     runs over every stale attempt ask again after 5 s, 10 s, 20 s, … at most every 10 minutes
 *     (attempts.ts `deferUndecided`); one session's recovery, before its shopper's new attempt,
 *     asks at once. A predecessor's attempt found undecided is left to those runs too.
 */
import type { FastifyBaseLogger } from 'fastify';
import { deferUndecided, finishAttempt, markRecovered, staleAttempts } from './attempts.ts';
import type { CallOrigin } from './contexts.ts';
import type { CheckoutDeps } from './deps.ts';
import { type GatewaySession, readSessionAsService } from './gateway-calls.ts';
import { completeKey, type KeyScope, releaseKey } from './idempotency.ts';
import type { Attempt } from './records.ts';
import { paidBody } from './redirect.ts';

export const PAY_ENDPOINT = 'pay';

export type Resolution = 'succeeded' | 'failed' | 'unknown';

/** How often every instance's recovery runs (checkout.ts `startWorkers`). */
export const RECOVERY_INTERVAL_MS = 5_000;

export interface Recovered {
  resolution: Resolution;
  /** Unknown because the gateway holds a claim: the latest time it settles it, when it said. */
  settlesBy: Date | null;
}

export function workerOrigin(log: FastifyBaseLogger): CallOrigin {
  return { requestId: 'checkout-recovery', remoteAddress: '127.0.0.1', log };
}

export async function recoverAttempt(
  deps: CheckoutDeps,
  attempt: Attempt,
  origin: CallOrigin,
): Promise<Recovered> {
  let found: GatewaySession | null;
  try {
    found = await readSessionAsService(deps, origin, attempt.sessionToken);
  } catch (err) {
    deps.log.warn({ err, attemptId: attempt.id }, 'attempt recovery: gateway unavailable');
    return { resolution: 'unknown', settlesBy: null };
  }
  const now = deps.now();
  const scope: KeyScope = {
    sessionToken: attempt.sessionToken,
    endpoint: PAY_ENDPOINT,
    key: attempt.idempotencyKey,
  };
  if (found?.payment) {
    const paid = found.payment;
    const outcome = {
      kind: 'succeeded' as const,
      transactionId: paid.transactionId,
      approvalCode: paid.approvalCode,
      maskedCard: paid.maskedCard,
    };
    const payment = await deps.db.transaction(async (tx) => {
      const p = await finishAttempt(tx, attempt, outcome, now, { ...found, payment: paid });
      await markRecovered(tx, attempt.id);
      return p!;
    });
    const status = payment.attemptKey === attempt.idempotencyKey ? 'succeeded' : 'already_paid';
    await completeKey(
      deps.db,
      scope,
      200,
      JSON.stringify(await paidBody(deps.signer, status, payment)),
      deps.now(),
    );
    deps.log.info({ attemptId: attempt.id }, 'attempt recovery: the session was paid');
    return { resolution: 'succeeded', settlesBy: null };
  }
  if (found?.paymentInProgress) {
    // The gateway's verdict is pending: its claim's attempt is running, or was cut short and is
    // settled by the gateway's own sweep within seconds (claim-sweep.ts). Open or past its time,
    // the session may yet turn out paid: wait for the verdict, never conclude "not charged".
    if (found.paymentSettlesBy === null) {
      // No time it settles by: a service that speaks only the spec whose history cannot decide yet
      // (spec-lookup.ts). Asked again later, less often each time (attempts.ts deferUndecided).
      const nextCheckAt = await deferUndecided(deps.db, attempt.id, now);
      deps.log.info(
        { attemptId: attempt.id, ...(nextCheckAt ? { nextCheckAt } : {}) },
        'attempt recovery: undecided; asked again later',
      );
      return { resolution: 'unknown', settlesBy: null };
    }
    deps.log.info({ attemptId: attempt.id }, 'attempt recovery: the gateway still holds a payment claim');
    return { resolution: 'unknown', settlesBy: found.paymentSettlesBy };
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
  deps.log.info(
    { attemptId: attempt.id, status: found?.status ?? 'unknown' },
    'attempt recovery: nothing was charged',
  );
  return { resolution: 'failed', settlesBy: null };
}

export interface RecoveryOptions {
  sessionToken?: string;
  origin?: CallOrigin;
  /**
   * Attempts started longer ago than this are recovered; default `staleAttemptMs`. 0 only at the
   * start of the one process a PGlite database admits: no attempt of a live request exists yet, so
   * every `started` one was cut short by the process that went before.
   */
  olderThanMs?: number;
  /**
   * Only the attempts this instance's predecessors started (its id, server/instance.ts): no live
   * request of theirs holds them, whatever their age.
   */
  predecessorsOf?: string;
}

/** Resolves every stale `started` attempt (or those of one session, or of one owner). */
export async function recoverAttempts(
  deps: CheckoutDeps,
  options: RecoveryOptions = {},
): Promise<Record<Resolution, number>> {
  // Taken before the first await: a caller may start serving right after this call.
  const before = new Date(deps.now().getTime() - (options.olderThanMs ?? deps.staleAttemptMs));
  const self = deps.instanceOwner;
  const predecessors = options.predecessorsOf && self ? { id: options.predecessorsOf, self } : undefined;
  if (options.predecessorsOf && !predecessors) return { succeeded: 0, failed: 0, unknown: 0 };
  // One session's recovery (its shopper is waiting) asks at once; the runs over all leave out the
  // undecided attempts not due again yet.
  const dueAt = options.sessionToken === undefined ? deps.now() : undefined;
  const stale = await staleAttempts(deps.db, before, options.sessionToken, predecessors, dueAt);
  const tally: Record<Resolution, number> = { succeeded: 0, failed: 0, unknown: 0 };
  for (const attempt of stale) {
    tally[(await recoverAttempt(deps, attempt, options.origin ?? workerOrigin(deps.log))).resolution]++;
  }
  return tally;
}
