/**
 * Receipt e-mails waiting to be sent (`receipt_emails`, migration 0037): the outbox pattern the
 * webhooks use (server/checkout/webhooks.ts). A receipt is queued in the same transaction that
 * records the payment, so a process killed between the payment and the e-mail sends it after its
 * restart; its `dedupeKey` (one per payment and recipient) keeps a second record of the same payment
 * from queuing it again.
 *
 * `deliverReceipts` sends what is due through the notifier, one receipt at a time, taken with FOR
 * UPDATE SKIP LOCKED so two instances never take the same one. Into the dev outbox (no SMTP_URL) the
 * message is written in the transaction that marks it sent: exactly once, whatever is killed when.
 * Over SMTP it is taken under a lease and sent outside any transaction: a process killed after the
 * mail server accepted it and before it was marked sent sends it again once the lease has run out
 * (at least once, never lost); killed before, it is sent once.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../db/database.ts';
import { checkMessage, MessageRefusedError, type NotificationMessage } from './message.ts';
import type { Notifier } from './notifier.ts';

export interface QueuedReceipt {
  /** One receipt per payment and recipient: `session:<token>:shopper`, `transaction:<id>:cardholder`… */
  dedupeKey: string;
  merchantId: string;
  message: NotificationMessage;
}

/**
 * Queues a receipt; call it inside the transaction that records the payment. Answers false, queuing
 * nothing, when the notifier would refuse the message (a malformed address): the payment is never
 * held up by its receipt.
 */
export async function enqueueReceipt(q: Queryable, receipt: QueuedReceipt, now: Date): Promise<boolean> {
  const m = checkedReceipt(receipt.message);
  if (!m) return false;
  const { rowCount } = await q.query(
    `insert into receipt_emails (dedupe_key, merchant_id, recipient, subject, body_text, body_html, next_attempt_at, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $7) on conflict (dedupe_key) do nothing`,
    [receipt.dedupeKey, receipt.merchantId, m.to, m.subject ?? '', m.text, m.html ?? null, now],
  );
  return rowCount > 0;
}

/** The message as it is queued (checkMessage's), or null when the notifier would refuse it. */
export function checkedReceipt(message: NotificationMessage): NotificationMessage | null {
  try {
    return checkMessage(message);
  } catch (err) {
    if (err instanceof MessageRefusedError) return null;
    throw err;
  }
}

export interface ReceiptDelivery {
  notifier: Notifier;
  log: FastifyBaseLogger;
  now: () => Date;
  /** First retry after this long, doubling each time (capped at 6 h). Default 60 000 ms. */
  baseDelayMs?: number;
  /** Tries before a receipt is given up. Default 10. */
  maxAttempts?: number;
}

interface DueReceipt {
  id: string;
  recipient: string;
  subject: string;
  body_text: string;
  body_html: string | null;
  attempts: number;
}

const MAX_DELAY_MS = 6 * 60 * 60 * 1000;
/** The longest one SMTP send may take before it counts as failed (smtp-transport.ts's own limits are shorter). */
export const SMTP_SEND_LIMIT_MS = 45_000;
/** How long an instance holds a receipt it sends over SMTP: longer than a send may take. */
export const RECEIPT_LEASE_MS = SMTP_SEND_LIMIT_MS + 15_000;

const DUE = `state = 'pending' and next_attempt_at <= $1 and (lease_until is null or lease_until <= $1)`;

function messageOf(r: DueReceipt): NotificationMessage {
  return {
    channel: 'email',
    to: r.recipient,
    subject: r.subject,
    text: r.body_text,
    ...(r.body_html === null ? {} : { html: r.body_html }),
    purpose: 'receipt',
  };
}

type Outcome = 'none' | 'sent' | 'retrying' | 'failed';

/** What a failed send leaves: another try later, or none (refused, or out of tries). */
async function failed(q: Queryable, d: ReceiptDelivery, r: DueReceipt, attempts: number, err: unknown) {
  const refused = err instanceof MessageRefusedError;
  const giveUp = refused || attempts >= (d.maxAttempts ?? 10);
  const problem = err instanceof Error ? err.message.slice(0, 200) : 'delivery failed';
  d.log.warn({ receiptId: r.id, attempts, problem }, 'receipt e-mail not sent');
  const delay = Math.min((d.baseDelayMs ?? 60_000) * 2 ** (attempts - 1), MAX_DELAY_MS);
  await q.query(
    `update receipt_emails set state = $2, attempts = $3, next_attempt_at = $4, last_error = $5, lease_until = null
     where id = $1`,
    [r.id, giveUp ? 'refused' : 'pending', attempts, new Date(d.now().getTime() + delay), problem],
  );
  return giveUp ? ('failed' as const) : ('retrying' as const);
}

/**
 * Into the dev outbox: taken, written and marked sent in one transaction, so exactly once. A
 * failure of the outbox's write is the database's: the transaction is rolled back and retried.
 */
async function sendToOutbox(db: Database, d: ReceiptDelivery): Promise<Outcome> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<DueReceipt>(
      `select id, recipient, subject, body_text, body_html, attempts from receipt_emails
       where ${DUE} order by next_attempt_at, id limit 1 for update skip locked`,
      [d.now()],
    );
    const r = rows[0];
    if (!r) return 'none';
    try {
      await d.notifier.send(messageOf(r), { within: tx });
    } catch (err) {
      if (!(err instanceof MessageRefusedError)) throw err;
      return failed(tx, d, r, Number(r.attempts) + 1, err);
    }
    await tx.query(
      `update receipt_emails set state = 'sent', attempts = attempts + 1, sent_at = $2, last_error = null
       where id = $1`,
      [r.id, d.now()],
    );
    return 'sent';
  });
}

/**
 * Over SMTP: taken under a lease (committed), sent outside any transaction — the embedded database
 * admits one transaction at a time, and a mail server may be slow — then marked sent. A process
 * killed mid-send leaves the lease to run out; the next run sends the receipt then.
 */
async function sendLeased(db: Database, d: ReceiptDelivery): Promise<Outcome> {
  const now = d.now();
  const { rows } = await db.query<DueReceipt>(
    `update receipt_emails set lease_until = $2, attempts = attempts + 1
     where id = (select id from receipt_emails where ${DUE} order by next_attempt_at, id limit 1 for update skip locked)
     returning id, recipient, subject, body_text, body_html, attempts`,
    [now, new Date(now.getTime() + RECEIPT_LEASE_MS)],
  );
  const r = rows[0];
  if (!r) return 'none';
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      d.notifier.send(messageOf(r)),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error('The mail server did not answer in time.')),
          SMTP_SEND_LIMIT_MS,
        );
      }),
    ]);
  } catch (err) {
    return failed(db, d, r, Number(r.attempts), err);
  } finally {
    clearTimeout(timer);
  }
  await db.query(
    `update receipt_emails set state = 'sent', sent_at = $2, last_error = null, lease_until = null where id = $1`,
    [r.id, d.now()],
  );
  return 'sent';
}

/** Sends the receipts that are due, at most `limit`; answers how many went and how many wait again. */
export async function deliverReceipts(
  db: Database,
  d: ReceiptDelivery,
  limit = 20,
): Promise<{ sent: number; retrying: number; failed: number }> {
  const tally = { sent: 0, retrying: 0, failed: 0 };
  const outbox = d.notifier.describe().email === 'outbox';
  for (let i = 0; i < limit; i++) {
    const outcome = outbox ? await sendToOutbox(db, d) : await sendLeased(db, d);
    if (outcome === 'none') break;
    tally[outcome]++;
  }
  return tally;
}
