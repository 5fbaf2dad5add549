/**
 * Webhooks (security-requirements.md REL-4): written with the payment, delivered to a real local
 * HTTP server that fails twice and then succeeds, with exponential backoff, across a restart of the
 * checkout, delivered (acknowledged) once per event id, signed so the guide's Node and Python code
 * verify it; expiry is announced once; private addresses are refused unless allowed.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../test/kit/databases.ts';
import { createCheckout } from './checkout.ts';
import { defaultContexts } from './contexts.ts';
import { merchantKeySigner } from './signer.ts';
import {
  CHECKOUT_SECRET,
  type CheckoutWorld,
  cardBody,
  createSession,
  manualClock,
  openCheckoutWorld,
  pay,
  WIDGET_HEADERS,
} from '../../test/kit/checkout/checkout-world.ts';
import { runNode, runPython } from '../../test/kit/checkout/doc-snippets.ts';
import { retryDelayMs } from './webhooks.ts';

interface Received {
  body: string;
  signature: string;
  eventId: string;
}

function hookServer(failures: number) {
  const received: Received[] = [];
  let left = failures;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: String(req.headers['payframe-signature']),
        eventId: String(req.headers['payframe-event-id']),
      });
      res.statusCode = left-- > 0 ? 500 : 204;
      res.end();
    });
  });
  return {
    received,
    async start(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/payframe/hooks`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('retry delays', () => {
  it('double from the base, capped at six hours', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(30_000, n))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelayMs(30_000, 40)).toBe(6 * 60 * 60 * 1000);
  });
});

describe.each(databaseTargets())('webhooks ($name)', (target) => {
  const clock = manualClock();
  let w: CheckoutWorld;
  let hooks: ReturnType<typeof hookServer>;
  let hookUrl: string;
  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open(), {
      now: clock.now,
      webhooks: { allowPrivateNetworks: true, baseDelayMs: 1_000, timeoutMs: 2_000 },
    });
  });
  afterAll(() => w?.close());
  afterEach(() => hooks?.close());

  it('retries with backoff until a 2xx, across a restart, and acknowledges each event once', async () => {
    hooks = hookServer(2);
    hookUrl = await hooks.start();
    const token = await createSession(w, { webhookUrl: hookUrl });
    const paid = (await pay(w.app, token, cardBody())).json();

    expect(await w.checkout.deliverWebhooks()).toEqual({ delivered: 0, retrying: 1, abandoned: 0 });
    expect(await w.checkout.deliverWebhooks()).toEqual({ delivered: 0, retrying: 0, abandoned: 0 }); // not due yet
    clock.advance(1_000);
    expect(await w.checkout.deliverWebhooks()).toEqual({ delivered: 0, retrying: 1, abandoned: 0 });
    clock.advance(1_000);
    expect((await w.checkout.deliverWebhooks()).delivered).toBe(0); // the second retry waits 2 s

    // A restart: a new checkout on the same database picks the event up where it was left.
    const restarted = createCheckout({
      db: w.db,
      port: w.t.gateway.service,
      secret: CHECKOUT_SECRET,
      signer: merchantKeySigner(w.t.gateway.deps.merchants, w.db),
      publicUrl: w.t.config.publicUrl,
      log: w.app.log,
      now: clock.now,
      webhooks: { allowPrivateNetworks: true, baseDelayMs: 1_000 },
    });
    clock.advance(1_000);
    expect(await restarted.deliverWebhooks()).toEqual({ delivered: 1, retrying: 0, abandoned: 0 });
    clock.advance(60_000);
    expect(await restarted.deliverWebhooks()).toEqual({ delivered: 0, retrying: 0, abandoned: 0 });
    expect(await w.checkout.deliverWebhooks()).toEqual({ delivered: 0, retrying: 0, abandoned: 0 });

    expect(hooks.received).toHaveLength(3);
    const ids = new Set(hooks.received.map((r) => JSON.parse(r.body).id));
    expect(ids.size).toBe(1);
    const last = hooks.received[2]!;
    const event = JSON.parse(last.body);
    expect(last.eventId).toBe(event.id);
    expect(event).toMatchObject({
      type: 'payment.succeeded',
      data: {
        token,
        status: 'paid',
        amount: '24.99',
        currency: 'USD',
        transactionId: paid.receipt.transactionId,
      },
    });
    expect(last.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(Number(/t=(\d+)/.exec(last.signature)![1])).toBe(Math.floor(clock.now().getTime() / 1000) - 60);
  });

  it('is signed so the guide’s Node and Python code verify it', async () => {
    hooks = hookServer(0);
    hookUrl = await hooks.start();
    const real = manualClock(); // the snippets check the time against the real clock
    clock.advance(real.now().getTime() - clock.now().getTime());
    const token = await createSession(w, { webhookUrl: hookUrl });
    await pay(w.app, token, cardBody('4000000000000002'));
    expect((await w.checkout.deliverWebhooks()).delivered).toBe(1);
    const [got] = hooks.received;
    expect(JSON.parse(got!.body).type).toBe('payment.failed');
    const env = { BODY: got!.body, SIG: got!.signature, KEY: w.merchant.key };
    const node = 'console.log(verifyPayframeWebhook(process.env.BODY, process.env.SIG, process.env.KEY));';
    const python =
      'import os\nprint("true" if verify_payframe_webhook(os.environ["BODY"].encode(), os.environ["SIG"], os.environ["KEY"]) else "false")';
    expect(runNode('webhook-node', node, env)).toBe('true');
    expect(runPython('webhook-python', python, env)).toBe('true');
    const tampered = { ...env, BODY: got!.body.replace('"open"', '"paid"') };
    expect(runNode('webhook-node', node, tampered)).toBe('false');
    expect(runPython('webhook-python', python, tampered)).toBe('false');
    // A forged v1 of the right length in characters but not in bytes: false, not an exception.
    const wide = { ...env, SIG: got!.signature.replace(/v1=./, 'v1=é') };
    expect(runNode('webhook-node', node, wide)).toBe('false');
    expect(runPython('webhook-python', python, wide)).toBe('false');
  });

  it('announces an expired session once', async () => {
    hooks = hookServer(0);
    hookUrl = await hooks.start();
    const token = await createSession(w, { webhookUrl: hookUrl });
    // Ended longer ago than the sweep's settling time (session-expiry.ts SETTLE_MS).
    await w.db.query(
      "update checkout_sessions set expires_at = now() - interval '10 minutes' where token = $1",
      [token],
    );
    expect(await w.checkout.announceEndedSessions()).toBe(1);
    expect(await w.checkout.announceEndedSessions()).toBe(0);
    await w.checkout.deliverWebhooks();
    expect(hooks.received.map((r) => JSON.parse(r.body).type)).toEqual(['checkout.session.expired']);
    expect(JSON.parse(hooks.received[0]!.body).data).toMatchObject({
      token,
      status: 'expired',
      currency: 'USD',
    });
  });

  it('announces a canceled session once (shopper or merchant), and never again as expired', async () => {
    hooks = hookServer(0);
    hookUrl = await hooks.start();
    const byShopper = await createSession(w, { webhookUrl: hookUrl, orderNumber: 'C-1' });
    const byMerchant = await createSession(w, { webhookUrl: hookUrl, orderNumber: 'C-2' });
    const shopperCancel = () =>
      w.app.inject({
        method: 'POST',
        url: `/api/checkout/sessions/${byShopper}/cancel`,
        headers: WIDGET_HEADERS,
        payload: '{}',
      });
    expect((await shopperCancel()).statusCode).toBe(200);
    expect((await shopperCancel()).statusCode).toBe(200); // twice: still one event
    const merchantCancel = await w.app.inject({
      method: 'POST',
      url: `/v1/checkout-sessions/${byMerchant}/cancel`,
      headers: { authorization: w.merchant.authorization },
    });
    expect(merchantCancel.statusCode).toBe(200);
    clock.advance(2 * 60 * 60 * 1000); // past both expiries: the sweep announces neither again
    await w.checkout.announceEndedSessions();
    await w.checkout.deliverWebhooks();
    // Both made at the same (test clock) time: delivery order between them is not defined.
    const events = hooks.received
      .map((r) => JSON.parse(r.body))
      .filter((e) => e.data.token === byShopper || e.data.token === byMerchant)
      .sort((a, b) => String(a.data.orderNumber).localeCompare(String(b.data.orderNumber)));
    expect(events.map((e) => [e.type, e.data.orderNumber])).toEqual([
      ['checkout.session.canceled', 'C-1'],
      ['checkout.session.canceled', 'C-2'],
    ]);
    expect(events[0].data).toMatchObject({
      token: byShopper,
      status: 'canceled',
      amount: '24.99',
      currency: 'USD',
    });
  });

  it('a session canceled over SOAP, past the checkout, is announced as canceled by the sweep', async () => {
    hooks = hookServer(0);
    hookUrl = await hooks.start();
    const token = await createSession(w, { webhookUrl: hookUrl, orderNumber: 'C-SOAP' });
    const status = await w.t.gateway.service.CancelHostedPayment(
      { token },
      defaultContexts.merchant(
        { requestId: 'test', remoteAddress: '127.0.0.1', log: w.app.log },
        w.merchant.authorization,
      ),
    );
    expect(status.Status).toBe(true);
    clock.advance(2 * 60 * 60 * 1000);
    await w.checkout.announceEndedSessions();
    await w.checkout.deliverWebhooks();
    const events = hooks.received.map((r) => JSON.parse(r.body)).filter((e) => e.data.token === token);
    expect(events.map((e) => [e.type, e.data.orderNumber])).toEqual([
      ['checkout.session.canceled', 'C-SOAP'],
    ]);
  });

  it('a session made over SOAP gets the same webhooks as one made over REST: paid, and expired', async () => {
    hooks = hookServer(0);
    hookUrl = await hooks.start();
    const asMerchant = defaultContexts.merchant(
      { requestId: 'test', remoteAddress: '127.0.0.1', log: w.app.log },
      w.merchant.authorization,
    );
    const create = (orderNumber: string) =>
      w.t.gateway.service.CreateHostedPayment(
        {
          request: {
            MerchantID: w.merchant.id,
            Amount: '12.50',
            Currency: 'EUR',
            OrderNumber: orderNumber,
            ReturnUrl: 'https://shop.example/thanks',
            WebhookUrl: hookUrl,
          },
        },
        asMerchant,
      );
    const paidSession = await create('SOAP-PAID');
    const expiring = await create('SOAP-EXPIRED');
    expect(paidSession.Success && expiring.Success).toBe(true);
    const paid = (await pay(w.app, paidSession.Token!, cardBody())).json();
    expect(paid.status).toBe('succeeded');
    // Ended longer ago than the sweep's settling time, on the clock both sides share here.
    await w.db.query('update checkout_sessions set expires_at = $2 where token = $1', [
      expiring.Token,
      new Date(clock.now().getTime() - 10 * 60_000),
    ]);
    expect(await w.checkout.announceEndedSessions()).toBeGreaterThanOrEqual(1);
    await w.checkout.deliverWebhooks();
    const events = hooks.received
      .map((r) => JSON.parse(r.body))
      .filter((e) => [paidSession.Token, expiring.Token].includes(e.data.token))
      .map((e) => [e.type, e.data.orderNumber, e.data.currency, e.data.amount]);
    expect(events.sort()).toEqual([
      ['checkout.session.expired', 'SOAP-EXPIRED', 'EUR', '12.50'],
      ['payment.succeeded', 'SOAP-PAID', 'EUR', '12.50'],
    ]);
  });

  it('does not call private addresses unless allowed (SSRF)', async () => {
    hooks = hookServer(0);
    hookUrl = await hooks.start();
    const strict = createCheckout({
      db: w.db,
      port: w.t.gateway.service,
      secret: CHECKOUT_SECRET,
      signer: merchantKeySigner(w.t.gateway.deps.merchants, w.db),
      publicUrl: w.t.config.publicUrl,
      log: w.app.log,
      now: clock.now,
    });
    const token = await createSession(w, { webhookUrl: hookUrl.replace('127.0.0.1', 'localhost') });
    await pay(w.app, token, cardBody());
    expect(await strict.deliverWebhooks()).toMatchObject({ delivered: 0, retrying: 1 });
    expect(hooks.received).toHaveLength(0);
  });
});
