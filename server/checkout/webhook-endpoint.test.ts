/**
 * The merchant's webhook endpoint and signing secret (issue 16, Developers), in both wirings and on
 * both databases: a session without a webhook URL of its own is announced to the merchant's endpoint
 * (paid over REST, expired over SOAP); with a secret, deliveries are signed with it (SignWebhook,
 * the gateway's), and for 24 hours after a roll with the old one too (two v1 values); without one,
 * under the TransactionKey as before. A test event and a resend reach a real local HTTP server; the
 * resend carries the same event id; status, duration and the answer's first 1 KB are kept.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rollWebhookSecret, setWebhookEndpoint } from '../gateway/merchants/webhook-settings.ts';
import type { TestApp } from '../../test/kit/app.ts';
import {
  cardBody,
  type CheckoutWorld,
  createSession,
  manualClock,
  openCheckoutWorld,
  openRemoteCheckoutWorld,
  pay,
  wiringCases,
} from '../../test/kit/checkout/checkout-world.ts';
import {
  resendWebhook,
  sendTestWebhook,
  webhookDeliveryDetail,
  webhookDeliveryPage,
} from './webhook-deliveries.ts';

interface Received {
  body: string;
  signature: string;
  eventId: string;
}

/** A receiver answering 200 with a body longer than 1 KB (the head kept is its first 1024 bytes). */
async function receiver() {
  const received: Received[] = [];
  const answer = `{"ok":true,"pad":"${'x'.repeat(1500)}"}`;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: String(req.headers['payframe-signature']),
        eventId: String(req.headers['payframe-event-id']),
      });
      res.setHeader('content-type', 'application/json');
      res.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    received,
    answer,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The v1 values of a signature header, and whether one of them is `key`'s over this body. */
function v1s(header: string): string[] {
  return [...header.matchAll(/v1=([0-9a-f]{64})/g)].map((m) => m[1]!);
}
function signedWith(r: Received, key: string): boolean {
  const t = /^t=(\d+),/.exec(r.signature)![1];
  const expected = crypto.createHmac('sha256', key).update(`${t}.${r.body}`, 'utf8').digest('hex');
  return v1s(r.signature).includes(expected);
}

