/**
 * Merchant REST (create, read), the OpenAPI document and the widget's session load, through the
 * real app on every database target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  addMerchant,
  basicAuth,
  type CheckoutWorld,
  cardBody,
  createSession,
  openCheckoutWorld,
  PUBLIC_URL,
  pay,
  SHOP_ORIGIN,
  sessionBody,
} from '../../test/kit/checkout/checkout-world.ts';

describe.each(databaseTargets())('checkout sessions ($name)', (target) => {
  let w: CheckoutWorld;
  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open(), { merchant: { threeDsEnrolled: true } });
  });
  afterAll(() => w?.close());

  const post = (payload: unknown, authorization = w.merchant.authorization) =>
    w.app.inject({
      method: 'POST',
      url: '/v1/checkout-sessions',
      headers: { authorization },
      payload: payload as object,
    });
  const get = (token: string, authorization = w.merchant.authorization) =>
    w.app.inject({ method: 'GET', url: `/v1/checkout-sessions/${token}`, headers: { authorization } });

  it('creates a session: 201 with token, url and expiry', async () => {
    const res = await post(sessionBody());
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.token).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
    expect(body.url).toBe(`${PUBLIC_URL}/pay/${body.token}`);
    expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now());
    expect(res.headers.location).toBe(`/v1/checkout-sessions/${body.token}`);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('reads an open session', async () => {
    const token = await createSession(w);
    const res = await get(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      token,
      status: 'open',
      amount: '24.99',
      currency: 'USD',
      orderNumber: 'A-1001',
    });
    expect(res.json().transactionId).toBeUndefined();
  });

  it('reads a paid session with its transaction, masked card and time', async () => {
    const token = await createSession(w);
    const paid = await pay(w.app, token, cardBody());
    expect(paid.statusCode).toBe(200);
    const res = (await get(token)).json();
    expect(res).toMatchObject({ status: 'paid', transactionId: paid.json().receipt.transactionId });
    expect(res.maskedCard).toMatch(/^424242\*+4242$/);
    expect(Date.parse(res.paidAt)).not.toBeNaN();
  });

  it('refuses a ReturnUrl off the merchant origins: 400 with a field error', async () => {
    const res = await post(sessionBody({ returnUrl: 'https://evil.example/thanks' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'validation_failed',
      fields: [{ field: 'returnUrl', code: 'invalid_return_url' }],
    });
  });

  it.each([
    '//evil.example',
    '/\\evil.example',
    'https:evil.example',
    '\\\\evil.example',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    `${SHOP_ORIGIN}/x%0d%0aSet-Cookie:a=b`,
    `${SHOP_ORIGIN}/x\r\nSet-Cookie: a=b`,
    'http://shop.example/thanks',
  ])('refuses ReturnUrl %s (attack rows 1–4)', async (returnUrl) => {
    const res = await post(sessionBody({ returnUrl }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields[0]).toMatchObject({ field: 'returnUrl', code: 'invalid_return_url' });
  });

  it.each([
    ['0', 'USD'],
    ['-1', 'USD'],
    ['1e20', 'USD'],
    ['10.001', 'USD'],
    ['NaN', 'USD'],
    [10.5, 'USD'],
    ['10.50', 'JPY'],
    ['10.00', 'XXX'],
    ['99999999999.00', 'USD'],
  ])('refuses amount %j in %s (attack row 14)', async (amount, currency) => {
    const res = await post(sessionBody({ amount, currency }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
    // One error for the field, the first found ("10.001": not also "USD amounts have at most 2 decimals").
    const fields = res.json().error.fields as { field: string; code: string; message: string }[];
    const field = currency === 'XXX' ? 'currency' : 'amount';
    expect(fields.filter((f) => f.field === field)).toHaveLength(1);
    expect(new Set(fields.map((f) => f.field)).size).toBe(fields.length);
  });

  it('answers 5.001 with one amount error, the amount rule; 10.50 in yen with the currency rule', async () => {
    const fine = await post(sessionBody({ amount: '5.001', currency: 'USD' }));
    expect(fine.json().error.fields).toEqual([
      {
        field: 'amount',
        code: 'invalid_format',
        message: 'amount must be a decimal string with at most two decimals, such as "10.50".',
      },
    ]);
    const yen = await post(sessionBody({ amount: '10.50', currency: 'JPY' }));
    expect(yen.json().error.fields).toEqual([
      { field: 'amount', code: 'invalid_amount', message: 'JPY amounts have no decimals.' },
    ]);
  });

  it('needs the merchant credential: 401 with a Basic challenge', async () => {
    const missing = await w.app.inject({
      method: 'POST',
      url: '/v1/checkout-sessions',
      payload: sessionBody(),
    });
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['www-authenticate']).toMatch(/^Basic /);
    const wrong = await post(sessionBody(), basicAuth(w.merchant.id, 'not-the-key'));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toMatch(/^Basic /);
  });

  it("does not show another merchant's session", async () => {
    const other = await addMerchant(w.t, w.db, 'Bravo Bikes');
    const token = await createSession(w);
    expect((await get(token, other.authorization)).statusCode).toBe(404);
  });

  it("the merchant cancels its open session; not a paid one, nor another merchant's", async () => {
    const cancel = (token: string, authorization = w.merchant.authorization) =>
      w.app.inject({
        method: 'POST',
        url: `/v1/checkout-sessions/${token}/cancel`,
        headers: { authorization },
      });
    const token = await createSession(w);
    const other = await addMerchant(w.t, w.db, 'Charlie Crafts');
    expect((await cancel(token, other.authorization)).statusCode).toBe(404);
    expect((await get(token)).json().status).toBe('open');

    const canceled = await cancel(token);
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json()).toMatchObject({ token, status: 'canceled' });
    expect((await cancel(token)).json().status).toBe('canceled');
    expect((await pay(w.app, token, cardBody())).json().error.code).toBe('session_canceled');

    const paid = await createSession(w);
    expect((await pay(w.app, paid, cardBody())).json().status).toBe('succeeded');
    const refused = await cancel(paid);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('session_paid');
    expect((await get(paid)).json().status).toBe('paid');
  });

  it('serves an OpenAPI 3.1 document generated from the schemas', async () => {
    const res = await w.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v1/checkout-sessions',
        '/v1/checkout-sessions/{token}',
        '/api/checkout/sessions/{token}/pay',
      ]),
    );
    expect(doc.components.schemas.CreateCheckoutSession.required).toEqual(
      expect.arrayContaining(['amount', 'currency', 'orderNumber', 'returnUrl']),
    );
    expect(doc.components.schemas.PayRequest.oneOf).toHaveLength(3); // card, ach, saved
  });

  it('loads the session for the widget: details, branding, methods, 3-D Secure, no secrets', async () => {
    const token = await createSession(w);
    const res = await w.app.inject({ method: 'GET', url: `/api/checkout/sessions/${token}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toMatchObject({
      token,
      status: 'open',
      amount: '24.99',
      currency: 'USD',
      orderNumber: 'A-1001',
      merchant: { name: 'Alpha Outfitters' },
      methods: ['card', 'ach'],
      threeDSecure: true,
      shopper: { email: 'ada@example.com', firstName: 'Ada', zipCode: '94105' },
    });
    expect(res.body).not.toContain(w.merchant.key);
    expect(res.body).not.toMatch(/transactionKey/i);
  });

  it('answers 404 for an unknown or malformed token', async () => {
    for (const token of [`cs_${'A'.repeat(43)}`, 'nope', '..%2f..%2fetc']) {
      const res = await w.app.inject({ method: 'GET', url: `/api/checkout/sessions/${token}` });
      expect(res.statusCode).toBe(404);
    }
  });

  it('ignores a return_url on the hosted-page URL: the stored ReturnUrl is used (attack row 5)', async () => {
    const token = await createSession(w);
    const res = await w.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${token}/pay?return_url=https://evil.example&redirect=https://evil.example`,
      headers: {
        'x-payframe-client': 'widget',
        'content-type': 'application/json',
        'idempotency-key': 'k-rr',
      },
      payload: JSON.stringify(cardBody()),
    });
    expect(res.statusCode).toBe(200);
    expect(new URL(res.json().redirectUrl).origin).toBe(SHOP_ORIGIN);
  });
});
