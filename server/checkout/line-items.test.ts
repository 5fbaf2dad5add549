/**
 * What is bought (issue 14 §4): a session's description (≤ 500) and line items (≤ 100, total =
 * amount, else 400), kept on the gateway's one copy and given to the hosted page; the same rules
 * when the REST schema is bypassed (the gateway's store, as SOAP's CreateHostedPayment reaches it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  type CheckoutWorld,
  createSession,
  openCheckoutWorld,
  sessionBody,
} from '../../test/kit/checkout/checkout-world.ts';

const ITEMS = [
  { name: 'Wool socks', quantity: 2, unitAmount: '9.99' },
  { name: 'Gift wrap', quantity: 1, unitAmount: '5.01' },
];

describe.each(databaseTargets())('checkout session description and line items ($name)', (target) => {
  let w: CheckoutWorld;
  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open());
  });
  afterAll(() => w?.close());

  const post = (payload: object) =>
    w.app.inject({
      method: 'POST',
      url: '/v1/checkout-sessions',
      headers: { authorization: w.merchant.authorization },
      payload,
    });

  it('keeps them and gives them to the hosted page', async () => {
    const token = await createSession(w, { description: 'Winter order', lineItems: ITEMS });
    const view = (await w.app.inject({ method: 'GET', url: `/api/checkout/sessions/${token}` })).json();
    expect(view).toMatchObject({ amount: '24.99', description: 'Winter order', lineItems: ITEMS });
    const plain = await createSession(w);
    const none = (await w.app.inject({ method: 'GET', url: `/api/checkout/sessions/${plain}` })).json();
    expect(none).toMatchObject({ description: null, lineItems: null });
  });

  it('refuses items that do not add up to the amount: 400 line_items_total', async () => {
    const res = await post(sessionBody({ lineItems: [{ name: 'Socks', quantity: 3, unitAmount: '8.32' }] }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields[0]).toMatchObject({ field: 'lineItems', code: 'line_items_total' });
  });

  it.each([
    ['a description over 500 characters', { description: 'x'.repeat(501) }, 'description'],
    [
      'more than 100 items',
      {
        amount: '101.00',
        lineItems: Array.from({ length: 101 }, () => ({ name: 'A', quantity: 1, unitAmount: '1.00' })),
      },
      'lineItems',
    ],
    [
      'a fractional quantity',
      { lineItems: [{ name: 'A', quantity: 0.5, unitAmount: '49.98' }] },
      'lineItems.0.quantity',
    ],
    [
      'a float unit amount',
      { lineItems: [{ name: 'A', quantity: 1, unitAmount: 24.99 }] },
      'lineItems.0.unitAmount',
    ],
  ])('refuses %s: 400', async (_why, overrides, field) => {
    const res = await post(sessionBody(overrides));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.map((f: { field: string }) => f.field)).toContain(field);
  });

  it('the gateway holds the rule whoever writes the session (SOAP’s CreateHostedPayment)', async () => {
    const deps = w.t.checkout.deps;
    const origin = { requestId: 'line-items-test', remoteAddress: '127.0.0.1', log: w.app.log };
    const res = await deps.port.CreateHostedPayment(
      {
        request: {
          MerchantID: w.merchant.id,
          Amount: '10.00',
          LineItems: [{ Name: 'A', Quantity: 1, UnitAmount: '9.99' }],
        },
      },
      deps.contexts.merchant(origin, w.merchant.authorization),
    );
    expect(res).toMatchObject({ Success: false, ErrorField: 'lineItems' });
  });
});
