/**
 * The gateway settles its own in-doubt payment claims (issue 21; security-requirements.md REL-3),
 * without waiting for the shopper to pay again. A claim older than the claim timeout belongs to an
 * attempt cut short — the process died between the processor's answer and the record (transaction
 * 4 of a pay, server/checkout/README.md). The processor is asked by the claim's reference:
 *   - approved in full → the transaction row the attempt would have written (from what the claim
 *     keeps of the charge, `claim_charge`) and the session paid, in one transaction;
 *   - approved for less than the amount → given back (void), as the attempt would have, and the
 *     decline recorded;
 *   - declined, or nothing at the processor → the claim released: the session is open again.
 * It never charges. The checkout learns the verdict from GetCheckoutSession (its recovery waits
 * while a claim is held, then records the payment and sends its webhook).
 *
 * Safe on many instances: a pass takes its candidates with `for update skip locked` and renews their
 * `claimed_at` (a lease), so another instance's pass — or a pay of the session, which treats only a
 * claim older than the timeout as cut short — leaves them alone while this one settles them. The
 * lookup is outside any transaction (the processor is another party; on PGlite a statement issued
 * while a transaction is open would wait for it forever), and each record is its own transaction,
 * guarded by the claim's reference: whoever settled the claim first wins, the other changes nothing.
 */
import { toCents } from '../../../shared/money.ts';
import type { GatewayDeps } from '../gateway-call.ts';
import type { ProcessorResult } from '../processor/processor.ts';
import { CLAIM_TIMEOUT_MS } from './claim-timeout.ts';
import { type ClaimCharge, refusePartial, transactionOfCharge } from './sale-steps.ts';
import { releaseClaim } from './session-claim.ts';
import { insertTransaction } from './transaction-rows.ts';

/** Claims settled in one pass at most; a longer backlog is taken by the next passes. */
export const CLAIM_SWEEP_BATCH = 50;

/** How often the sweep runs (and once at start); the claim timeout when that is shorter. */
export const CLAIM_SWEEP_INTERVAL_MS = 10_000;

/**
 * The latest time a claim taken at `claimedAt` is settled if its attempt does not settle it: when it
 * turns stale, plus one sweep interval. What a 409's Retry-After says (issue 21).
 */
export function claimSettlesBy(deps: Pick<GatewayDeps, 'claimTimeoutMs'>, claimedAt: Date): Date {
  const timeout = deps.claimTimeoutMs ?? CLAIM_TIMEOUT_MS;
  return new Date(claimedAt.getTime() + timeout + Math.min(CLAIM_SWEEP_INTERVAL_MS, timeout));
}

/** The processor references a pass settled, by verdict: each a line in the log. */
export interface ClaimSweepResult {
  /** Charged: the transaction recorded, the session paid. */
  recorded: string[];
  /** Not charged (or a partial approval given back): the session open again. */
  released: string[];
  /** Left for the next pass: the processor could not be asked, or the claim keeps no charge. */
  unresolved: string[];
}

interface StaleClaim {
  sessionId: string;
  merchantId: string;
  amountCents: bigint;
  reference: string;
  charge: ClaimCharge | null;
}

type Verdict = keyof ClaimSweepResult;

/**
 * Takes up to `limit` claims older than the timeout (of the given sessions only, when named; of
 * this instance's predecessors only, when its id is named), renewing them as this pass's lease,
 * held by this process.
 */
async function takeStaleClaims(
  deps: GatewayDeps,
  limit: number,
  sessionIds: readonly string[] | null,
  olderThanMs: number,
  predecessorsOf: string | null,
): Promise<StaleClaim[]> {
  const now = deps.now();
  const before = new Date(now.getTime() - olderThanMs);
  const { rows } = await deps.db.query<{
    id: string;
    merchant_id: string;
    amount: string;
    claim_reference: string;
    claim_charge: ClaimCharge | null;
  }>(
    `update checkout_sessions s set claimed_at = $2, claim_owner = $6
     from (select id from checkout_sessions
           where claim_reference is not null and claimed_at <= $1
             and ($4::bigint[] is null or id = any($4::bigint[]))
             and ($5::text is null or (claim_owner like $5 || '.%' and claim_owner is distinct from $6))
           order by claimed_at limit $3 for update skip locked) stale
     where s.id = stale.id
     returning s.id, s.merchant_id, s.amount, s.claim_reference, s.claim_charge`,
    [before, now, limit, sessionIds, predecessorsOf, deps.instanceOwner ?? null],
  );
  return rows.map((r) => ({
    sessionId: r.id,
    merchantId: r.merchant_id,
    amountCents: toCents(r.amount),
    reference: r.claim_reference,
    charge: r.claim_charge,
  }));
}

