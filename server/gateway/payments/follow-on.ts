/**
 * Capture, void, refund and partial reversal of an earlier transaction (OriginalTransactionID).
 * The original is locked while its remaining amount is checked and used up, so two captures of one
 * auth at the same moment cannot both succeed, on any number of instances (a row lock in the
 * database); never above what remains.
 */
import { AmountError, fromCents, toCents } from '../../../shared/money.ts';
import type { GatewayDeps } from '../gateway-call.ts';
import { type Request, RequestProblem } from './payment-source.ts';
import { getTransaction, insertTransaction, type TransactionRow } from './transaction-rows.ts';

type FollowOnKind = 'capture' | 'void' | 'refund' | 'reversal';

/** The column of the original that records what each kind of follow-on used up (a void flags it). */
const USED_COLUMN: Record<FollowOnKind, string | null> = {
  capture: 'captured_amount',
  refund: 'refunded_amount',
  reversal: 'reversed_amount',
  void: null,
};

function optionalCents(value: string | undefined, what: string): bigint | null {
  if (value === undefined || /^[+]?0*(\.0*)?$/.test(value.trim())) return null;
  try {
    const cents = toCents(value);
    if (cents <= 0n) throw new AmountError(`${what} must be greater than zero.`);
    return cents;
  } catch (err) {
    if (err instanceof AmountError) throw new RequestProblem('13', err.message);
    throw err;
  }
}

/** What is left of an original for this kind of follow-on, and checks that it applies. */
function remaining(kind: FollowOnKind, o: TransactionRow): bigint {
  if (o.status !== 'approved') throw new RequestProblem('12', 'The original transaction was declined.');
  if (o.voided) throw new RequestProblem('12', 'The original transaction was voided.');
  switch (kind) {
    case 'capture':
    case 'reversal':
      if (o.kind !== 'auth')
        throw new RequestProblem(
          '12',
          `Only an auth can be ${kind === 'capture' ? 'captured' : 'partially reversed'}.`,
        );
      return o.approvedCents - o.capturedCents - o.reversedCents;
    case 'void':
      if (o.kind !== 'auth' && o.kind !== 'sale' && o.kind !== 'capture')
        throw new RequestProblem('12', 'Only an auth, sale or capture can be voided.');
      if (o.batchId !== null)
        throw new RequestProblem('12', 'The transaction is settled; refund it instead.');
      if (o.capturedCents > 0n || o.refundedCents > 0n)
        throw new RequestProblem('12', 'The transaction has captures or refunds; it cannot be voided.');
      return o.approvedCents;
    case 'refund':
      if (o.kind !== 'sale' && o.kind !== 'capture')
        throw new RequestProblem('12', 'Only a sale or a capture can be refunded.');
      return o.approvedCents - o.refundedCents;
  }
}

/**
 * What a follow-on of this kind could use of the original now, by the rules above; 0 where they
 * refuse it. The dashboard shows it beside a payment (GetPayment), so it never offers more.
 */
export function remainingFor(kind: FollowOnKind, o: TransactionRow): bigint {
  try {
    return remaining(kind, o);
  } catch (err) {
    if (err instanceof RequestProblem) return 0n;
    throw err;
  }
}

/** The amount a follow-on would use, checked as runFollowOn checks it (TestRequest: nothing changes). */
export async function checkFollowOn(
  deps: GatewayDeps,
  merchantId: string,
  kind: FollowOnKind,
  r: Request,
): Promise<bigint> {
  const originalId = r.OriginalTransactionID;
  if (!originalId || originalId === '0')
    throw new RequestProblem('12', `OriginalTransactionID is required for a ${kind}.`);
  const o = await getTransaction(deps.db, merchantId, originalId);
  if (!o)
    throw new RequestProblem('12', 'OriginalTransactionID does not name a transaction of this merchant.');
  return amountToUse(kind, o, r);
}

/** How much a follow-on uses of what is left of its original, or the problem with what was asked. */
function amountToUse(kind: FollowOnKind, o: TransactionRow, r: Request): bigint {
  const asked =
    kind === 'reversal'
      ? optionalCents(r.SettlementAmount, 'SettlementAmount')
      : kind === 'void'
        ? null
        : optionalCents(r.Amount, 'Amount');
  const left = remaining(kind, o);
  if (kind === 'reversal') {
    // SettlementAmount is what stays authorised; the rest of the auth is given back.
    const keep = asked ?? 0n;
    if (keep > left)
      throw new RequestProblem(
        '13',
        `SettlementAmount is more than the ${fromCents(left)} still authorised.`,
      );
    if (left - keep === 0n)
      throw new RequestProblem('13', 'Nothing to reverse: SettlementAmount keeps the whole authorisation.');
    return left - keep;
  }
  const cents = asked ?? left;
  if (cents > left)
    throw new RequestProblem('13', `Amount is more than the ${fromCents(left)} that remains.`);
  if (cents <= 0n) throw new RequestProblem('13', 'Nothing remains to use on the original transaction.');
  return cents;
}

