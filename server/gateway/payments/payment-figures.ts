/**
 * A merchant's figures for the dashboard (issue 15): its payments per UTC day, and what awaits
 * settlement beside its latest batches. Settlement counts exactly what SettleTransaction would put
 * in a batch (its SETTLEABLE rule), netting refunds as a batch does.
 */
import type { Queryable } from '../../db/database.ts';
import { SETTLEABLE } from '../operations/settlement-operations.ts';

export interface DayRow {
  /** YYYY-MM-DD, the UTC day. */
  day: string;
  volume: string;
  approved: number;
  declined: number;
}

/** The gateway's own amounts are US dollars; a checkout session may name another currency. */
export const GATEWAY_CURRENCY = 'USD';

/**
 * A payment's currency: its checkout session's, or for a capture its authorisation's session's;
 * the gateway's own otherwise. Over `transactions t`, looked up by primary key per row, so a
 * merchant's period is read through its index and nothing else is scanned.
 */
const CURRENCY = `coalesce((select s.currency from checkout_sessions s where s.id = coalesce(t.checkout_session_id,
    (select o.checkout_session_id from transactions o where o.id = t.original_transaction_id))),
    '${GATEWAY_CURRENCY}')`;
const IN_PERIOD = `t.merchant_id = $1 and t.created_at >= $2 and t.created_at < $3
        and t.kind in ('sale', 'auth', 'capture')`;

/**
 * Per UTC day in [from, before), in one currency: the money approved sales and captures took
 * (voided ones took none; refunds are not taken off), and how many sales and authorisations were
 * approved and declined. Days without a payment are absent. Walks transactions_merchant_created.
 */
export async function paymentDays(
  q: Queryable,
  merchantId: string,
  from: Date,
  before: Date,
  currency: string,
): Promise<DayRow[]> {
  const { rows } = await q.query<Record<string, unknown>>(
    `select to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD') as day,
            coalesce(sum(t.approved_amount) filter (
              where t.status = 'approved' and t.kind in ('sale', 'capture') and not t.voided), 0) as volume,
            count(*) filter (where t.status = 'approved' and t.kind in ('sale', 'auth')) as approved,
            count(*) filter (where t.status = 'declined' and t.kind in ('sale', 'auth')) as declined
       from transactions t
      where ${IN_PERIOD} and ${CURRENCY} = $4
      group by 1`,
    [merchantId, from, before, currency],
  );
  return rows.map((r) => ({
    day: r.day as string,
    volume: String(r.volume),
    approved: Number(r.approved),
    declined: Number(r.declined),
  }));
}

/** The currencies of the merchant's payments in [from, before), most payments first. */
export async function paymentCurrencies(
  q: Queryable,
  merchantId: string,
  from: Date,
  before: Date,
): Promise<string[]> {
  const { rows } = await q.query<{ currency: string }>(
    `select ${CURRENCY} as currency from transactions t
      where ${IN_PERIOD}
      group by 1 order by count(*) desc, 1`,
    [merchantId, from, before],
  );
  return rows.map((r) => r.currency);
}

/** A net amount: sales and captures add, refunds take off (as a batch's net in settlement-operations.ts). */
const NET =
  "coalesce(sum(case when t.kind = 'refund' then -t.approved_amount else t.approved_amount end), 0)";

/** What the merchant's next SettleTransaction would settle: how many, and their net. */
export async function pendingSettlement(
  q: Queryable,
  merchantId: string,
): Promise<{ count: number; total: string }> {
  const { rows } = await q.query<Record<string, unknown>>(
    `select count(*) as n, ${NET} as total from transactions t where ${SETTLEABLE} and merchant_id = $1`,
    [merchantId],
  );
  return { count: Number(rows[0]?.n ?? 0), total: String(rows[0]?.total ?? '0') };
}

export interface BatchRow {
  settlementId: string;
  closedAt: Date;
  count: number;
  total: string;
}

/** The merchant's newest batches (by batch number), each with its count and net. */
export async function latestBatches(q: Queryable, merchantId: string, limit: number): Promise<BatchRow[]> {
  const { rows } = await q.query<Record<string, unknown>>(
    `select b.settlement_id, b.closed_at, count(t.id) as n, ${NET} as total
       from (select * from batches where merchant_id = $1 order by batch_number desc limit $2) b
       left join transactions t on t.batch_id = b.id
      group by b.id, b.settlement_id, b.closed_at, b.batch_number
      order by b.batch_number desc`,
    [merchantId, limit],
  );
  return rows.map((r) => ({
    settlementId: String(r.settlement_id),
    closedAt: r.closed_at as Date,
    count: Number(r.n),
    total: String(r.total),
  }));
}