/**
 * Records the processor's verdict on one claim, if the claim is still the one this pass took; null
 * when a pay of the session settled it meanwhile.
 */
async function record(
  deps: GatewayDeps,
  claim: StaleClaim,
  result: ProcessorResult | null,
  detail: string | undefined,
): Promise<Verdict | null> {
  return deps.db.transaction(async (tx) => {
    const { rows } = await tx.query(
      'select 1 from checkout_sessions where id = $1 and claim_reference = $2 for update',
      [claim.sessionId, claim.reference],
    );
    if (!rows[0]) return null;
    if (result && claim.charge && (result.approved || detail)) {
      const row = await insertTransaction(
        tx,
        transactionOfCharge(claim.merchantId, claim.charge, claim.amountCents, result, {
          detail,
          sessionId: claim.sessionId,
          reference: claim.reference,
        }),
      );
      await releaseClaim(tx, claim.sessionId, result.approved ? row.id : null);
      return result.approved ? 'recorded' : 'released';
    }
    await releaseClaim(tx, claim.sessionId, null);
    return 'released';
  });
}

async function settle(deps: GatewayDeps, claim: StaleClaim): Promise<Verdict | null> {
  const result = await deps.processor.lookup(claim.reference);
  if (result?.approved && !claim.charge) {
    // A claim taken before its charge was kept (migration 0016): the next pay of the session
    // records it from its own request, as before.
    return 'unresolved';
  }
  // A checkout session is paid in full or not at all, the same reversal a pay makes.
  const settled = result
    ? await refusePartial(deps, claim.reference, claim.amountCents, result)
    : { result: null, detail: undefined };
  return record(deps, claim, settled.result, settled.detail);
}

export interface SweepOptions {
  limit?: number;
  /** Only these sessions' claims (reconciliation's repairs, a cancel waiting on a claim). */
  sessionIds?: readonly string[];
  /**
   * Claims older than this count as cut short; default the claim timeout. Shorter only when no live
   * attempt can hold a claim: at the start of the one process a PGlite database admits.
   */
  olderThanMs?: number;
  /**
   * Only the claims this instance's predecessors left: carrying its id (server/instance.ts) with
   * another process's suffix than this one's (`deps.instanceOwner`).
   */
  predecessorsOf?: string;
  onError?: (err: unknown, reference: string) => void;
}

/** How long a cancel waits at most for the verdict on a claim (a live pay takes well under it). */
export const CANCEL_WAIT_MS = 5_000;
const CLAIM_POLL_MS = 100;

/**
 * Waits, at most `deps.cancelWaitMs`, until no claim is held on the session: a live attempt ends, or
 * a claim older than the timeout is settled here and now through the sweep (issue 21: a cancel of a
 * session with an in-doubt claim answers the verdict, not "in progress" until someone pays again).
 * True when the session holds no claim any more.
 */
export async function awaitClaim(deps: GatewayDeps, sessionId: string): Promise<boolean> {
  const deadline = Date.now() + (deps.cancelWaitMs ?? CANCEL_WAIT_MS);
  for (;;) {
    await settleStaleClaims(deps, { sessionIds: [sessionId], limit: 1 });
    const { rows } = await deps.db.query(
      'select 1 from checkout_sessions where id = $1 and claim_reference is not null',
      [sessionId],
    );
    if (!rows[0]) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
  }
}

/** One pass: settles the claims left by attempts cut short; answers which it settled, and how. */
export async function settleStaleClaims(
  deps: GatewayDeps,
  options: SweepOptions = {},
): Promise<ClaimSweepResult> {
  const settled: ClaimSweepResult = { recorded: [], released: [], unresolved: [] };
  const claims = await takeStaleClaims(
    deps,
    options.limit ?? CLAIM_SWEEP_BATCH,
    options.sessionIds ?? null,
    options.olderThanMs ?? deps.claimTimeoutMs ?? CLAIM_TIMEOUT_MS,
    options.predecessorsOf ?? null,
  );
  for (const claim of claims) {
    let verdict: Verdict | null;
    try {
      verdict = await settle(deps, claim);
    } catch (err) {
      // The processor or the database failed for this one: its lease runs out, a later pass retries.
      options.onError?.(err, claim.reference);
      verdict = 'unresolved';
    }
    if (verdict) settled[verdict].push(claim.reference);
  }
  return settled;
}
