/**
 * What happened to one payment, for its timeline on the dashboard (issue 15): the approved
 * transactions that followed it (captures, voids, refunds — of the payment, or of one of its
 * captures), the batches they settled in, and the 3-D Secure result its checkout session's
 * attempt used. Read from the gateway's own rows; nothing here decides what may still be done
 * (follow-on.ts does).
 */
import type { Queryable } from '../../db/database.ts';
import type { PaymentRow } from './payment-list.ts';

export interface FollowingRow {
  id: string;
  kind: 'sale' | 'auth' | 'capture' | 'void' | 'refund';
  amount: string;
  responseCode: string;
  createdAt: Date;
  /** When the batch it settled in was closed; null while unsettled. */
  settledAt: Date | null;
}

/** The payment itself (when approved) and every approved transaction after it, oldest first. */
export async function followingRows(q: Queryable, merchantId: string, id: string): Promise<FollowingRow[]> {
  const { rows } = await q.query<Record<string, unknown>>(
    `select t.id, t.kind, t.approved_amount, t.response_code, t.created_at, b.closed_at
       from transactions t left join batches b on b.id = t.batch_id
      where t.merchant_id = $1 and t.status = 'approved'
        and (t.id = $2 or t.original_transaction_id = $2 or t.original_transaction_id in (
          select x.id from transactions x where x.original_transaction_id = $2 and x.kind = 'capture'))
      order by t.id`,
    [merchantId, id],
  );
  return rows.map((r) => ({
    id: String(r.id),
    kind: r.kind as FollowingRow['kind'],
    amount: String(r.approved_amount),
    responseCode: r.response_code as string,
    createdAt: r.created_at as Date,
    settledAt: (r.closed_at as Date | null) ?? null,
  }));
}

/**
 * When the 3-D Secure challenge this payment's attempt used was made: a challenge of its checkout
 * session for the same card, whose result was consumed (`used`), made after the session's previous
 * attempt and before this one. Null for a payment outside a session, or paid without 3-D Secure.
 */
export async function threeDsAt(q: Queryable, merchantId: string, payment: PaymentRow): Promise<Date | null> {
  if (!payment.sessionId || !payment.cardId || !payment.sessionCreatedAt) return null;
  const { rows } = await q.query<{ at: Date | null }>(
    `select max(c.created_at) as at
       from three_ds_challenges c join cards k on k.fingerprint = c.card_fingerprint
      where c.checkout_session_id = $1 and k.id = $2 and c.status = 'used' and c.created_at <= $3
        and c.created_at > coalesce((
          -- The session's attempts are the merchant's transactions since the session was made.
          select max(p.created_at) from transactions p
           where p.merchant_id = $5 and p.created_at >= $6 and p.checkout_session_id = $1 and p.id < $4
        ), '-infinity')`,
    [payment.sessionId, payment.cardId, payment.createdAt, payment.id, merchantId, payment.sessionCreatedAt],
  );
  return rows[0]?.at ?? null;
}
