/** The `transactions` table: one row per processor outcome (DESIGN.md "What the spec leaves open"). */
import { fromCents, toCents } from '../../../shared/money.ts';
import type { Queryable } from '../../db/database.ts';

export type Kind = 'sale' | 'auth' | 'capture' | 'void' | 'refund' | 'verify';
export type SettlementStatus = 'Pending' | 'Settled' | 'Voided' | 'Refunded' | 'Declined';

export interface TransactionRow {
  id: string;
  merchantId: string;
  kind: Kind;
  method: 'card' | 'ach';
  status: 'approved' | 'declined';
  amountCents: bigint;
  approvedCents: bigint;
  capturedCents: bigint;
  refundedCents: bigint;
  reversedCents: bigint;
  voided: boolean;
  originalTransactionId: string | null;
  cardId: string | null;
  achAccountLast4: string | null;
  nameOnCard: string | null;
  responseCode: string;
  responseMessage: string;
  approvalCode: string | null;
  avsCode: string | null;
  settlementStatus: SettlementStatus;
  batchId: string | null;
  checkoutSessionId: string | null;
  processorReference: string | null;
  source: string | null;
  customValues: [string | null, string | null, string | null];
  createdAt: Date;
}

export interface NewTransaction {
  merchantId: string;
  kind: Kind;
  method: 'card' | 'ach';
  approved: boolean;
  amountCents: bigint;
  approvedCents: bigint;
  originalTransactionId?: string | null;
  cardId?: string | null;
  ach?: { routingLast4: string; accountLast4: string; accountType: string } | null;
  nameOnCard?: string | null;
  responseCode: string;
  responseMessage: string;
  responseDetail?: string | null;
  approvalCode?: string | null;
  avsCode?: string | null;
  checkoutSessionId?: string | null;
  customerId?: string | null;
  source?: string | null;
  customValues?: readonly (string | null | undefined)[];
  processorReference?: string | null;
}

export function fromRow(r: Record<string, unknown>): TransactionRow {
  const s = (k: string) => (r[k] === null || r[k] === undefined ? null : String(r[k]));
  return {
    id: String(r.id),
    merchantId: String(r.merchant_id),
    kind: r.kind as Kind,
    method: r.method as 'card' | 'ach',
    status: r.status as 'approved' | 'declined',
    amountCents: toCents(r.amount as string),
    approvedCents: toCents(r.approved_amount as string),
    capturedCents: toCents(r.captured_amount as string),
    refundedCents: toCents(r.refunded_amount as string),
    reversedCents: toCents(r.reversed_amount as string),
    voided: r.voided as boolean,
    originalTransactionId: s('original_transaction_id'),
    cardId: s('card_id'),
    achAccountLast4: s('ach_account_last4'),
    nameOnCard: s('name_on_card'),
    responseCode: r.response_code as string,
    responseMessage: r.response_message as string,
    approvalCode: s('approval_code'),
    avsCode: s('avs_code'),
    settlementStatus: r.settlement_status as SettlementStatus,
    batchId: s('batch_id'),
    checkoutSessionId: s('checkout_session_id'),
    processorReference: s('processor_reference'),
    source: s('source'),
    customValues: [s('custom_value1'), s('custom_value2'), s('custom_value3')],
    createdAt: r.created_at as Date,
  };
}

export async function insertTransaction(q: Queryable, t: NewTransaction): Promise<TransactionRow> {
  const cv = t.customValues ?? [];
  const { rows } = await q.query(
    `insert into transactions (merchant_id, kind, method, status, amount, approved_amount, original_transaction_id,
       card_id, ach_routing_last4, ach_account_last4, ach_account_type, name_on_card, response_code, response_message,
       response_detail, approval_code, avs_code, settlement_status, checkout_session_id, customer_id, source,
       custom_value1, custom_value2, custom_value3, processor_reference)
     values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25)
     returning *`,
    [
      t.merchantId,
      t.kind,
      t.method,
      t.approved ? 'approved' : 'declined',
      fromCents(t.amountCents),
      fromCents(t.approvedCents),
      t.originalTransactionId ?? null,
      t.cardId ?? null,
      t.ach?.routingLast4 ?? null,
      t.ach?.accountLast4 ?? null,
      t.ach?.accountType ?? null,
      t.nameOnCard ?? null,
      t.responseCode,
      t.responseMessage,
      t.responseDetail ?? null,
      t.approvalCode ?? null,
      t.avsCode ?? null,
      t.approved ? 'Pending' : 'Declined',
      t.checkoutSessionId ?? null,
      t.customerId && t.customerId !== '0' ? t.customerId : null,
      t.source ?? null,
      cv[0] ?? null,
      cv[1] ?? null,
      cv[2] ?? null,
      t.processorReference ?? null,
    ],
  );
  return fromRow(rows[0]!);
}

export async function getTransaction(
  q: Queryable,
  merchantId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<TransactionRow | null> {
  if (!/^\d{1,19}$/.test(id)) return null;
  const { rows } = await q.query(
    `select * from transactions where id = $1 and merchant_id = $2${options.forUpdate ? ' for update' : ''}`,
    [id, merchantId],
  );
  return rows[0] ? fromRow(rows[0]) : null;
}

/** The transaction a processor reference was recorded as, if any (a claim's settlement). */
export async function transactionByReference(
  q: Queryable,
  merchantId: string,
  reference: string,
): Promise<TransactionRow | null> {
  const { rows } = await q.query(
    'select * from transactions where processor_reference = $1 and merchant_id = $2 order by id limit 1',
    [reference, merchantId],
  );
  return rows[0] ? fromRow(rows[0]) : null;
}
