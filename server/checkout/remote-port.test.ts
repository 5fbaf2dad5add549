/**
 * The split wiring (DESIGN.md "Parts and how data flows"): the checkout in one app reaching the
 * gateway of another app over real SOAP (HTTP on a local port), with the service credential for
 * its own calls and the merchant's credential for merchant REST. The same flows as in-process.
 */
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../testing/app.ts';
import { buildTestApp } from '../testing/app.ts';
import { databaseTargets } from '../testing/databases.ts';
import { remoteTransactionService } from './remote-port.ts';
import {
  addMerchant,
  approvedTransactions,
  basicAuth,
  buildCheckoutApp,
  type CheckoutWorld,
  cardBody,
  createSession,
  newKey,
  pay,
  SERVICE_KEY,
} from './testing/checkout-world.ts';

describe.each(databaseTargets())('checkout over SOAP to a remote gateway ($name)', (target) => {
  let gateway: TestApp;
  let w: CheckoutWorld;
  /** The SOAP operations the gateway was asked, in order (its SOAPAction headers). */
  const soapCalls: string[] = [];
  beforeAll(async () => {
    const db = await target.open();
    // The in-process signer of the checkout app reads TransactionKeys under the same vault key.
    const env = { CARD_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex') };
    gateway = await buildTestApp(db, { LOG_LEVEL: 'warn', GATEWAY_SERVICE_KEY: SERVICE_KEY, ...env });
    gateway.app.addHook('onRequest', async (request) => {
      const action = request.headers.soapaction;
      if (typeof action === 'string') soapCalls.push(action.replace(/^"?.*\//, '').replace(/"$/, ''));
    });
    await gateway.app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${(gateway.app.server.address() as AddressInfo).port}`;
    const { t, checkout } = await buildCheckoutApp(db, {
      env,
      wrapPort: () =>
        remoteTransactionService({
          baseUrl,
          namespace: gateway.config.soapNamespace,
          serviceKey: SERVICE_KEY,
        }),
    });
    const merchant = await addMerchant(gateway, db, 'Remote Outfitters');
    w = { db, t, app: t.app, checkout, merchant, close: () => t.close() };
  });
  afterAll(async () => {
    await w?.close(); // closes the database too
    await gateway?.app.close();
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
    soapCalls.length = 0;
    const view = await w.app.inject({ method: 'GET', url: `/api/checkout/sessions/${token}` });
    expect(view.statusCode).toBe(200);
    expect(soapCalls).toEqual(['GetCheckoutSession']);
    soapCalls.length = 0;
    const paid = await pay(w.app, token, cardBody());
    expect(paid.json().status).toBe('succeeded');
    // The gateway signs the redirect with its answer: no SignForMerchant, no second read.
    expect(new URL(paid.json().redirectUrl).searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(soapCalls).toEqual(['PayCheckoutSession']);
    soapCalls.length = 0;
    // A reload after paying: the receipt and the signed redirect from the same one call.
    const reloaded = await w.app.inject({ method: 'GET', url: `/api/checkout/sessions/${token}` });
    expect(reloaded.json()).toMatchObject({ status: 'paid', redirectUrl: paid.json().redirectUrl });
    expect(soapCalls).toEqual(['GetCheckoutSession']);
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
