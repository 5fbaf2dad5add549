/**
 * Payment attempts and the one payment of a session (DESIGN.md §8; security-requirements.md REL-2,
 * IDEM-7). An attempt row is committed `started`, with its key, before the gateway is called; at
 * most one attempt of a session is `started` at a time (a partial unique index). Its end is
 * recorded with the payment (or the decline), the webhook event and the key's answer in one
 * transaction (REL-4).
 */
import { lastStatement, type Queryable } from '../db/database.ts';
import type { NotificationMessage } from '../notify/message.ts';
import { checkedReceipt } from '../notify/receipt-queue.ts';
import { receiptMessage } from '../notify/receipt-message.ts';
import { shopperLang } from '../i18n/index.ts';
import type { Attempt, Outcome, Payment, ReceiptTo, SessionSnapshot } from './records.ts';
import { enqueueEvent } from './webhooks.ts';

export type { Attempt, Outcome, Payment, SessionSnapshot } from './records.ts';

type Row = Record<string, unknown>;

export function attemptOf(r: Row): Attempt {
  return {
    id: String(r.id),
    sessionToken: r.session_token as string,
    idempotencyKey: r.idempotency_key as string,
    method: r.method as 'card' | 'ach',
    state: r.state as Attempt['state'],
    startedAt: r.started_at as Date,
  };
}

function paymentOfRow(r: Row): Payment {
  return {
    sessionToken: r.session_token as string,
    merchantId: String(r.merchant_id),
    merchantName: (r.merchant_name as string | null) ?? null,
    transactionId: r.transaction_id === null ? null : String(r.transaction_id),
    approvalCode: (r.approval_code as string | null) ?? null,
    maskedCard: (r.masked_card as string | null) ?? null,
    cardBrand: (r.card_brand as string | null | undefined) ?? null,
    method: (r.method as string | null) ?? null,
    amount: r.amount as string,
    currency: (r.currency as string | null) ?? null,
    orderNumber: (r.order_number as string | null) ?? null,
    returnUrl: (r.return_url as string | null) ?? null,
    paidAt: r.paid_at as Date,
    attemptKey: (r.idempotency_key as string | null | undefined) ?? null,
    redirectSignature: (r.redirect_signature as string | null | undefined) ?? null,
  };
}

/**
 * A new `started` attempt, or null when another attempt of the session is `started`. `last`: the
 * statement ends `q`'s transaction (it is committed with it).
 */
