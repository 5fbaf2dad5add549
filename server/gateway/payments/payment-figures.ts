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
 * A transaction's currency: its checkout session's, else the session of what it follows (a
 * capture's authorisation, a refund's sale, or a refund's capture's authorisation); the gateway's
 * own otherwise. Over `transactions t`, looked up by primary key per row, so a merchant's rows are
 * read through their index and nothing else is scanned.
 */
const CURRENCY = `coalesce((select s.currency from checkout_sessions s where s.id = coalesce(t.checkout_session_id,
    (select coalesce(o.checkout_session_id,
              (select oo.checkout_session_id from transactions oo where oo.id = o.original_transaction_id))
       from transactions o where o.id = t.original_transaction_id))),
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

/** An amount in one currency. */
export interface CurrencyTotal {
  currency: string;
  total: string;
}

/** Rows of (currency, total) as totals, the currencies in order. */
function totalsOf(rows: readonly Record<string, unknown>[]): CurrencyTotal[] {
  return rows.map((r) => ({ currency: String(r.currency), total: String(r.total) }));
}

/** What the merchant's next SettleTransaction would settle: how many, and their net per currency. */
export async function pendingSettlement(
  q: Queryable,
  merchantId: string,
): Promise<{ count: number; totals: CurrencyTotal[] }> {
  const { rows } = await q.query<Record<string, unknown>>(
    `select ${CURRENCY} as currency, count(*) as n, ${NET} as total
       from transactions t where ${SETTLEABLE} and merchant_id = $1
      group by 1 order by 1`,
    [merchantId],
  );
  return { count: rows.reduce((n, r) => n + Number(r.n), 0), totals: totalsOf(rows) };
}

export interface BatchRow {
  settlementId: string;
  closedAt: Date;
  count: number;
  /** The batch's net per currency: a batch settles whatever was pending, in every currency. */
  totals: CurrencyTotal[];
}

/** The merchant's newest batches (by batch number), each with its count and net per currency. */
export async function latestBatches(q: Queryable, merchantId: string, limit: number): Promise<BatchRow[]> {
  const { rows } = await q.query<Record<string, unknown>>(
    `select b.settlement_id, b.closed_at, b.batch_number, c.currency, count(t.id) as n, ${NET} as total
       from (select * from batches where merchant_id = $1 order by batch_number desc limit $2) b
       left join transactions t on t.batch_id = b.id
       left join lateral (select ${CURRENCY} as currency) c on true
      group by b.id, b.settlement_id, b.closed_at, b.batch_number, c.currency
      order by b.batch_number desc, c.currency`,
    [merchantId, limit],
  );
  const batches: BatchRow[] = [];
  for (const r of rows) {
    const id = String(r.settlement_id);
    let batch = batches.at(-1);
    if (batch?.settlementId !== id) {
      batch = { settlementId: id, closedAt: r.closed_at as Date, count: 0, totals: [] };
      batches.push(batch);
    }
    batch.count += Number(r.n);
    // An empty batch has one row without a transaction: a count of 0 and no total.
    if (Number(r.n) > 0) batch.totals.push(...totalsOf([r]));
  }
  return batches;
}
