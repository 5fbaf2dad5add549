/**
 * kill -9 of a Payframe server between an approved payment and its receipt e-mail
 * (server/notify/receipt-queue.ts; docs/merchant-guide.md "Receipt e-mails"). A real SMTP server
 * (smtp-server) takes the receipt's message but holds its answer, so the kill lands while the
 * receipt is queued and not yet sent; after the restart on the same DATA_DIR the receipt goes out
 * exactly once — not lost with the process, not sent a second time by later runs.
 */
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { describe, expect, it } from 'vitest';
import { openPglite } from '../../../server/db/pglite.ts';
import { RECEIPT_LEASE_MS } from '../../../server/notify/receipt-queue.ts';
import { tempDir } from '../../kit/databases.ts';
import { finalOf, payRequest, randomIp } from './harness.ts';
import { readDemoMerchant, type ServerProcess, sleep, startPayframe } from './servers.ts';

const SHOPPER = 'receipt-crash@example.com';

async function until(what: string, check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

describe('kill -9 between a payment and its receipt e-mail (PGlite)', () => {
  it('sends the receipt once after the restart: neither lost nor doubled', { timeout: 200_000 }, async () => {
    let holding = true;
    let held = 0;
    const accepted: { to: string[]; raw: string }[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          // Held: the message is never acknowledged, so it was not accepted (RFC 5321 §4.1.1.4).
          if (holding) {
            held++;
            return;
          }
          accepted.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const smtpPort = (smtp.server.address() as AddressInfo).port;
    const dataDir = tempDir('payframe-receipt-crash-');
    const env = { DATA_DIR: dataDir, SMTP_URL: `smtp://127.0.0.1:${smtpPort}` };
    let server: ServerProcess = await startPayframe(env);
    try {
      const merchant = readDemoMerchant(dataDir);
      const ip = randomIp();
      const created = await fetch(`${server.url}/v1/checkout-sessions`, {
        method: 'POST',
        headers: {
          'x-forwarded-for': ip,
          authorization: `Basic ${Buffer.from(`${merchant.merchantId}:${merchant.transactionKey}`).toString('base64')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          amount: '12.34',
          currency: 'USD',
          orderNumber: 'CRASH-RECEIPT-1',
          returnUrl: merchant.returnUrl,
          shopper: { email: SHOPPER },
        }),
      });
      expect(created.status, await created.clone().text()).toBe(201);
      const { token } = (await created.json()) as { token: string };
      const paid = await payRequest(server.url, token, crypto.randomUUID(), ip);
      expect(finalOf(paid)?.status).toBe('succeeded');
      const transactionId = finalOf(paid)?.transactionId;

      // The receipt is on its way to the mail server, unanswered: kill the server now.
      await until('the receipt to reach the mail server', () => held > 0, 20_000);
      await server.kill9();
      expect(accepted).toEqual([]);

      holding = false;
      server = await startPayframe(env, server.port);
      // Its lease runs out, then the background run sends it.
      await until('the receipt after the restart', () => accepted.length > 0, RECEIPT_LEASE_MS + 40_000);
      // Further runs (every 5 s) send nothing more.
      await sleep(12_000);
      expect(accepted).toHaveLength(1);
      const [mail] = accepted;
      expect(mail!.to).toEqual([SHOPPER]);
      expect(mail!.raw).toMatch(/^X-Payframe-Purpose: receipt\r$/m);
      expect(mail!.raw).toContain('CRASH-RECEIPT-1');
      expect(mail!.raw).toContain(String(transactionId));
      expect(mail!.raw).not.toContain('4242424242424242');
    } finally {
      await server.stop();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
    const db = await openPglite(dataDir);
    try {
      const { rows } = await db.query<{ state: string; attempts: number }>(
        'select state, attempts from receipt_emails where recipient = $1',
        [SHOPPER],
      );
      // Taken twice (the killed send, then the one after the restart), sent once.
      expect(rows.map((r) => ({ state: r.state, attempts: Number(r.attempts) }))).toEqual([
        { state: 'sent', attempts: 2 },
      ]);
    } finally {
      await db.close();
    }
  });
});