export async function startAttempt(
  q: Queryable,
  input: { sessionToken: string; key: string; method: 'card' | 'ach'; owner: string | null },
  now: Date,
  { last = false }: { last?: boolean } = {},
): Promise<Attempt | null> {
  const { rows } = await lastStatement(q, last)(
    `insert into checkout_attempts (session_token, idempotency_key, method, state, started_at, owner)
     values ($1, $2, $3, 'started', $4, $5) on conflict do nothing returning *`,
    [input.sessionToken, input.key, input.method, now, input.owner],
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

/**
 * `started` attempts from before `before` (of one session, when named; of the predecessors of this
 * process, when `predecessors` names its id and its own owner: server/instance.ts).
 */
export async function staleAttempts(
  q: Queryable,
  before: Date,
  sessionToken?: string,
  predecessors?: { id: string; self: string },
  /** Leaves out the undecided attempts not yet due again (`deferUndecided`); not for one session's. */
  dueAt?: Date,
): Promise<Attempt[]> {
  const { rows } = await q.query(
    `select * from checkout_attempts where state = 'started' and started_at < $1
       and ($2::text is null or session_token = $2)
       and ($3::text is null or (owner like $3 || '.%' and owner is distinct from $4))
       and ($5::timestamptz is null or next_check_at is null or next_check_at <= $5)
     order by started_at limit 100`,
    [before, sessionToken ?? null, predecessors?.id ?? null, predecessors?.self ?? null, dueAt ?? null],
  );
  return rows.map(attemptOf);
}

/** The first wait before an undecided attempt is asked about again; it doubles each time. */
export const UNDECIDED_FIRST_WAIT_MS = 5_000;
/** The longest wait between two questions about an undecided attempt. */
export const UNDECIDED_MAX_WAIT_MS = 10 * 60_000;

/**
 * An attempt the service could not decide (in progress, with no time it settles by): the runs over
 * every stale attempt ask again after 5 s, 10 s, 20 s, … at most every 10 minutes, so attempts that
 * stay undecided neither fill the batch nor press on the service. A shopper's own question (one
 * session's recovery) still asks at once, without moving the wait. Answers when it is due again, or
 * null when it was not due (asked for its shopper, or by another instance in the same run).
 */
export async function deferUndecided(q: Queryable, attemptId: string, now: Date): Promise<Date | null> {
  const { rows } = await q.query<{ next_check_at: Date }>(
    `update checkout_attempts
        set next_check_at = $2::timestamptz
              + least($3 * power(2, least(undecided_checks, 20)), $4) * interval '1 millisecond',
            undecided_checks = undecided_checks + 1
      where id = $1 and state = 'started' and (next_check_at is null or next_check_at <= $2)
      returning next_check_at`,
    [attemptId, now, UNDECIDED_FIRST_WAIT_MS, UNDECIDED_MAX_WAIT_MS],
  );
  return rows[0]?.next_check_at ?? null;
}

export async function paymentOfSession(q: Queryable, sessionToken: string): Promise<Payment | null> {
  const { rows } = await q.query(
    `select p.*, a.idempotency_key from checkout_payments p left join checkout_attempts a on a.id = p.attempt_id
     where p.session_token = $1`,
    [sessionToken],
  );
  return rows[0] ? paymentOfRow(rows[0]) : null;
}

/**
 * The receipt e-mail of a payment, in the session's language (docs/merchant-guide.md "Receipt
 * e-mails"), checked as the notifier checks it; null when it would refuse it (nothing is queued).
 */
function receiptOf(payment: Payment, to: ReceiptTo): NotificationMessage | null {
  return checkedReceipt(
    receiptMessage(to.email, shopperLang({ locale: to.locale }), {
      merchantName: payment.merchantName,
      orderNumber: payment.orderNumber,
      amount: payment.amount,
      currency: payment.currency,
      method: payment.method === 'ach' ? 'ach' : payment.method === 'card' ? 'card' : null,
      cardBrand: payment.cardBrand,
      maskedNumber: payment.maskedCard,
      accountType: to.accountType ?? null,
      transactionId: payment.transactionId,
      paidAt: payment.paidAt,
    }),
  );
}

/**
 * Records that the session is paid (at most once: the primary key), with its webhook event and its
 * receipt e-mail (`receiptTo`) when this call is the one that records it. Answers the payment as
 * recorded, by this call or earlier. `payment.attemptKey` names the attempt that paid, if the
 * checkout made it.
 */
export async function recordPayment(
  q: Queryable,
  payment: Payment,
  attemptId: string | null,
  webhookUrl: string | null,
  now: Date,
  receiptTo: ReceiptTo | null = null,
): Promise<Payment> {
  // The receipt is queued by the same statement, only when it records the payment (one per
  // session: `dedupe_key`): no statement and no round trip more for a pay.
  const receipt = receiptTo ? receiptOf(payment, receiptTo) : null;
  const queued = receipt
    ? `, receipt as (insert into receipt_emails (dedupe_key, merchant_id, recipient, subject, body_text, body_html,
         next_attempt_at, created_at)
       select $16::text, $3::bigint, $17::text, $18::text, $19::text, $20::text, $21::timestamptz, $21::timestamptz
       from p on conflict (dedupe_key) do nothing)`
    : '';
  const inserted = await q.query(
    `with p as (insert into checkout_payments (session_token, attempt_id, merchant_id, merchant_name, transaction_id,
       approval_code, masked_card, method, amount, currency, order_number, return_url, paid_at, redirect_signature,
       card_brand)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
     on conflict (session_token) do nothing returning *)${queued}
     select * from p`,
    [
      payment.sessionToken,
      attemptId,
      payment.merchantId,
      payment.merchantName,
      payment.transactionId,
      payment.approvalCode,
      payment.maskedCard,
      payment.method,
      payment.amount,
      payment.currency,
      payment.orderNumber,
      payment.returnUrl,
      payment.paidAt,
      payment.redirectSignature,
      payment.cardBrand,
      ...(receipt
        ? [
            `session:${payment.sessionToken}:shopper`,
            receipt.to,
            receipt.subject ?? '',
            receipt.text,
            receipt.html ?? null,
            now,
          ]
        : []),
    ],
  );
  if (inserted.rows[0]) {
    const recorded = {
      ...paymentOfRow(inserted.rows[0]),
      attemptKey: payment.attemptKey,
      // Not a column: the gateway's answer carries it, during a key roll's overlap only.
      redirectSignaturePrevious: payment.redirectSignaturePrevious ?? null,
    };
    if (webhookUrl)
      await enqueueEvent(q, { url: webhookUrl, type: 'payment.succeeded', payment: recorded }, now);
    return recorded;
  }
  // Recorded before (by recovery, say, without the transaction id): fill in what is now known.
  const { rows } = await q.query(
    `update checkout_payments set transaction_id = coalesce(transaction_id, $2),
       approval_code = coalesce(approval_code, $3), masked_card = coalesce(masked_card, $4),
       redirect_signature = coalesce(redirect_signature, $5), card_brand = coalesce(card_brand, $6)
     where session_token = $1 returning *,
       (select idempotency_key from checkout_attempts a where a.id = checkout_payments.attempt_id) as idempotency_key`,
    [
      payment.sessionToken,
      payment.transactionId,
      payment.approvalCode,
      payment.maskedCard,
      payment.redirectSignature,
      payment.cardBrand,
    ],
  );
  const filled = paymentOfRow(rows[0]!);
  // The previous key's signature goes with the gateway's new-key signature only.
  return filled.redirectSignature === payment.redirectSignature
    ? { ...filled, redirectSignaturePrevious: payment.redirectSignaturePrevious ?? null }
    : filled;
}

/**
 * Ends an attempt, with what the gateway said of the session. A success is a fact from the gateway,
 * so it is recorded even when recovery already gave the attempt up as `failed` (its call outlived
 * the stale limit). Answers the payment for a success.
 */
export async function finishAttempt(
  q: Queryable,
  attempt: Attempt,
  outcome: Outcome,
  now: Date,
  session:
    | (SessionSnapshot & {
        webhookUrl: string | null;
        receiptTo?: ReceiptTo | null;
        payment?: Payment | null;
      })
    | null = null,
): Promise<Payment | null> {
  const state = outcome.kind;
  const s = session;
  // The attempt's end and what follows from it (the payment, or a decline's event) are sent
  // together: one round trip.
  const ended = q.query(
    `update checkout_attempts set state = $2, finished_at = $3, response_code = $4, response_message = $5,
       transaction_id = $6, merchant_id = coalesce($7, merchant_id), merchant_name = coalesce($8, merchant_name),
       amount = coalesce($9, amount), currency = coalesce($10, currency),
       order_number = coalesce($11, order_number), return_url = coalesce($12, return_url)
     where id = $1 and (state = 'started' or ($2 = 'succeeded' and state = 'failed'))`,
    [
      attempt.id,
      state,
      now,
      outcome.kind === 'succeeded' ? '00' : outcome.code,
      outcome.kind === 'succeeded' ? null : outcome.message,
      outcome.kind === 'failed' ? null : outcome.transactionId,
      s?.merchantId ?? null,
      s?.merchantName ?? null,
      s?.amount ?? null,
      s?.currency ?? null,
      s?.orderNumber ?? null,
      s?.returnUrl ?? null,
    ],
  );
  let follows: Promise<Payment | null> = Promise.resolve(null);
  if (outcome.kind === 'succeeded' && s?.payment) {
    const payment = { ...s.payment, attemptKey: attempt.idempotencyKey };
    follows = recordPayment(q, payment, attempt.id, s.webhookUrl, now, s.receiptTo ?? null);
  } else if (outcome.kind === 'declined' && s?.webhookUrl) {
    const event = {
      url: s.webhookUrl,
      type: 'payment.failed' as const,
      attempt,
      snapshot: s,
      decline: outcome,
    };
    follows = enqueueEvent(q, event, now).then(() => null);
  }
  const [, payment] = await Promise.all([ended, follows]);
  return payment;
}

export async function markRecovered(q: Queryable, attemptId: string): Promise<void> {
  await q.query('update checkout_attempts set recovered = true where id = $1', [attemptId]);
}
