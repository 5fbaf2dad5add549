/**
 * A merchant's payments as the dashboard reads them (issue 15): the sales and authorisations in
 * `transactions`, each with what followed it (captures, refunds, voids, its batch), one statement a
 * page. A payment's state is worked out here in SQL, once, so that the list, its filter and the
 * detail agree. The list walks transactions_merchant_created (migration 0002) from the cursor down,
 * newest first: (created_at, id) descending, id telling apart payments of one instant.
 */
import type { Queryable } from '../../db/database.ts';
import { GATEWAY_CURRENCY } from './payment-figures.ts';

/** What a list asks for; each filter is optional. */
export interface PaymentQuery {
  merchantId: string;
  /** The states a payment must be in (a filter may name two: Refunded covers partial refunds). */
  states: readonly string[] | null;
  method: 'card' | 'ach' | null;
  createdFrom: Date | null;
  createdBefore: Date | null;
  search: string | null;
  /** Exact matches (any case for the order number and the e-mail). */
  orderNumber?: string | null;
  email?: string | null;
  currency?: string | null;
  /** Just after this payment (the previous page's last). */
  after: PaymentCursor | null;
  limit: number;
}

/**
 * Where a page starts. created_at is kept as the database writes it, to the microsecond: a Date
 * (milliseconds) would move the cursor and skip payments made within the same millisecond.
 */
export interface PaymentCursor {
  createdAt: string;
  id: string;
}

/** One payment's row: the transaction, its card or account, its session and what followed it. */
export interface PaymentRow {
  id: string;
  kind: 'sale' | 'auth';
  state: string;
  method: 'card' | 'ach';
  amount: string;
  approvedAmount: string;
  capturedAmount: string;
  refundedAmount: string;
  responseCode: string;
  settlementId: string | null;
  cardBrand: string | null;
  last4: string | null;
  /** The vault's card (its id, never its number); null for a bank account. */
  cardId: string | null;
  sessionId: string | null;
  sessionToken: string | null;
  sessionCreatedAt: Date | null;
  currency: string | null;
  orderNumber: string | null;
  customerName: string | null;
  customerEmail: string | null;
  /** The processor's AVS letter; null: the address was not checked. */
  avsCode: string | null;
  /** A bank account's type (checking, savings). */
  accountType: string | null;
  createdAt: Date;
}

/*
 * An authorisation's money moves through its captures: what they took (a voided capture took
 * nothing back from the auth's captured_amount, but moved no money either), what was refunded of
 * them, whether one settled. A sale's own columns say the same of it.
 */
const FOLLOWED = `
  left join lateral (
    select coalesce(sum(x.approved_amount) filter (where not x.voided), 0) as captured,
           coalesce(sum(x.refunded_amount), 0) as refunded,
           coalesce(bool_or(x.batch_id is not null), false) as settled,
           max(x.batch_id) as batch_id
      from transactions x
     where x.original_transaction_id = t.id and t.kind = 'auth' and x.kind = 'capture'
       and x.status = 'approved'
  ) f on true`;

const PAYMENT = `
  select t.id, t.kind, t.method, t.status, t.amount, t.approved_amount, t.voided, t.response_code,
         t.name_on_card, t.created_at, t.checkout_session_id, t.card_id, t.avs_code,
         t.ach_account_type,
         case when t.kind = 'sale' then (case when t.voided then 0 else t.approved_amount end)
              else f.captured end as taken,
         case when t.kind = 'sale' then t.refunded_amount else f.refunded end as refunded,
         t.batch_id is not null or f.settled as settled,
         coalesce(t.batch_id, f.batch_id) as batch_id,
         c.brand as card_brand, coalesce(c.last4, t.ach_account_last4) as last4,
         s.token as session_token, s.created_at as session_created_at, s.currency, s.order_number,
         s.email, nullif(concat_ws(' ', s.first_name, s.last_name), '') as session_name
    from transactions t
    left join cards c on c.id = t.card_id
    left join checkout_sessions s on s.id = t.checkout_session_id
    ${FOLLOWED}`;

/** The state of a row of PAYMENT, in the order the dashboard's states are told apart. */
const STATE = `case
    when p.status = 'declined' then 'Declined'
    when p.voided then 'Voided'
    when p.refunded > 0 and p.refunded >= p.taken then 'Refunded'
    when p.refunded > 0 then 'PartiallyRefunded'
    when p.kind = 'auth' and p.taken = 0 then 'Authorized'
    when p.settled then 'Settled'
    else 'Approved'
  end`;

const SELECT = `select p.*, ${STATE} as state, b.settlement_id from (`;
const FROM = `) p left join batches b on b.id = p.batch_id`;

