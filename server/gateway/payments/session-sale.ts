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
import { queueRequestedReceipts } from './soap-receipts.ts';
import { hasCardInput, type Request, RequestProblem, resolveSource, type Source } from './payment-source.ts';
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
import { type Claim, claimSession, endOwnClaim, holdClaimCharge, reclaimStale } from './session-claim.ts';
import { insertTransaction, type Kind, transactionByReference } from './transaction-rows.ts';

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
    // The merchant asks the checkout's card form for the name on the card (issue 14 §3): a typed
    // card from the checkout comes with it. A saved card has its own; a merchant's SOAP call is its own.
    if (actingMerchant === null && merchant.nameOnCardRequired && hasCardInput(r) && !r.CardName?.trim())
      throw new RequestProblem('12', 'The name on the card is required.', 'NameOnCardRequired');
    // A shopper's wallet card may be paid only by the checkout server, for a checkout session.
    const source = await resolveSource(q, deps, merchant.id, r, { allowWallet: actingMerchant === null });
    const threeDs = await threeDsAuthenticated(q, deps, merchant.id, source, cents, r, session.id);
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
  // The merchant does not ask the checkout's card form for the postal code: none goes to the
  // processor, and the payment records no AVS result (the address was not checked). A merchant's
  // own SOAP call sends what it sends.
  const addressUnchecked = actingMerchant === null && !merchant.postalCodeRequired && source.kind === 'card';
  if (addressUnchecked) r = { ...r, Zip: undefined };

  let result: ProcessorResult;
  try {
    result =
      begun.kind === 'recovered'
        ? begun.result
        : threeDs.failure
          ? failedThreeDs(threeDs.failure)
          : await authorize(deps, source, reference, cents, r, threeDs.authenticated);
  } catch (err) {
    result = await afterProcessorError(deps, session.id, reference, err);
  }

  if (result.challengeRequired && source.kind === 'card') {
    await endOwnClaim(deps.db, session.id, reference, null);
    const c = await challengeOrDecline(deps, merchant, source, cents, result, session.id);
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
  if (addressUnchecked) result = { ...result, avsCode: undefined, avsMessage: undefined };
  const detail = settled.detail;

  const row = await deps.db
    .transaction(async (tx) => {
      // Sent together: the claim's end names the new row by the reference it carries.
      const [inserted, own] = await Promise.all([
        insertTransaction(
          tx,
          transactionOf(merchant.id, kind, source, cents, result, r, {
            detail,
            sessionId: session.id,
            reference,
          }),
        ),
        endOwnClaim(tx, session.id, reference, result.approved ? { insertedFor: merchant.id } : null),
      ]);
      // Rolled back when the claim is no longer this attempt's: see claimLost.
      if (!own) throw new ClaimLost();
      // A merchant's own ProcessTransaction may ask for receipts; the checkout queues its own.
      if (actingMerchant !== null) await queueRequestedReceipts(tx, r, merchant, inserted, source);
      return inserted;
    })
    .catch((err: unknown) => {
      if (err instanceof ClaimLost) return null;
      throw err;
    });
  if (!row) return claimLost(deps, kind, record, r, prepared, reference, result);
  return { kind: 'done', record, sale: { row, source, result, ...(detail ? { detail } : {}) } };
}

/** Thrown inside the record's transaction when the claim was settled by another party meanwhile. */
class ClaimLost extends Error {}

/**
 * The processor failed or its answer was lost: the charge may have happened. Asked by the claim's
 * reference at once; when the processor cannot say either, the claim stays held — never released to
 * a new reference that could charge the card a second time — and the gateway's sweep settles it.
 */
async function afterProcessorError(
  deps: GatewayDeps,
  sessionId: string,
  reference: string,
  err: unknown,
): Promise<ProcessorResult> {
  let known: ProcessorResult | null;
  try {
    known = await deps.processor.lookup(reference);
  } catch {
    throw err;
  }
  if (known) return known;
  await endOwnClaim(deps.db, sessionId, reference, null);
  throw err;
}

/**
 * This attempt outlived its claim (the processor answered after the claim timeout): the sweep looked
 * the reference up meanwhile. If it recorded this charge, that record is the answer; if it found
 * nothing and released the session, an approval that arrived since is reversed and recorded as
 * such, so the session is never paid twice nor charged without a record.
 */
async function claimLost(
  deps: GatewayDeps,
  kind: Extract<Kind, 'sale' | 'auth'>,
  record: SessionRecord,
  r: Request,
  { source, cents }: Prepared,
  reference: string,
  result: ProcessorResult,
): Promise<SessionSale> {
  const { session, merchant } = record;
  const recorded = await transactionByReference(deps.db, merchant.id, reference);
  if (recorded) return { kind: 'done', record, sale: { row: recorded, source, result } };
  let final = result;
  let detail: string | undefined;
  if (result.approved) {
    await deps.processor.voidAuthorization({
      reference: `${reference}-void`,
      originalReference: reference,
      amountCents: result.approvedAmountCents,
    });
    final = {
      ...result,
      approved: false,
      responseCode: '91',
      responseMessage: 'The processor answered too late; the approval was reversed.',
      approvedAmountCents: 0n,
    };
    detail = 'The approval came after the attempt had timed out and was reversed.';
  }
  const row = await insertTransaction(
    deps.db,
    transactionOf(merchant.id, kind, source, cents, final, r, { detail, sessionId: session.id, reference }),
  );
  return { kind: 'done', record, sale: { row, source, result: final, ...(detail ? { detail } : {}) } };
}
