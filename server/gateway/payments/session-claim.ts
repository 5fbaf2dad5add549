/**
 * Paying a checkout session at most once (DESIGN.md §7–8; security-requirements.md REL-2, REL-3):
 * the attempt's processor reference is committed on the session before the processor is called. A
 * second attempt while one is in flight is refused; an attempt cut short (a crash between the
 * processor's answer and the record) is found by looking its reference up at the processor, and
 * recorded — never charged again under a new reference.
 */
import type { Queryable } from '../../db/database.ts';
import type { GatewayDeps } from '../gateway-call.ts';
import type { ProcessorResult } from '../processor/processor.ts';
import type { CheckoutSession } from '../sessions/checkout-session-store.ts';
import { RequestProblem } from './payment-source.ts';

/** How long an attempt may be in flight before another caller treats it as cut short (default). */
export const CLAIM_TIMEOUT_MS = 60_000;

export type Claim =
  | { kind: 'claimed'; reference: string; session: CheckoutSession }
  /** A cut-short attempt was found charged at the processor: record it instead of charging. */
  | { kind: 'recovered'; reference: string; session: CheckoutSession; result: ProcessorResult };

export async function claimSession(
  deps: GatewayDeps,
  token: string,
  merchantId: string | null,
): Promise<Claim> {
  const outcome = await deps.db.transaction(async (tx) => {
    const session = await deps.sessions.getByToken(tx, token, { forUpdate: true });
    if (!session || (merchantId !== null && session.merchantId !== merchantId)) {
      throw new RequestProblem('12', 'HostedPaymentToken does not name a checkout session of this merchant.');
    }
    if (session.status === 'paid') {
      throw new RequestProblem(
        '94',
        `This checkout session has already been paid (transaction ${session.transactionId}).`,
      );
    }
    if (session.status !== 'open')
      throw new RequestProblem('12', `This checkout session is ${session.status}.`);
    const { rows } = await tx.query<{
      claim_reference: string | null;
      claimed_at: Date | null;
      attempts: number;
    }>('select claim_reference, claimed_at, attempts from checkout_sessions where id = $1', [session.id]);
    const row = rows[0]!;
    if (row.claim_reference && row.claimed_at) {
      const age = deps.now().getTime() - row.claimed_at.getTime();
      if (age < (deps.claimTimeoutMs ?? CLAIM_TIMEOUT_MS))
        throw new RequestProblem('09', 'A payment for this checkout session is in progress.');
      return { kind: 'stale' as const, stale: row.claim_reference, session, attempts: row.attempts };
    }
    const reference = `cs${session.id}-a${row.attempts + 1}`;
    await tx.query(
      'update checkout_sessions set attempts = attempts + 1, claim_reference = $2, claimed_at = $3 where id = $1',
      [session.id, reference, deps.now()],
    );
    return { kind: 'claimed' as const, reference, session };
  });
  if (outcome.kind === 'claimed')
    return { kind: 'claimed', reference: outcome.reference, session: outcome.session };

  // Recovery: ask the processor what became of the attempt that never finished.
  const previous = await deps.processor.lookup(outcome.stale);
  if (previous?.approved)
    return { kind: 'recovered', reference: outcome.stale, session: outcome.session, result: previous };
  return deps.db.transaction(async (tx) => {
    const reference = `cs${outcome.session.id}-a${outcome.attempts + 1}`;
    const { rowCount } = await tx.query(
      `update checkout_sessions set attempts = attempts + 1, claim_reference = $2, claimed_at = $3
       where id = $1 and claim_reference = $4`,
      [outcome.session.id, reference, deps.now(), outcome.stale],
    );
    if (rowCount !== 1) throw new RequestProblem('09', 'A payment for this checkout session is in progress.');
    return { kind: 'claimed' as const, reference, session: outcome.session };
  });
}

/** Ends the attempt: the session is paid (approved) or open again for another attempt. */
export async function releaseClaim(q: Queryable, sessionId: string, paidBy: string | null): Promise<void> {
  if (paidBy) {
    await q.query(
      "update checkout_sessions set status = 'paid', transaction_id = $2, claim_reference = null, claimed_at = null where id = $1",
      [sessionId, paidBy],
    );
  } else {
    await q.query('update checkout_sessions set claim_reference = null, claimed_at = null where id = $1', [
      sessionId,
    ]);
  }
}