function rowOf(r: Record<string, unknown>): PaymentRow {
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    id: String(r.id),
    kind: r.kind as 'sale' | 'auth',
    state: r.state as string,
    method: r.method as 'card' | 'ach',
    amount: String(r.amount),
    approvedAmount: String(r.approved_amount),
    capturedAmount: String(r.taken),
    refundedAmount: String(r.refunded),
    responseCode: r.response_code as string,
    settlementId: text(r.settlement_id),
    cardBrand: text(r.card_brand),
    last4: text(r.last4),
    cardId: text(r.card_id),
    sessionId: text(r.checkout_session_id),
    sessionToken: text(r.session_token),
    sessionCreatedAt: (r.session_created_at as Date | null) ?? null,
    currency: text(r.currency),
    orderNumber: text(r.order_number),
    customerName: text(r.session_name) ?? text(r.name_on_card),
    customerEmail: text(r.email),
    avsCode: text(r.avs_code),
    accountType: text(r.ach_account_type),
    createdAt: r.created_at as Date,
  };
}

/** `%` and `_` as themselves in a LIKE pattern (escape character `\`). */
function literalLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * What a search finds: an order number it begins (any case), a card's or account's last four, an
 * amount asked or approved (12 or 12.34), a transaction id. Each reading applies only where the text
 * has its shape.
 */
function searchConditions(search: string, param: (value: unknown) => string): string {
  const any = [`s.order_number ilike ${param(`${literalLike(search)}%`)} escape '\\'`];
  if (/^\d{4}$/.test(search)) {
    const p = param(search);
    any.push(`c.last4 = ${p}`, `t.ach_account_last4 = ${p}`);
  }
  if (/^\d{1,10}(\.\d{1,2})?$/.test(search)) {
    const p = param(search);
    any.push(`t.amount = ${p}::numeric`, `t.approved_amount = ${p}::numeric`);
  }
  if (/^\d{1,18}$/.test(search)) any.push(`t.id = ${param(search)}::bigint`);
  return `(${any.join(' or ')})`;
}

/** The cursor of one of the merchant's payments; null for an id that names none of its own. */
export async function paymentCursor(
  q: Queryable,
  merchantId: string,
  id: string,
): Promise<PaymentCursor | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  const { rows } = await q.query<{ created_at: string; id: string }>(
    `select created_at::text as created_at, id from transactions
      where id = $1 and merchant_id = $2 and kind in ('sale', 'auth')`,
    [id, merchantId],
  );
  const row = rows[0];
  return row ? { createdAt: row.created_at, id: String(row.id) } : null;
}

/** One page of the merchant's payments, newest first, and whether more follow. */
export async function paymentPage(
  q: Queryable,
  query: PaymentQuery,
): Promise<{ payments: PaymentRow[]; hasMore: boolean }> {
  const params: unknown[] = [query.merchantId];
  const param = (value: unknown) => `$${params.push(value)}`;
  const where = ['t.merchant_id = $1', "t.kind in ('sale', 'auth')"];
  if (query.after) {
    const at = param(query.after.createdAt);
    where.push(`(t.created_at, t.id) < (${at}::timestamptz, ${param(query.after.id)}::bigint)`);
  }
  if (query.method !== null) where.push(`t.method = ${param(query.method)}`);
  if (query.createdFrom) where.push(`t.created_at >= ${param(query.createdFrom)}`);
  if (query.createdBefore) where.push(`t.created_at < ${param(query.createdBefore)}`);
  if (query.search) where.push(searchConditions(query.search, param));
  if (query.orderNumber) where.push(`lower(s.order_number) = lower(${param(query.orderNumber)})`);
  if (query.email) where.push(`lower(s.email) = lower(${param(query.email)})`);
  // A payment of no session is in the gateway's own currency.
  if (query.currency)
    where.push(`coalesce(s.currency, ${param(GATEWAY_CURRENCY)}) = ${param(query.currency)}`);
  const state = query.states ? `where ${STATE} = any(${param(query.states)}::text[])` : '';
  const { rows } = await q.query(
    `${SELECT} ${PAYMENT} where ${where.join(' and ')} ${FROM}
     ${state} order by p.created_at desc, p.id desc limit ${param(query.limit + 1)}`,
    params,
  );
  return { payments: rows.slice(0, query.limit).map(rowOf), hasMore: rows.length > query.limit };
}

/** One payment of the merchant; null for an id that names none of its own. */
export async function paymentOf(q: Queryable, merchantId: string, id: string): Promise<PaymentRow | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  const { rows } = await q.query(
    `${SELECT} ${PAYMENT} where t.merchant_id = $1 and t.id = $2 and t.kind in ('sale', 'auth') ${FROM}`,
    [merchantId, id],
  );
  return rows[0] ? rowOf(rows[0]) : null;
}
