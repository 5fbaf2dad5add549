/**
 * Payment attempts and the one payment of a session (DESIGN.md §8; security-requirements.md REL-2,
 * IDEM-7). An attempt row is committed `started` before the gateway is called; at most one attempt
 * of a session is `started` at a time (a partial unique index). Its end is recorded with the
 * payment (or the decline) and the webhook event in one transaction (REL-4).
 */
import type { Queryable } from '../db/database.ts';
import { enqueueEvent } from './webhooks.ts';

export interface SessionSnapshot {
  merchantId: string;
  merchantName: string | null;
  amount: string;
  currency: string | null;
  orderNumber: string | null;
  returnUrl: string | null;
}

export interface Attempt extends SessionSnapshot {
  id: string;
  sessionToken: string;
  idempotencyKey: string;
  method: 'card' | 'ach';
  state: 'started' | 'succeeded' | 'declined' | 'failed';
  startedAt: Date;
}

export interface Payment extends SessionSnapshot {
  sessionToken: string;
  transactionId: string | null;
  approvalCode: string | null;
  maskedCard: string | null;
  method: string | null;
  paidAt: Date;
  /** The Idempotency-Key of the attempt that paid, when the checkout made it. */
  attemptKey: string | null;
}

export type Outcome =
  | {
      kind: 'succeeded';
      transactionId: string | null;
      approvalCode: string | null;
      maskedCard: string | null;
    }
  /** The gateway or processor said no; recorded, and replayed for the same key. */
  | { kind: 'declined'; code: string; message: string; transactionId: string | null }
  /** Nothing was charged and nothing is worth replaying (in progress elsewhere, not completed). */
  | { kind: 'failed'; code: string; message: string };

type Row = Record<string, unknown>;

function attemptOf(r: Row): Attempt {
  return {
    id: String(r.id),
    sessionToken: r.session_token as string,
    idempotencyKey: r.idempotency_key as string,
    method: r.method as 'card' | 'ach',
    state: r.state as Attempt['state'],
    merchantId: String(r.merchant_id),
    merchantName: (r.merchant_name as string | null) ?? null,
    amount: r.amount as string,
    currency: (r.currency as string | null) ?? null,
    orderNumber: (r.order_number as string | null) ?? null,
    returnUrl: (r.return_url as string | null) ?? null,
    startedAt: r.started_at as Date,
  };
}

function paymentOf(r: Row): Payment {
  return {
    sessionToken: r.session_token as string,
    merchantId: String(r.merchant_id),
    merchantName: (r.merchant_name as string | null) ?? null,
    transactionId: r.transaction_id === null ? null : String(r.transaction_id),
    approvalCode: (r.approval_code as string | null) ?? null,
    maskedCard: (r.masked_card as string | null) ?? null,
    method: (r.method as string | null) ?? null,
    amount: r.amount as string,
    currency: (r.currency as string | null) ?? null,
    orderNumber: (r.order_number as string | null) ?? null,
    returnUrl: (r.return_url as string | null) ?? null,
    paidAt: r.paid_at as Date,
    attemptKey: (r.idempotency_key as string | null | undefined) ?? null,
  };
}

/** Commits a `started` attempt; null when another attempt of the session is already started. */
export async function startAttempt(
  q: Queryable,
  input: { sessionToken: string; key: string; method: 'card' | 'ach'; snapshot: SessionSnapshot },
  now: Date,
): Promise<Attempt | null> {
  const s = input.snapshot;
  const { rows } = await q.query(
    `insert into checkout_attempts (session_token, idempotency_key, method, state, merchant_id, merchant_name,
       amount, currency, order_number, return_url, started_at)
     values ($1, $2, $3, 'started', $4, $5, $6, $7, $8, $9, $10) on conflict do nothing returning *`,
    [
      input.sessionToken,
      input.key,
      input.method,
      s.merchantId,
      s.merchantName,
      s.amount,
      s.currency,
      s.orderNumber,
      s.returnUrl,
      now,
    ],
  );
  return rows[0] ? attemptOf(rows[0]) : null;
}

export async function startedAttempt(q: Queryable, sessionToken: string): Promise<Attempt | null> {
  const { rows } = await q.query(
    "select * from checkout_attempts where session_token = $1 and state = 'started'",
    [sessionToken],
  );
  return rows[0] ? attemptOf(rows[0]) : null;
}

