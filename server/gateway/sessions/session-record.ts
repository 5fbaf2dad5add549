/**
 * A checkout session read with everything the checkout needs about it in one statement: the
 * session, its merchant, and — once paid — the payment (DESIGN.md §16–17). GetCheckoutSession
 * answers from it, and a pay that cannot claim the session explains itself from it.
 */
import type { Queryable } from '../../db/database.ts';
import type { GatewayDeps } from '../gateway-call.ts';
import { type Merchant, MERCHANT_JOIN_COLUMNS, merchantOfJoined } from '../merchants/merchant-store.ts';
import { MERCHANT_WEBHOOK_URL_COLUMN } from '../merchants/webhook-settings.ts';
import {
  type CheckoutSession,
  isSessionToken,
  type SessionStatus,
  sessionOfRow,
} from './checkout-session-store.ts';

export interface SessionPayment {
  transactionId: string;
  paidAt: Date;
  method: 'card' | 'ach';
  approvalCode: string | null;
  maskedCard: string | null;
  /** The card's brand (the vault's, from its BIN); null for a bank account. */
  cardBrand: string | null;
}

export interface SessionRecord {
  session: CheckoutSession;
  merchant: Merchant;
  /** The merchant's TransactionKey, encrypted: decrypted only to sign a paid session's redirect. */
  keyEnc: string;
  /** The merchant's webhook endpoint (issue 16): where the session is announced without a URL of its own. */
  merchantWebhookUrl: string | null;
  /** The key a roll replaced, encrypted, and its overlap's end: it signs the redirect too until then. */
  prevKeyEnc: string | null;
  prevKeyUntil: Date | null;
  /**
   * A payment claim is held on the session: a payment is running, or was cut short and is being
   * settled by the processor's record (claim-sweep.ts, or the next pay). Either way its outcome is
   * not known yet, so nobody may conclude that nothing was charged (issue 21).
   */
  claimed: boolean;
  /** When the held claim was taken (or its lease renewed by the sweep); null when none is held. */
  claimedAt: Date | null;
  payment: SessionPayment | null;
}

const SELECT = `select s.*, ${MERCHANT_JOIN_COLUMNS}, ${MERCHANT_WEBHOOK_URL_COLUMN},
    t.created_at as t_created_at, t.method as t_method, t.approval_code as t_approval_code,
    t.ach_account_last4 as t_ach_last4, c.id as c_id, c.pan_enc as c_pan_enc, c.bin as c_bin,
    c.last4 as c_last4, c.brand as c_brand
  from checkout_sessions s
  join merchants m on m.id = s.merchant_id
  left join transactions t on t.id = s.transaction_id
  left join cards c on c.id = t.card_id`;

/** A record from a row of SELECT (or of a statement returning the same columns). */
type RecordDeps = Pick<GatewayDeps, 'vault' | 'now'>;

export function recordOfRow(deps: RecordDeps, r: Record<string, unknown>): SessionRecord {
  const session = sessionOfRow(r, deps.now());
  const { merchant, keyEnc, prevKeyEnc = null, prevKeyUntil = null } = merchantOfJoined(r);
  let payment: SessionPayment | null = null;
  if (session.status === 'paid' && session.transactionId && r.t_created_at) {
    const method = r.t_method as 'card' | 'ach';
    const maskedCard =
      method === 'card' && r.c_id
        ? deps.vault.maskedOf({
            id: r.c_id as string,
            pan_enc: r.c_pan_enc as string,
            bin: r.c_bin as string,
            last4: r.c_last4 as string,
          })
        : method === 'ach' && r.t_ach_last4
          ? // The row keeps the last four only (maskAccount wants the whole number).
            `****${r.t_ach_last4 as string}`
          : null;
    payment = {
      transactionId: session.transactionId,
      paidAt: r.t_created_at as Date,
      method,
      approvalCode: (r.t_approval_code as string | null) ?? null,
      maskedCard,
      cardBrand: method === 'card' && r.c_id ? (r.c_brand as string) : null,
    };
  }
  const claimed = r.claim_reference !== null && r.claim_reference !== undefined;
  const claimedAt = claimed ? ((r.claimed_at as Date | null) ?? null) : null;
  // Every statement read into a record names mw_endpoint_url (MERCHANT_WEBHOOK_URL_COLUMN).
  const merchantWebhookUrl = (r.mw_endpoint_url as string | null | undefined) ?? null;
  return {
    session,
    merchant,
    keyEnc,
    prevKeyEnc,
    prevKeyUntil,
    merchantWebhookUrl,
    claimed,
    claimedAt,
    payment,
  };
}

