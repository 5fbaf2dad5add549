/**
 * Late, repeated and out-of-order signals (security-requirements.md IDEM-5, IDEM-7, REL-4; attack
 * rows 20 and 23). Payframe calls its processor synchronously and receives no processor webhooks;
 * the asynchronous inputs it does receive are the 3-D Secure result (posted back by the bank's
 * page, then sent with the pay), cancels, the expiry and recovery sweeps, and replays of the pay
 * itself. Each is sent several times and out of order after the payment; the session makes one
 * transition (open → paid), the processor is charged once, and the merchant hears one event, with
 * one id however often it is delivered.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_RETENTION_MS } from '../checkout/idempotency.ts';
import {
  addMerchant,
  approvedTransactions,
  cardBody,
  type CheckoutWorld,
  createSession,
  manualClock,
  newKey,
  openCheckoutWorld,
  pay,
  WIDGET_HEADERS,
} from '../../test/kit/checkout/checkout-world.ts';
import { TEST_CARDS } from '../gateway/processor/simulator.ts';
import { databaseTargets } from '../../test/kit/databases.ts';

/** A merchant's webhook endpoint that answers 500 `failures` times, then 204; it records all. */
async function hookServer(failures: number) {
  const received: { id: string; type: string; body: string }[] = [];
  let left = failures;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const event = JSON.parse(body) as { id: string; type: string };
      received.push({ id: event.id, type: event.type, body });
      res.statusCode = left-- > 0 ? 500 : 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    received,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(databaseTargets())('one transition per session, whatever arrives ($name)', (target) => {
  const clock = manualClock();
  let w: CheckoutWorld;
  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open(), {
      now: clock.now,
      webhooks: { allowPrivateNetworks: true, baseDelayMs: 1_000, timeoutMs: 2_000 },
    });
  });
  afterAll(() => w?.close());

  const widget = (token: string, path: string, body: unknown = {}) =>
    w.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${token}/${path}`,
      remoteAddress: '203.0.113.77',
      headers: WIDGET_HEADERS,
      payload: JSON.stringify(body),
    });

  async function challenge(url: string, outcome: 'authenticate' | 'fail') {
    const path = new URL(url).pathname;
    return w.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `outcome=${outcome}`,
    });
  }

  it('row 23: every late, repeated or out-of-order signal after a payment leaves one transition and one event', async () => {
    const hooks = await hookServer(2);
    try {
      const enrolled = await addMerchant(w.t, w.db, 'Signal Shop', { threeDsEnrolled: true });
      const token = await createSession(w, { webhookUrl: hooks.url }, enrolled);
      const card = cardBody(TEST_CARDS.threeDSecure);
      const first = (await pay(w.app, token, card)).json();
      expect(first.status).toBe('requires_action');

      // The bank's page posts its answer three times, then a contrary one.
      for (let i = 0; i < 3; i += 1) await challenge(first.challengeUrl, 'authenticate');
      await challenge(first.challengeUrl, 'fail');
      const result = (
        await w.app.inject({ method: 'GET', url: `${new URL(first.challengeUrl).pathname}/result.json` })
      ).json();
      expect(result.status).toBe('authenticated');
      const threeDSecure = {
        cavv: result.cavv,
        eci: result.eci,
        xid: result.xid,
        dsTransactionId: result.dsTransactionId,
      };

      // The completion arrives three times at once, each with its own key (three tabs, a retry).
      const completions = await Promise.all(
        [0, 1, 2].map(() => pay(w.app, token, { ...card, threeDSecure })),
      );
      const statuses = completions.map((r) => r.json().status ?? r.json().error?.code).sort();
      expect(statuses.filter((s) => s === 'succeeded')).toHaveLength(1);
      expect(await approvedTransactions(w.db, token)).toBe(1);
      const receipt = completions.find((r) => r.json().status === 'succeeded')!.json().receipt;

      // Late and out of order: the first attempt again, a cancel from the page and from the
      // merchant, the expiry and recovery sweeps, a fresh card.
      const paidAnswer = { status: 'already_paid', receipt };
      expect((await pay(w.app, token, card)).json()).toMatchObject(paidAnswer);
      expect((await widget(token, 'cancel')).statusCode).toBe(409);
      const merchantCancel = await w.app.inject({
        method: 'POST',
        url: `/v1/checkout-sessions/${token}/cancel`,
        headers: { authorization: enrolled.authorization },
      });
      expect(merchantCancel.statusCode).toBe(409);
      await w.db.query(
        "update checkout_sessions set expires_at = now() - interval '10 minutes' where token = $1",
        [token],
      );
      expect(await w.checkout.announceEndedSessions()).toBe(0);
      clock.advance(10 * 60_000);
      await w.checkout.recoverAttempts();
      expect((await pay(w.app, token, cardBody())).json()).toMatchObject(paidAnswer);
      expect(await approvedTransactions(w.db, token)).toBe(1);

      const state = await w.app.inject({
        method: 'GET',
        url: `/v1/checkout-sessions/${token}`,
        headers: { authorization: enrolled.authorization },
      });
      expect(state.json()).toMatchObject({ status: 'paid', transactionId: receipt.transactionId });

      // The merchant hears one event; delivered three times (two 500s), always the same id and body.
      for (let i = 0; i < 4; i += 1) {
        await w.checkout.deliverWebhooks();
        clock.advance(60_000);
      }
      expect(hooks.received.map((r) => r.type)).toEqual([
        'payment.succeeded',
        'payment.succeeded',
        'payment.succeeded',
      ]);
      expect(new Set(hooks.received.map((r) => r.id)).size).toBe(1);
      expect(new Set(hooks.received.map((r) => r.body)).size).toBe(1);
    } finally {
      await hooks.close();
    }
  });

  it('row 13: amount, currency, merchant or order fields anywhere in a pay request carry no authority', async () => {
    const token = await createSession(w);
    for (const tampered of [
      { ...cardBody(), amount: '0.01' },
      { ...cardBody(), currency: 'JPY' },
      { ...cardBody(), merchantId: '1' },
      { ...cardBody(), orderNumber: 'FREE' },
      { ...cardBody(), card: { ...cardBody().card, amount: '0.01' } },
    ]) {
      const res = await pay(w.app, token, tampered);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
    // In the query string or a header it is simply not read: the session's amount is charged.
    const paid = await w.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${token}/pay?amount=0.01&currency=JPY`,
      remoteAddress: '203.0.113.78',
      headers: { ...WIDGET_HEADERS, 'idempotency-key': newKey(), 'x-amount': '0.01' },
      payload: JSON.stringify(cardBody()),
    });
    expect(paid.json()).toMatchObject({ status: 'succeeded', receipt: { amount: '24.99' } });
    const { rows } = await w.db.query<{ amount: string }>(
      `select t.amount::text as amount from transactions t join checkout_sessions s on s.id = t.checkout_session_id
       where s.token = $1 and t.status = 'approved'`,
      [token],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.amount).toMatch(/^24\.990*$/); // compared as text: money is never a float
  });

  it('row 20: a paid session replayed after 25 h, its keys pruned: refused or the receipt, never a charge', async () => {
    const token = await createSession(w);
    const key = newKey();
    const first = (await pay(w.app, token, cardBody(), { key })).json();
    expect(first.status).toBe('succeeded');
    clock.advance(KEY_RETENTION_MS + 60 * 60_000);
    await w.checkout.prune();
    const { rows } = await w.db.query('select 1 from checkout_idempotency where key = $1', [key]);
    expect(rows).toHaveLength(0);

    const replays = await Promise.all([
      pay(w.app, token, cardBody(), { key }),
      pay(w.app, token, cardBody()),
      pay(w.app, token, cardBody(TEST_CARDS.amex)),
    ]);
    for (const r of replays) {
      const body = r.json();
      // The stored outcome, never a new one: the first payment's receipt ("already paid" for
      // another key; the same key finds the session paid by its own attempt).
      expect(['succeeded', 'already_paid']).toContain(body.status);
      expect(body.receipt).toEqual(first.receipt);
    }
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });
});
