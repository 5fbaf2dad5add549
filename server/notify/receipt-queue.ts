/**
 * Receipt e-mails waiting to be sent (`receipt_emails`, migration 0037): the outbox pattern the
 * webhooks use (server/checkout/webhooks.ts). A receipt is queued in the same transaction that
 * records the payment, so a process killed between the payment and the e-mail sends it after its
 * restart; its `dedupeKey` (one per payment and recipient) keeps a second record of the same payment
 * from queuing it again.
 *
 * `deliverReceipts` sends what is due through the notifier, one receipt per transaction, the row
 * locked (FOR UPDATE SKIP LOCKED, so two instances never take the same one) until it is marked sent.
 * With the dev outbox (no SMTP_URL) the message is written in that same transaction: sent exactly
 * once, whatever is killed when. Over SMTP a process killed after the server accepted the message
 * and before the commit sends it again on its next run: at least once, never lost.
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
  let m: NotificationMessage;
  try {
    m = checkMessage(receipt.message);
  } catch (err) {
    if (err instanceof MessageRefusedError) return false;
    throw err;
  }
  const { rowCount } = await q.query(
    `insert into receipt_emails (dedupe_key, merchant_id, recipient, subject, body_text, body_html, next_attempt_at, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $7) on conflict (dedupe_key) do nothing`,
    [receipt.dedupeKey, receipt.merchantId, m.to, m.subject ?? '', m.text, m.html ?? null, now],
  );
  return rowCount > 0;
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

/** Sends the receipts that are due, at most `limit`; answers how many went and how many wait again. */
export async function deliverReceipts(
  db: Database,
  d: ReceiptDelivery,
  limit = 20,
): Promise<{ sent: number; retrying: number; failed: number }> {
  const tally = { sent: 0, retrying: 0, failed: 0 };
  const outbox = d.notifier.describe().email === 'outbox';
  for (let i = 0; i < limit; i++) {
    const outcome = await db.transaction(async (tx) => {
      const now = d.now();
      const { rows } = await tx.query<DueReceipt>(
        `select id, recipient, subject, body_text, body_html, attempts from receipt_emails
         where state = 'pending' and next_attempt_at <= $1
         order by next_attempt_at, id limit 1 for update skip locked`,
        [now],
      );
      const r = rows[0];
      if (!r) return 'none' as const;
      const message: NotificationMessage = {
        channel: 'email',
        to: r.recipient,
        subject: r.subject,
        text: r.body_text,
        ...(r.body_html === null ? {} : { html: r.body_html }),
        purpose: 'receipt',
      };
      try {
        await d.notifier.send(message, { within: tx });
      } catch (err) {
        // The dev outbox writes in this transaction: its failure is the database's, and the whole
        // transaction is retried on the next run.
        if (outbox && !(err instanceof MessageRefusedError)) throw err;
        const attempts = Number(r.attempts) + 1;
        const refused = err instanceof MessageRefusedError;
        const giveUp = refused || attempts >= (d.maxAttempts ?? 10);
        const problem = err instanceof Error ? err.message.slice(0, 200) : 'delivery failed';
        d.log.warn({ receiptId: r.id, attempts, problem }, 'receipt e-mail not sent');
        const delay = Math.min((d.baseDelayMs ?? 60_000) * 2 ** (attempts - 1), MAX_DELAY_MS);
        await tx.query(
          `update receipt_emails set state = $2, attempts = $3, next_attempt_at = $4, last_error = $5 where id = $1`,
          [r.id, giveUp ? 'refused' : 'pending', attempts, new Date(now.getTime() + delay), problem],
        );
        return giveUp ? ('failed' as const) : ('retrying' as const);
      }
      await tx.query(
        `update receipt_emails set state = 'sent', attempts = attempts + 1, sent_at = $2, last_error = null where id = $1`,
        [r.id, d.now()],
      );
      return 'sent' as const;
    });
    if (outcome === 'none') break;
    tally[outcome]++;
  }
  return tally;
}