/** The session of this token with its merchant and payment; null for a token that names none. */
export async function readSessionRecord(
  q: Queryable,
  deps: RecordDeps,
  token: string,
): Promise<SessionRecord | null> {
  if (!isSessionToken(token)) return null;
  const { rows } = await q.query(`${SELECT} where s.token = $1`, [token]);
  return rows[0] ? recordOfRow(deps, rows[0]) : null;
}

/**
 * Sessions with a webhook URL (their own, or their merchant's endpoint) that ended (expired unpaid,
 * or canceled) at or after `since` and before
 * `before`, in the order they ended. A session whose time ran out while a payment claim is held is
 * listed too (claimed = true): the caller waits for its outcome before going past it.
 */
export async function endedSessionRecords(
  q: Queryable,
  deps: RecordDeps,
  since: Date,
  before: Date,
  limit: number,
): Promise<SessionRecord[]> {
  // Two branches, each on its own indexes: sessions with a webhook URL (0015's partial indexes), and
  // those without one of merchants with an endpoint (0033's, by merchant).
  const ended = `((s.status in ('open', 'expired') and s.expires_at >= $1 and s.expires_at < $2)
       or (s.status = 'canceled' and s.canceled_at >= $1 and s.canceled_at < $2))
     order by coalesce(s.canceled_at, s.expires_at), s.id
     limit $3`;
  const { rows } = await q.query(
    `select * from (
       (${SELECT} where s.webhook_url is not null and ${ended})
       union all
       (${SELECT} join merchant_webhook_settings w on w.merchant_id = s.merchant_id and w.endpoint_url is not null
        where s.webhook_url is null and ${ended})
     ) e order by coalesce(e.canceled_at, e.expires_at), e.id
     limit $3`,
    [since, before, limit],
  );
  return rows.map((r) => recordOfRow(deps, r));
}

/**
 * Where a list page starts: just after this session (the previous page's last one). created_at is
 * kept as the database writes it, to the microsecond: a Date (milliseconds) would move the cursor
 * and skip sessions made within the same millisecond.
 */
export interface ListCursor {
  createdAt: string;
  id: string;
}

/** The cursor of one of the merchant's sessions; null for a token that names none of its own. */
export async function merchantSessionCursor(
  q: Queryable,
  merchantId: string,
  token: string,
): Promise<ListCursor | null> {
  if (!isSessionToken(token)) return null;
  const { rows } = await q.query<{ created_at: string; id: string }>(
    'select created_at::text as created_at, id from checkout_sessions where token = $1 and merchant_id = $2',
    [token, merchantId],
  );
  const row = rows[0];
  return row ? { createdAt: row.created_at, id: String(row.id) } : null;
}

export interface MerchantSessionQuery {
  merchantId: string;
  /** As the session read answers it: an open session past its time is expired. */
  status: SessionStatus | null;
  orderNumber: string | null;
  /** Only payment links (true), only the rest (false), or all (null). */
  paymentLink: boolean | null;
  after: ListCursor | null;
  limit: number;
}

/**
 * One page of the merchant's sessions, newest first (created_at, then id, both descending), and
 * whether more follow. Walks the (merchant_id, created_at desc, id desc) index from the cursor down
 * (migration 0023); the filters are checked on the rows it walks.
 */
export async function merchantSessionRecords(
  q: Queryable,
  deps: RecordDeps,
  query: MerchantSessionQuery,
): Promise<{ records: SessionRecord[]; hasMore: boolean }> {
  const now = deps.now();
  const params: unknown[] = [query.merchantId];
  const where = ['s.merchant_id = $1'];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (query.after) {
    const at = param(query.after.createdAt);
    where.push(`(s.created_at, s.id) < (${at}::timestamptz, ${param(query.after.id)}::bigint)`);
  }
  if (query.orderNumber !== null) where.push(`s.order_number = ${param(query.orderNumber)}`);
  // Links walk their own partial index (migration 0028); the rest are checked on the rows walked.
  if (query.paymentLink !== null) where.push(query.paymentLink ? 's.payment_link' : 'not s.payment_link');
  switch (query.status) {
    case null:
      break;
    // sessionOfRow's rule, in SQL: open until expires_at, expired from then on.
    case 'open':
      where.push(`s.status = 'open' and s.expires_at > ${param(now)}`);
      break;
    case 'expired':
      where.push(`(s.status = 'expired' or (s.status = 'open' and s.expires_at <= ${param(now)}))`);
      break;
    default:
      where.push(`s.status = ${param(query.status)}`);
  }
  const { rows } = await q.query(
    `${SELECT}
     where ${where.join(' and ')}
     order by s.created_at desc, s.id desc
     limit ${param(query.limit + 1)}`,
    params,
  );
  return {
    records: rows.slice(0, query.limit).map((r) => recordOfRow(deps, r)),
    hasMore: rows.length > query.limit,
  };
}
