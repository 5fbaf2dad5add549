/**
 * The receipt queue over SMTP (receipt-queue.ts) on every database target, against a real SMTP
 * server (smtp-server): a receipt the mail server refuses waits and is tried again later, then sent
 * once; a receipt the notifier would refuse is never queued; the receipt's text holds no card number.
 */
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../test/kit/databases.ts';
import type { Database } from '../db/database.ts';
import { createNotifier } from './notifier.ts';
import { receiptMessage } from './receipt-message.ts';
import { deliverReceipts, enqueueReceipt } from './receipt-queue.ts';

const facts = {
  merchantName: 'Queue Shop',
  orderNumber: 'Q-7',
  amount: '19.90',
  currency: 'EUR',
  method: 'card' as const,
  cardBrand: 'Mastercard',
  maskedNumber: '555555******4444',
  transactionId: '7001',
  paidAt: new Date('2026-01-02T03:04:05Z'),
};

describe.each(databaseTargets())('receipt queue over SMTP on $name', (target) => {
  let db: Database;
  let accept = false;
  const received: { to: string[]; raw: string }[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (!accept) return callback(new Error('Mailbox busy, try later'));
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  beforeAll(async () => {
    db = await target.open();
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await db.close();
  });

  it('a refused send waits and is tried again; then sent once', async () => {
    const port = (smtp.server.address() as AddressInfo).port;
    const notifier = createNotifier(
      {
        smtpUrl: `smtp://127.0.0.1:${port}`,
        smtpFrom: 'Payframe <no-reply@payframe.invalid>',
        smsWebhookUrl: undefined,
      },
      db,
    );
    let now = new Date('2026-01-02T03:05:00Z');
    const d = { notifier, log: pino({ level: 'silent' }), now: () => now, baseDelayMs: 60_000 };
    try {
      const message = receiptMessage('buyer@example.com', 'en', facts);
      expect(message.text).toContain('Mastercard ending in 4444');
      expect(message.text).not.toContain('555555');
      const queued = await enqueueReceipt(
        db,
        { dedupeKey: `test:${target.name}:1`, merchantId: '1', message },
        now,
      );
      expect(queued).toBe(true);
      // The same payment and recipient again: nothing more.
      expect(
        await enqueueReceipt(db, { dedupeKey: `test:${target.name}:1`, merchantId: '1', message }, now),
      ).toBe(false);
      // A message the notifier refuses (a malformed address) is never queued.
      const bad = receiptMessage('not an address', 'en', facts);
      expect(
        await enqueueReceipt(db, { dedupeKey: `test:${target.name}:2`, merchantId: '1', message: bad }, now),
      ).toBe(false);

      expect(await deliverReceipts(db, d)).toEqual({ sent: 0, retrying: 1, failed: 0 });
      const row = async () =>
        (
          await db.query<{
            state: string;
            attempts: number;
            next_attempt_at: Date;
            lease_until: Date | null;
          }>(
            'select state, attempts, next_attempt_at, lease_until from receipt_emails where dedupe_key = $1',
            [`test:${target.name}:1`],
          )
        ).rows[0]!;
      const waiting = await row();
      expect(waiting).toMatchObject({ state: 'pending', lease_until: null });
      expect(Number(waiting.attempts)).toBe(1);
      expect(new Date(waiting.next_attempt_at).getTime()).toBe(now.getTime() + 60_000);
      // Not due yet: nothing is tried.
      accept = true;
      expect(await deliverReceipts(db, d)).toEqual({ sent: 0, retrying: 0, failed: 0 });
      expect(received).toEqual([]);

      now = new Date(now.getTime() + 61_000);
      expect(await deliverReceipts(db, d)).toEqual({ sent: 1, retrying: 0, failed: 0 });
      expect(await deliverReceipts(db, d)).toEqual({ sent: 0, retrying: 0, failed: 0 });
      expect(received).toHaveLength(1);
      expect(received[0]!.to).toEqual(['buyer@example.com']);
      expect(received[0]!.raw).toMatch(/^Subject: Your receipt from Queue Shop\r$/m);
      expect(received[0]!.raw).toMatch(/^X-Payframe-Purpose: receipt\r$/m);
      expect(await row()).toMatchObject({ state: 'sent', lease_until: null });
    } finally {
      await notifier.close();
    }
  });
});