export async function staleAttempts(q: Queryable, before: Date, sessionToken?: string): Promise<Attempt[]> {
  const { rows } = await q.query(
    `select * from checkout_attempts where state = 'started' and started_at < $1
       and ($2::text is null or session_token = $2) order by started_at limit 100`,
    [before, sessionToken ?? null],
  );
  return rows.map(attemptOf);
}

export async function paymentOfSession(q: Queryable, sessionToken: string): Promise<Payment | null> {
  const { rows } = await q.query(
    `select p.*, a.idempotency_key from checkout_payments p left join checkout_attempts a on a.id = p.attempt_id
     where p.session_token = $1`,
    [sessionToken],
  );
  return rows[0] ? paymentOf(rows[0]) : null;
}

async function webhookUrlOf(q: Queryable, sessionToken: string): Promise<string | null> {
  const { rows } = await q.query<{ webhook_url: string | null }>(
    'select webhook_url from checkout_session_meta where token = $1',
    [sessionToken],
  );
  return rows[0]?.webhook_url ?? null;
}

/**
 * Records that the session is paid (at most once: the primary key), with its webhook event when
 * this call is the one that records it. Answers the payment as recorded, by this call or earlier.
 */
export async function recordPayment(
  q: Queryable,
  attempt: {
    id: string | null;
    sessionToken: string;
    method: string;
    idempotencyKey: string | null;
  } & SessionSnapshot,
  outcome: Extract<Outcome, { kind: 'succeeded' }>,
  now: Date,
): Promise<Payment> {
  const inserted = await q.query(
    `insert into checkout_payments (session_token, attempt_id, merchant_id, merchant_name, transaction_id,
       approval_code, masked_card, method, amount, currency, order_number, return_url, paid_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) on conflict (session_token) do nothing returning *`,
    [
      attempt.sessionToken,
      attempt.id,
      attempt.merchantId,
      attempt.merchantName,
      outcome.transactionId,
      outcome.approvalCode,
      outcome.maskedCard,
      attempt.method,
      attempt.amount,
      attempt.currency,
      attempt.orderNumber,
      attempt.returnUrl,
      now,
    ],
  );
  if (inserted.rows[0]) {
    const payment = { ...paymentOf(inserted.rows[0]), attemptKey: attempt.idempotencyKey };
    const url = await webhookUrlOf(q, attempt.sessionToken);
    if (url) await enqueueEvent(q, { url, type: 'payment.succeeded', payment }, now);
    return payment;
  }
  // Recorded before (by recovery, say, without the transaction id): fill in what is now known.
  await q.query(
    `update checkout_payments set transaction_id = coalesce(transaction_id, $2),
       approval_code = coalesce(approval_code, $3), masked_card = coalesce(masked_card, $4)
     where session_token = $1`,
    [attempt.sessionToken, outcome.transactionId, outcome.approvalCode, outcome.maskedCard],
  );
  return (await paymentOfSession(q, attempt.sessionToken))!;
}

/**
 * Ends an attempt. A success is a fact from the gateway, so it is recorded even when recovery
 * already gave the attempt up as `failed` (its call outlived the stale limit).
 */
export async function finishAttempt(
  q: Queryable,
  attempt: Attempt,
  outcome: Outcome,
  now: Date,
): Promise<Payment | null> {
  const state = outcome.kind;
  await q.query(
    `update checkout_attempts set state = $2, finished_at = $3, response_code = $4, response_message = $5,
       transaction_id = $6
     where id = $1 and (state = 'started' or ($2 = 'succeeded' and state = 'failed'))`,
    [
      attempt.id,
      state,
      now,
      outcome.kind === 'succeeded' ? '00' : outcome.code,
      outcome.kind === 'succeeded' ? null : outcome.message,
      outcome.kind === 'failed' ? null : outcome.transactionId,
    ],
  );
  if (outcome.kind === 'succeeded') return recordPayment(q, attempt, outcome, now);
  if (outcome.kind === 'declined') {
    const url = await webhookUrlOf(q, attempt.sessionToken);
    if (url) await enqueueEvent(q, { url, type: 'payment.failed', attempt, decline: outcome }, now);
  }
  return null;
}

export async function markRecovered(q: Queryable, attemptId: string): Promise<void> {
  await q.query('update checkout_attempts set recovered = true where id = $1', [attemptId]);
}