describe.each(wiringCases())('the merchant webhook endpoint ($name)', ({ target, wiring }) => {
  const clock = manualClock();
  let w: CheckoutWorld;
  let gateway: TestApp;
  let hooks: Awaited<ReturnType<typeof receiver>>;

  beforeAll(async () => {
    const db = await target.open();
    if (wiring === 'in process') {
      w = await openCheckoutWorld(db, { now: clock.now, webhooks: { allowPrivateNetworks: true } });
      gateway = w.t;
    } else {
      const remote = await openRemoteCheckoutWorld(db, 'Alpha Outfitters');
      w = remote;
      gateway = remote.gateway;
    }
    hooks = await receiver();
    await setWebhookEndpoint(w.db, w.merchant.id, hooks.url, new Date());
  });
  afterAll(async () => {
    await hooks?.close();
    await w?.close();
  });

  it('announces a session without a webhook URL to the endpoint, signed under the TransactionKey while there is no secret', async () => {
    const token = await createSession(w, { orderNumber: 'EP-1' });
    expect((await pay(w.app, token, cardBody())).json().status).toBe('succeeded');
    expect((await w.checkout.deliverWebhooks()).delivered).toBe(1);
    const got = hooks.received.at(-1)!;
    expect(JSON.parse(got.body)).toMatchObject({
      type: 'payment.succeeded',
      data: { token, orderNumber: 'EP-1' },
    });
    expect(v1s(got.signature)).toHaveLength(1);
    expect(signedWith(got, w.merchant.key)).toBe(true);
  });

  it('signs with the webhook secret once there is one, with both for 24 hours after a roll', async () => {
    const first = await rollWebhookSecret(w.db, gateway.gateway.deps.secrets, w.merchant.id, new Date());
    expect(first.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(first.previousSecretValidUntil).toBeNull();

    const test = await sendTestWebhook(w.checkout.deps, w.merchant.id, hooks.url);
    const got = hooks.received.at(-1)!;
    expect(got.eventId).toBe(test.id);
    expect(JSON.parse(got.body)).toMatchObject({ id: test.id, type: 'payframe.test' });
    expect(v1s(got.signature)).toHaveLength(1);
    expect(signedWith(got, first.secret)).toBe(true);
    expect(signedWith(got, w.merchant.key)).toBe(false);
    expect(test).toMatchObject({ state: 'delivered', lastStatus: 200, attempts: 1, sessionToken: null });
    expect(test.lastDurationMs).toBeGreaterThanOrEqual(0);
    expect(test.responseHead).toBe(hooks.answer.slice(0, 1024));

    const second = await rollWebhookSecret(w.db, gateway.gateway.deps.secrets, w.merchant.id, new Date());
    expect(second.previousSecretValidUntil!.getTime() - Date.now()).toBeGreaterThan(23 * 60 * 60 * 1000);
    await sendTestWebhook(w.checkout.deps, w.merchant.id, hooks.url);
    const during = hooks.received.at(-1)!;
    expect(v1s(during.signature)).toHaveLength(2);
    expect(v1s(during.signature)[0]).toBe(
      crypto
        .createHmac('sha256', second.secret)
        .update(`${/t=(\d+)/.exec(during.signature)![1]}.${during.body}`)
        .digest('hex'),
    );
    expect(signedWith(during, second.secret)).toBe(true);
    expect(signedWith(during, first.secret)).toBe(true);
  });

  it('resends a delivery now with the same id and body', async () => {
    const { deliveries } = await webhookDeliveryPage(w.db, w.merchant.id, { limit: 1 });
    const latest = deliveries[0]!;
    const before = hooks.received.length;
    const again = await resendWebhook(w.checkout.deps, w.merchant.id, latest.id);
    expect(hooks.received).toHaveLength(before + 1);
    const got = hooks.received.at(-1)!;
    expect(got.eventId).toBe(latest.id);
    expect(JSON.parse(got.body).id).toBe(latest.id);
    expect(got.body).toBe((await webhookDeliveryDetail(w.db, w.merchant.id, latest.id))!.payload);
    expect(again).toMatchObject({
      id: latest.id,
      state: 'delivered',
      attempts: latest.attempts + 1,
      lastStatus: 200,
    });
    // Another merchant's id, or none: nothing sent.
    expect(await resendWebhook(w.checkout.deps, '999999', latest.id)).toBeNull();
    expect(hooks.received).toHaveLength(before + 1);
  });

  it('announces an expired session without a webhook URL to the endpoint (the sweep, any session)', async () => {
    const token = await createSession(w, { orderNumber: 'EP-EXP' });
    await w.db.query('update checkout_sessions set expires_at = $2 where token = $1', [
      token,
      new Date(Date.now() - 10 * 60_000),
    ]);
    expect(await w.checkout.announceEndedSessions()).toBeGreaterThanOrEqual(1);
    await w.checkout.deliverWebhooks();
    const events = hooks.received.map((r) => JSON.parse(r.body)).filter((e) => e.data?.token === token);
    expect(events.map((e) => e.type)).toEqual(['checkout.session.expired']);
  });

  it('lists the deliveries newest first, a page at a time', async () => {
    const all = await webhookDeliveryPage(w.db, w.merchant.id, { limit: 100 });
    expect(all.deliveries.length).toBeGreaterThanOrEqual(4);
    const times = all.deliveries.map((d) => d.createdAt.getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const first = await webhookDeliveryPage(w.db, w.merchant.id, { limit: 2 });
    expect(first.hasMore).toBe(true);
    const next = await webhookDeliveryPage(w.db, w.merchant.id, {
      limit: 100,
      after: first.deliveries[1]!.id,
    });
    expect([...first.deliveries, ...next.deliveries].map((d) => d.id)).toEqual(
      all.deliveries.map((d) => d.id),
    );
    expect((await webhookDeliveryPage(w.db, '999999', { limit: 100 })).deliveries).toEqual([]);
  });
});
