/**
 * A sale of a checkout session, at its floor (DESIGN.md §8, §17). Three commits, each one that
 * exactly-once needs:
 *   1. the claim (one statement that also reads the merchant), the amount and method checks, the
 *      card into the vault and 3-D Secure values used up, in one transaction committed before the
 *      processor is called — a request problem rolls it all back, claim included;
 *   2. the processor's own record of its answer (the simulator's ledger, one statement);
 *   3. the transaction row and the session paid (or released), together.
 * A claim left by an attempt cut short is settled by looking its reference up at the processor
 * (session-claim.ts), outside any transaction: the processor is another party — by the next pay of
 * the session, or by the gateway's sweep (claim-sweep.ts) from what the claim keeps of the charge.
 */
import type { GatewayDeps } from '../gateway-call.ts';
import type { ProcessorResult } from '../processor/processor.ts';
import type { SessionRecord } from '../sessions/session-record.ts';
import { type Request, RequestProblem, resolveSource, type Source } from './payment-source.ts';
import {
  amountOf,
  checkMethod,
  authorize,
  challengeOrDecline,
  chargeOf,
  failedThreeDs,
  refusePartial,
  type SaleOutcome,
  type ThreeDsCheck,
  threeDsAuthenticated,
  transactionOf,
} from './sale-steps.ts';
import { type Claim, claimSession, holdClaimCharge, reclaimStale, releaseClaim } from './session-claim.ts';
import { insertTransaction, type Kind } from './transaction-rows.ts';

export type SessionSale =
  | { kind: 'not_found' }
  | { kind: 'in_progress'; record: SessionRecord }
  /** Paid, expired or canceled before this attempt could claim it. */
  | { kind: 'unavailable'; record: SessionRecord }
  /** A problem with the request itself (card number, method, amount): nothing was claimed or charged. */
  | { kind: 'refused'; record: SessionRecord; problem: RequestProblem }
  | { kind: 'done'; record: SessionRecord; sale: SaleOutcome };

interface Prepared {
  source: Source;
  cents: bigint;
  threeDs: ThreeDsCheck;
}

/** Thrown inside the claim's transaction to roll it back, claim and vault write included. */
class Refusal extends Error {
  constructor(
    readonly record: SessionRecord,
    readonly problem: RequestProblem,
  ) {
    super(problem.message);
  }
}

async function prepare(
  q: Parameters<typeof resolveSource>[0],
  deps: GatewayDeps,
  kind: Extract<Kind, 'sale' | 'auth'>,
  record: SessionRecord,
  r: Request,
  actingMerchant: string | null,
): Promise<Prepared> {
  const { session, merchant } = record;
  try {
    const cents = amountOf(r, session.amountCents);
    checkMethod(kind, r, merchant);
    // A shopper's wallet card may be paid only by the checkout server, for a checkout session.
    const source = await resolveSource(q, deps, merchant.id, r, { allowWallet: actingMerchant === null });
    const threeDs = await threeDsAuthenticated(q, deps, merchant.id, source, cents, r);
    return { source, cents, threeDs };
  } catch (err) {
    if (err instanceof RequestProblem) throw new Refusal(record, err);
    throw err;
  }
}

/** `prepare` for a claim just taken, with what it charges kept on the claim (one more statement). */
async function prepareClaimed(
  tx: Parameters<typeof resolveSource>[0],
  deps: GatewayDeps,
  kind: Extract<Kind, 'sale' | 'auth'>,
  record: SessionRecord,
  r: Request,
  actingMerchant: string | null,
): Promise<Prepared> {
  const prepared = await prepare(tx, deps, kind, record, r, actingMerchant);
  await holdClaimCharge(tx, record.session.id, chargeOf(kind, prepared.source, r, record.session.id));
  return prepared;
}

type Begun =
  | Exclude<Claim, { kind: 'claimed' | 'stale' }>
  | { kind: 'claimed'; reference: string; record: SessionRecord; prepared: Prepared }
  | {
      kind: 'recovered';
      reference: string;
      record: SessionRecord;
      prepared: Prepared;
      result: ProcessorResult;
    };

async function begin(
  deps: GatewayDeps,
  kind: Extract<Kind, 'sale' | 'auth'>,
  r: Request,
  token: string,
  actingMerchant: string | null,
): Promise<Begun> {
  const first = await deps.db.transaction(async (tx) => {
    const claim = await claimSession(tx, deps, token, actingMerchant);
    if (claim.kind !== 'claimed') return claim;
    return { ...claim, prepared: await prepareClaimed(tx, deps, kind, claim.record, r, actingMerchant) };
  });
  if (first.kind !== 'stale') return first;
  // An attempt was cut short: ask the processor what became of it (REL-3).
  const previous = await deps.processor.lookup(first.reference);
  return deps.db.transaction(async (tx) => {
    if (previous?.approved) {
      const prepared = await prepare(tx, deps, kind, first.record, r, actingMerchant);
      return {
        kind: 'recovered',
        reference: first.reference,
        record: first.record,
        prepared,
        result: previous,
      };
    }
    const again = await reclaimStale(tx, deps, first.record, first.reference);
    if (again.kind !== 'claimed') return again;
    return { ...again, prepared: await prepareClaimed(tx, deps, kind, again.record, r, actingMerchant) };
  });
}

export async function paySessionSale(
  deps: GatewayDeps,
  kind: Extract<Kind, 'sale' | 'auth'>,
  r: Request,
  token: string,
  actingMerchant: string | null,
): Promise<SessionSale> {
  let begun: Begun;
  try {
    begun = await begin(deps, kind, r, token, actingMerchant);
  } catch (err) {
    if (err instanceof Refusal) return { kind: 'refused', record: err.record, problem: err.problem };
    throw err;
  }
  if (begun.kind !== 'claimed' && begun.kind !== 'recovered') return begun;
  const { record, reference, prepared } = begun;
  const { source, cents, threeDs } = prepared;
  const { session, merchant } = record;

  let result: ProcessorResult;
  try {
    result =
      begun.kind === 'recovered'
        ? begun.result
        : threeDs.failure
          ? failedThreeDs(threeDs.failure)
          : await authorize(deps, source, reference, cents, r, threeDs.authenticated);
  } catch (err) {
    await releaseClaim(deps.db, session.id, null);
    throw err;
  }

  if (result.challengeRequired && source.kind === 'card') {
    await releaseClaim(deps.db, session.id, null);
    const c = await challengeOrDecline(deps, merchant, source, cents, result);
    if (c.challengeUrl) {
      return {
        kind: 'done',
        record,
        sale: { row: null, source, result: c.result, challengeUrl: c.challengeUrl },
      };
    }
    result = c.result;
  }

  const settled = await refusePartial(deps, reference, cents, result);
  result = settled.result;
  const detail = settled.detail;

  const row = await deps.db.transaction(async (tx) => {
    const inserted = await insertTransaction(
      tx,
      transactionOf(merchant.id, kind, source, cents, result, r, {
        detail,
        sessionId: session.id,
        reference,
      }),
    );
    await releaseClaim(tx, session.id, result.approved ? inserted.id : null);
    return inserted;
  });
  return { kind: 'done', record, sale: { row, source, result, ...(detail ? { detail } : {}) } };
}
