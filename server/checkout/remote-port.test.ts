/**
 * The split wiring (DESIGN.md "Parts and how data flows"): the checkout in one app reaching the
 * gateway of another app over real SOAP (HTTP on a local port), with the service credential for
 * its own calls and the merchant's credential for merchant REST. The same flows as in-process.
 */
import net, { type AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayframeError } from '../errors.ts';
import type { CallContext } from '../gateway/port.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  approvedTransactions,
  basicAuth,
  cardBody,
  createSession,
  newKey,
  openRemoteCheckoutWorld,
  pay,
  type RemoteCheckoutWorld,
} from '../../test/kit/checkout/checkout-world.ts';
import { remoteTransactionService } from './remote-port.ts';

describe.each(databaseTargets())('checkout over SOAP to a remote gateway ($name)', (target) => {
  let w: RemoteCheckoutWorld;
  beforeAll(async () => {
    w = await openRemoteCheckoutWorld(await target.open(), 'Remote Outfitters');
  });
  afterAll(async () => {
    await w?.close();
  });

  it('creates, loads, pays (replayed by key) and confirms a session', async () => {
    const token = await createSession(w);
    const view = await w.app.inject({ method: 'GET', url: `/api/checkout/sessions/${token}` });
    expect(view.json()).toMatchObject({
      status: 'open',
      amount: '24.99',
      merchant: { name: 'Remote Outfitters' },
    });
    const key = newKey();
    const paid = await pay(w.app, token, cardBody(), { key });
    expect(paid.json().status).toBe('succeeded');
    expect((await pay(w.app, token, cardBody(), { key })).body).toBe(paid.body);
    expect((await pay(w.app, token, cardBody())).json().status).toBe('already_paid');
    const confirmed = await w.app.inject({
      method: 'GET',
      url: `/v1/checkout-sessions/${token}`,
      headers: { authorization: w.merchant.authorization },
    });
    expect(confirmed.json()).toMatchObject({
      status: 'paid',
      transactionId: paid.json().receipt.transactionId,
    });
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });

  it('a load is one SOAP round trip and a pay one more, its signed redirect included (DESIGN.md §17)', async () => {
    const token = await createSession(w);
    w.soapCalls.length = 0;
    const view = await w.app.inject({ method: 'GET', url: `/api/checkout/sessions/${token}` });
    expect(view.statusCode).toBe(200);
    expect(w.soapCalls).toEqual(['GetCheckoutSession']);
    w.soapCalls.length = 0;
    const paid = await pay(w.app, token, cardBody());
    expect(paid.json().status).toBe('succeeded');
    // The gateway signs the redirect with its answer: no SignForMerchant, no second read.
    expect(new URL(paid.json().redirectUrl).searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(w.soapCalls).toEqual(['PayCheckoutSession']);
    w.soapCalls.length = 0;
    // A reload after paying: the receipt and the signed redirect from the same one call.
    const reloaded = await w.app.inject({ method: 'GET', url: `/api/checkout/sessions/${token}` });
    expect(reloaded.json()).toMatchObject({ status: 'paid', redirectUrl: paid.json().redirectUrl });
    expect(w.soapCalls).toEqual(['GetCheckoutSession']);
  });

  it('a wrong merchant key is 401 through the remote gateway too', async () => {
    const res = await w.app.inject({
      method: 'POST',
      url: '/v1/checkout-sessions',
      headers: { authorization: basicAuth(w.merchant.id, 'wrong-key') },
      payload: { amount: '1.00', currency: 'USD', orderNumber: 'X', returnUrl: 'https://shop.example/' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic /);
  });
});

describe('the remote port when the gateway cannot be reached', () => {
  /** A gateway address whose every connection is reset as soon as the request arrives. */
  async function resettingGateway() {
    let connections = 0;
    const server = net.createServer((socket) => {
      connections++;
      socket.once('data', () => socket.resetAndDestroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = remoteTransactionService({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      namespace: 'http://tempuri.org/',
      serviceKey: 'service-key-for-checkout-tests-0123456789',
    });
    return {
      port,
      connections: () => connections,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }
  const context = {
    requestId: 'r1',
    remoteAddress: '127.0.0.1',
    log: pino({ level: 'silent' }),
  } as unknown as CallContext;

  it('sends a read once more, a change never; both end as 503 database_unavailable with Retry-After', async () => {
    const g = await resettingGateway();
    try {
      const read = await g.port.GetCheckoutSession({ token: 'abc' }, context).catch((e: unknown) => e);
      expect(read).toBeInstanceOf(PayframeError);
      expect(read).toMatchObject({ code: 'database_unavailable', status: 503, retryAfterSeconds: 2 });
      expect(g.connections()).toBe(2);

      const change = await g.port.CancelHostedPayment({ token: 'abc' }, context).catch((e: unknown) => e);
      expect(change).toMatchObject({ code: 'database_unavailable', status: 503 });
      expect(g.connections()).toBe(3);
    } finally {
      await g.close();
    }
  });
});
