/**
 * SettleTransaction: puts one approved transaction, or all of the merchant's pending ones, into a
 * new batch and closes it (DESIGN.md "What the spec leaves open"; security-requirements.md REL-6).
 * Settles of one merchant run one at a time (a lock on the merchant row), so every transaction
 * lands in exactly one batch even when two instances settle at once.
 */
import crypto from 'node:crypto';
import type { OperationParams, OperationResult } from '../../../shared/contract/service.ts';
import { fromCents, toCents } from '../../../shared/money.ts';
import { PayframeError } from '../../errors.ts';
import { actOn } from '../auth.ts';
import type { GatewayCall, GatewayDeps } from '../gateway-call.ts';

/** Approved money movements that settle: sales, captures and refunds not yet in a batch or voided. */
// A sale refunded before it settled still settles (with its refund), keeping its Refunded status.
export const SETTLEABLE =
  "status = 'approved' and kind in ('sale', 'capture', 'refund') and batch_id is null and not voided and settlement_status in ('Pending', 'Refunded')";

export async function settleTransaction(
  params: OperationParams<'SettleTransaction'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'SettleTransaction'>> {
  const r = params.request;
  const merchantId = actOn(call.principal, r?.MerchantID?.trim() || undefined);
  if (!/^\d{1,19}$/.test(merchantId))
    throw new PayframeError('invalid_request', 'MerchantID must be a number.');
  const transactionId = r?.TransactionID?.trim() || null;
  if (transactionId !== null && !/^\d{1,19}$/.test(transactionId)) {
    throw new PayframeError('invalid_request', 'TransactionID must be a number.');
  }
  return deps.db.transaction(async (tx) => {
    const lock = await tx.query('select id from merchants where id = $1 for update', [merchantId]);
    if (lock.rowCount === 0) throw new PayframeError('not_found', 'No merchant matches this request.');
    const where = transactionId
      ? `${SETTLEABLE} and merchant_id = $1 and id = $2`
      : `${SETTLEABLE} and merchant_id = $1`;
    const { rows } = await tx.query<{ id: string; kind: string; approved_amount: string }>(
      `select id, kind, approved_amount from transactions where ${where} order by id for update`,
      transactionId ? [merchantId, transactionId] : [merchantId],
    );
    if (rows.length === 0) {
      return {
        MerchantID: merchantId,
        ResponseCode: '25',
        ResponseMessage: transactionId
          ? 'That transaction cannot be settled: it is not an approved, unsettled sale, capture or refund of this merchant.'
          : 'There is nothing to settle.',
        SettlementID: '0',
      };
    }
    const { rows: n } = await tx.query<{ next: number }>(
      'select coalesce(max(batch_number), 0) + 1 as next from batches where merchant_id = $1',
      [merchantId],
    );
    const batchNumber = Number(n[0]!.next);
    // A random positive 53-bit id: unguessable across merchants, safe in any client's number type.
    const settlementId = String(crypto.randomInt(1, 2 ** 48) * 32 + crypto.randomInt(0, 32));
    const { rows: b } = await tx.query<{ id: string }>(
      'insert into batches (merchant_id, batch_number, settlement_id) values ($1, $2, $3) returning id',
      [merchantId, batchNumber, settlementId],
    );
    await tx.query(
      `update transactions set batch_id = $1,
         settlement_status = case when settlement_status = 'Refunded' then 'Refunded' else 'Settled' end
       where id = any($2::bigint[])`,
      [b[0]!.id, rows.map((row) => row.id)],
    );
    const net = rows.reduce(
      (sum, row) => sum + (row.kind === 'refund' ? -1n : 1n) * toCents(row.approved_amount),
      0n,
    );
    return {
      MerchantID: merchantId,
      ResponseCode: '00',
      BatchNumber: String(batchNumber),
      ResponseMessage: `Settled ${rows.length} transaction${rows.length === 1 ? '' : 's'}, net ${fromCents(net)}.`,
      SettlementID: settlementId,
    };
  });
}