export async function runFollowOn(
  deps: GatewayDeps,
  merchantId: string,
  kind: FollowOnKind,
  r: Request,
): Promise<TransactionRow> {
  const originalId = r.OriginalTransactionID;
  if (!originalId || originalId === '0')
    throw new RequestProblem('12', `OriginalTransactionID is required for a ${kind}.`);
  // Reserve the amount under a row lock, record the follow-on, then tell the processor.
  const { row, original } = await deps.db.transaction(async (tx) => {
    const o = await getTransaction(tx, merchantId, originalId, { forUpdate: true });
    if (!o)
      throw new RequestProblem('12', 'OriginalTransactionID does not name a transaction of this merchant.');
    const cents = amountToUse(kind, o, r);
    const column = USED_COLUMN[kind];
    if (column) {
      await tx.query(`update transactions set ${column} = ${column} + $2 where id = $1`, [
        o.id,
        fromCents(cents),
      ]);
    } else {
      await tx.query("update transactions set voided = true, settlement_status = 'Voided' where id = $1", [
        o.id,
      ]);
    }
    if (kind === 'refund' && o.refundedCents + cents === o.approvedCents) {
      await tx.query("update transactions set settlement_status = 'Refunded' where id = $1", [o.id]);
    }
    const inserted = await insertTransaction(tx, {
      merchantId,
      kind: kind === 'reversal' ? 'void' : kind,
      method: o.method,
      approved: true,
      amountCents: cents,
      approvedCents: cents,
      originalTransactionId: o.id,
      cardId: o.cardId,
      nameOnCard: o.nameOnCard,
      responseCode: '00',
      responseMessage: {
        capture: 'Captured',
        void: 'Voided',
        refund: 'Refunded',
        reversal: 'Partially reversed',
      }[kind],
      customValues: [r.CustomValue1, r.CustomValue2, r.CustomValue3],
      processorReference: null,
    });
    if (kind === 'void' || kind === 'reversal') {
      // A void or reversal moves no money at settlement: it is closed as it is recorded.
      await tx.query("update transactions set settlement_status = 'Voided' where id = $1", [inserted.id]);
    }
    return { row: inserted, original: o };
  });

  const reference = `${kind}-${row.id}`;
  const originalReference = original.processorReference ?? `tx-${original.id}`;
  const call = { reference, originalReference, amountCents: row.amountCents };
  const result =
    kind === 'capture'
      ? await deps.processor.capture(call)
      : kind === 'refund'
        ? await deps.processor.refund(call)
        : await deps.processor.voidAuthorization(call);
  if (result.approved) {
    await deps.db.query(
      'update transactions set processor_reference = $2, approval_code = $3 where id = $1',
      [row.id, reference, result.approvalCode ?? null],
    );
    return { ...row, processorReference: reference, approvalCode: result.approvalCode ?? null };
  }
  // The processor refused: give the reserved amount back and record the refusal as it came.
  await deps.db.transaction(async (tx) => {
    await getTransaction(tx, merchantId, original.id, { forUpdate: true });
    const column = USED_COLUMN[kind];
    if (column) {
      await tx.query(`update transactions set ${column} = ${column} - $2 where id = $1`, [
        original.id,
        fromCents(row.amountCents),
      ]);
    } else {
      await tx.query('update transactions set voided = false, settlement_status = $2 where id = $1', [
        original.id,
        original.settlementStatus,
      ]);
    }
    if (kind === 'refund') {
      await tx.query('update transactions set settlement_status = $2 where id = $1', [
        original.id,
        original.settlementStatus,
      ]);
    }
    await tx.query(
      `update transactions set status = 'declined', settlement_status = 'Declined', approved_amount = 0,
         response_code = $2, response_message = $3, processor_reference = $4 where id = $1`,
      [row.id, result.responseCode, result.responseMessage, reference],
    );
  });
  return {
    ...row,
    status: 'declined',
    settlementStatus: 'Declined',
    approvedCents: 0n,
    responseCode: result.responseCode,
    responseMessage: result.responseMessage,
    processorReference: reference,
  };
}
