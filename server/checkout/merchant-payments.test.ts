/**
 * The merchant REST API after the pay (`/v1/payments`): list and read the merchant's payments,
 * refund, capture and void them, through the real app on every database target and in both
 * wirings (the gateway in process, and a gateway app of its own reached over real SOAP with the
 * merchant's credential). Another merchant's payment is 404 and untouched; no answer carries a card
 * number or a CVV.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runShell } from '../../test/kit/checkout/doc-snippets.ts';
import type { TestApp } from '../../test/kit/app.ts';
import {
  achBody,
  addMerchant,
  type CheckoutWorld,
  cardBody,
  createSession,
  manualClock,
  newKey,
  openCheckoutWorld,
  openRemoteCheckoutWorld,
  pay,
  type WorldMerchant,
  wiringCases,
} from '../../test/kit/checkout/checkout-world.ts';
import { call, card, pay as payRequest } from '../../test/kit/gateway/gateway-kit.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import type { TransactionService } from '../../shared/contract/service.ts';
import { PayframeError } from '../errors.ts';
import type { CallContext } from '../gateway/port.ts';

describe.each(wiringCases())('merchant payments API ($name)', ({ target, wiring }) => {
  let w: CheckoutWorld;
  let gatewayApp: TestApp;
  let other: WorldMerchant;
  let n = 0;

  beforeAll(async () => {
    const db = await target.open();
    if (wiring === 'in process') {
      w = await openCheckoutWorld(db);
      gatewayApp = w.t;
    } else {
      const remote = await openRemoteCheckoutWorld(db, 'Remote Outfitters');
      gatewayApp = remote.gateway;
      w = remote;
    }
    other = await addMerchant(gatewayApp, w.db, 'Other Goods');
  });
  afterAll(async () => {
    await w?.close();
  });

  const get = (url: string, merchant: WorldMerchant = w.merchant) =>
    w.app.inject({ method: 'GET', url, headers: { authorization: merchant.authorization } });
  const post = (
    url: string,
    body: unknown,
    options: { key?: string | null; merchant?: WorldMerchant } = {},
  ) => {
    const key = options.key === undefined ? newKey() : options.key;
    return w.app.inject({
      method: 'POST',
      url,
      headers: {
        authorization: (options.merchant ?? w.merchant).authorization,
        'content-type': 'application/json',
        ...(key === null ? {} : { 'idempotency-key': key }),
      },
      payload: JSON.stringify(body),
    });
  };

  /** A payment of a checkout session, paid in the widget: its id. */
  async function paidSession(overrides: Record<string, unknown> = {}, body: unknown = cardBody()) {
    const token = await createSession(w, { orderNumber: `P-${++n}`, ...overrides });
    const paid = await pay(w.app, token, body);
    expect(paid.statusCode, paid.body).toBe(200);
    const session = (await get(`/v1/checkout-sessions/${token}`)).json();
    return { token, id: session.transactionId as string };
  }

  /** An authorisation over SOAP, as the merchant's shop makes one: its id. */
  async function authorize(amount: string, merchant: WorldMerchant = w.merchant): Promise<string> {
    const as = { merchantId: merchant.id, key: merchant.key };
    const m = { id: merchant.id, key: merchant.key, name: '', publicCode: '', as };
    const r = await call(
      gatewayApp.app,
      'ProcessTransaction',
      payRequest(m, card('4242424242424242', amount, { TransactionType: 'auth' })),
      as,
    );
    expect(r.ResponseCode).toBe('00');
    return r.TransactionID;
  }

  it('reads a payment: status, amounts, method, customer, session, checks; no card number', async () => {
    const { token, id } = await paidSession({
      shopper: { email: 'Ada@Example.com', firstName: 'Ada', lastName: 'Lovelace' },
    });
    const res = await get(`/v1/payments/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({
      id,
      kind: 'sale',
      status: 'approved',
      amount: '24.99',
      amountCaptured: '24.99',
      amountRefunded: '0.00',
      currency: 'USD',
      method: { type: 'card', last4: '4242' },
      customer: { email: 'Ada@Example.com', name: 'Ada Lovelace' },
      sessionToken: token,
      orderNumber: `P-${n}`,
      checks: { threeDSecure: false },
      refunds: [],
    });
    expect(res.body).not.toContain('4242424242424242');
    expect(res.body.toLowerCase()).not.toContain('cvv');

    const ach = await paidSession({}, achBody());
    expect((await get(`/v1/payments/${ach.id}`)).json().method).toEqual({
      type: 'ach_debit',
      accountType: 'checking',
      last4: '6789',
      settlement: 'days',
    });
  });

  it("lists the merchant's own payments newest first, with its filters and a cursor", async () => {
    const a = await paidSession({ currency: 'EUR', shopper: { email: 'grace@example.com' } });
    const b = await paidSession();
    const theirs = await authorize('5.00', other);
    const page = (await get('/v1/payments?limit=2')).json();
    expect(page.data.map((p: { id: string }) => p.id)).toEqual([b.id, a.id]);
    expect(page.hasMore).toBe(true);
    expect(JSON.stringify(page)).not.toContain('4242424242424242');
    const next = (await get(`/v1/payments?limit=2&startingAfter=${a.id}`)).json();
    expect(next.data.map((p: { id: string }) => p.id)).not.toContain(a.id);
    expect(next.data.map((p: { id: string }) => p.id)).not.toContain(theirs);

    const ids = async (query: string) =>
      ((await get(`/v1/payments?${query}`)).json().data as { id: string }[]).map((p) => p.id);
    expect(await ids(`orderNumber=p-${n - 1}`)).toEqual([a.id]);
    expect(await ids('email=GRACE@example.com')).toEqual([a.id]);
    expect(await ids('currency=EUR&limit=100')).toEqual([a.id]);
    expect(await ids('status=approved&limit=100')).toContain(b.id);
    expect(await ids('status=refunded&limit=100')).not.toContain(b.id);
    const created = (await get(`/v1/payments/${b.id}`)).json().createdAt as string;
    expect(await ids(`created[gte]=${created}&created[lte]=${created}`)).toEqual([b.id]);
    expect(
      await ids(`created[lte]=${new Date(Date.parse(created) - 1).toISOString()}&limit=100`),
    ).not.toContain(b.id);

    const bad = await get('/v1/payments?status=paid&limit=500');
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .error.fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(['limit', 'status']);
    const foreignCursor = await get(`/v1/payments?startingAfter=${theirs}`);
    expect(foreignCursor.statusCode).toBe(400);
    expect(foreignCursor.json().error.fields[0].field).toBe('startingAfter');
  });

  it("answers 404 for another merchant's payment, to every verb, and changes nothing", async () => {
    const theirs = await authorize('9.00', other);
    for (const res of [
      await get(`/v1/payments/${theirs}`),
      await post(`/v1/payments/${theirs}/refunds`, {}),
      await post(`/v1/payments/${theirs}/capture`, {}),
      await post(`/v1/payments/${theirs}/void`, {}),
      await get('/v1/payments/999999999999'),
      await get('/v1/payments/not-an-id'),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    expect((await get(`/v1/payments/${theirs}`, other)).json()).toMatchObject({
      status: 'authorized',
      amountCaptured: '0.00',
    });
    const unauthenticated = await w.app.inject({ method: 'GET', url: '/v1/payments' });
    expect(unauthenticated.statusCode).toBe(401);
    expect(unauthenticated.headers['www-authenticate']).toContain('Basic');
  });

  it('refunds once per Idempotency-Key: part with a reason, a replay, a mismatch, too much, the rest', async () => {
    const { id } = await paidSession();
    const missing = await post(`/v1/payments/${id}/refunds`, { amount: '1.00' }, { key: null });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields[0].field).toBe('Idempotency-Key');

    const key = newKey();
    const first = await post(`/v1/payments/${id}/refunds`, { amount: '4.99', reason: 'duplicate' }, { key });
    expect(first.statusCode, first.body).toBe(200);
    const result = first.json();
    expect(result).toMatchObject({
      action: 'refund',
      status: 'succeeded',
      amount: '4.99',
      reason: 'duplicate',
      payment: { status: 'partially_refunded', amountRefunded: '4.99' },
    });
    expect(result.transactionIds).toHaveLength(1);
    expect(first.body).not.toContain('4242424242424242');
    expect(first.body.toLowerCase()).not.toContain('cvv');
    expect(result.payment.refunds).toEqual([
      { id: result.transactionIds[0], amount: '4.99', createdAt: expect.any(String) },
    ]);

    const replay = await post(`/v1/payments/${id}/refunds`, { amount: '4.99', reason: 'duplicate' }, { key });
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(first.body);
    const mismatch = await post(`/v1/payments/${id}/refunds`, { amount: '5.00' }, { key });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().error.code).toBe('idempotency_mismatch');
    expect((await get(`/v1/payments/${id}`)).json().amountRefunded).toBe('4.99');

    const tooMuch = await post(`/v1/payments/${id}/refunds`, { amount: '20.01' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error.fields[0]).toMatchObject({ field: 'amount', code: 'amount_too_large' });
    const badReason = await post(`/v1/payments/${id}/refunds`, { reason: 'changed_mind' });
    expect(badReason.statusCode).toBe(400);
    expect(badReason.json().error.fields[0].field).toBe('reason');

    const rest = await post(`/v1/payments/${id}/refunds`, {});
    expect(rest.json()).toMatchObject({
      amount: '20.00',
      payment: { status: 'refunded', amountRefunded: '24.99' },
    });
    const nothing = await post(`/v1/payments/${id}/refunds`, {});
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().error.fields[0].code).toBe('nothing_to_refund');
  });

  it('captures an authorisation in parts and refunds across the captures; voids another', async () => {
    const auth = await authorize('30.00');
    const tooMuch = await post(`/v1/payments/${auth}/capture`, { amount: '30.01' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error.fields[0].field).toBe('amount');
    const c1 = await post(`/v1/payments/${auth}/capture`, { amount: '10.00' });
    expect(c1.json()).toMatchObject({ action: 'capture', status: 'succeeded', amount: '10.00' });
    const c2 = await post(`/v1/payments/${auth}/capture`, { amount: '5.00' });
    expect(c2.json().payment).toMatchObject({ status: 'approved', amountCaptured: '15.00' });

    const refund = await post(`/v1/payments/${auth}/refunds`, { amount: '12.00' });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(refund.json()).toMatchObject({ amount: '12.00', payment: { amountRefunded: '12.00' } });
    expect(refund.json().transactionIds).toHaveLength(2);
    const rest = await post(`/v1/payments/${auth}/refunds`, {});
    expect(rest.json()).toMatchObject({
      amount: '3.00',
      payment: { status: 'refunded', amountRefunded: '15.00' },
    });

    const other = await authorize('8.00');
    const voided = await post(`/v1/payments/${other}/void`, {});
    expect(voided.json()).toMatchObject({
      action: 'void',
      status: 'succeeded',
      amount: '8.00',
      payment: { status: 'voided' },
    });
    const again = await post(`/v1/payments/${other}/void`, {});
    expect(again.statusCode).toBe(400);
    expect(again.json().error.fields[0].code).toBe('not_voidable');
  });

  it('documents the payments paths in the OpenAPI document', async () => {
    const doc = (await w.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const ops = {
      '/v1/payments': ['get', 'listPayments'],
      '/v1/payments/{id}': ['get', 'getPayment'],
      '/v1/payments/{id}/refunds': ['post', 'refundPayment'],
      '/v1/payments/{id}/capture': ['post', 'capturePayment'],
      '/v1/payments/{id}/void': ['post', 'voidPayment'],
    } as const;
    for (const [path, [verb, operationId]] of Object.entries(ops)) {
      const op = doc.paths[path]?.[verb];
      expect(op?.operationId, path).toBe(operationId);
      expect(op.security).toEqual([{ merchant: [] }]);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '401', '501']));
      if (verb === 'post') {
        expect(op.parameters).toContainEqual(
          expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: true }),
        );
        expect(Object.keys(op.responses)).toEqual(
          expect.arrayContaining(['400', '404', '409', '422', '503']),
        );
      }
    }
    const listParams = doc.paths['/v1/payments'].get.parameters.map((p: { name: string }) => p.name);
    expect(listParams.sort()).toEqual(
      [
        'created[gte]',
        'created[lte]',
        'currency',
        'email',
        'limit',
        'orderNumber',
        'startingAfter',
        'status',
      ].sort(),
    );
    const schemas = doc.components.schemas;
    expect(schemas.RefundRequest.properties.reason.enum).toEqual([
      'requested_by_customer',
      'duplicate',
      'fraudulent',
      'other',
    ]);
    expect(schemas.Payment.properties.status.enum).toEqual([
      'authorized',
      'approved',
      'declined',
      'partially_refunded',
      'refunded',
      'voided',
      'settled',
    ]);
    expect(schemas.PaymentActionResult.required).toEqual(
      expect.arrayContaining(['action', 'status', 'amount', 'transactionIds', 'payment']),
    );
  });

  it('never refunds more than was captured under concurrent refunds', async () => {
    const { id } = await paidSession({ amount: '10.00' });
    const answers = await Promise.all([
      post(`/v1/payments/${id}/refunds`, { amount: '6.00' }),
      post(`/v1/payments/${id}/refunds`, { amount: '6.00' }),
      post(`/v1/payments/${id}/refunds`, { amount: '6.00' }),
    ]);
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.statusCode !== 200)) {
      expect([400, 409], a.body).toContain(a.statusCode);
    }
    expect((await get(`/v1/payments/${id}`)).json()).toMatchObject({ amountRefunded: '6.00' });
  });
});

/** The port with ProcessTransaction's answer lost once armed: the gateway acts, the checkout hears nothing. */
function losingPort(state: { lose: 'after' | 'before' | null }) {
  return (port: TransactionService<CallContext>): TransactionService<CallContext> => ({
    ...port,
    ProcessTransaction: async (params, context) => {
      const lose = state.lose;
      state.lose = null;
      if (lose === 'before') throw new PayframeError('database_unavailable');
      const answer = await port.ProcessTransaction(params, context);
      if (lose === 'after') throw new PayframeError('database_unavailable');
      return answer;
    },
  });
}

describe.each(databaseTargets())('a refund whose answer is lost ($name)', (target) => {
  const STALE_MS = 10_000;
  const state: { lose: 'after' | 'before' | null } = { lose: null };
  const clock = manualClock();
  let w: CheckoutWorld;

  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open(), {
      now: clock.now,
      staleAttemptMs: STALE_MS,
      wrapPort: losingPort(state),
    });
  });
  afterAll(() => w?.close());

  const refund = (id: string, body: unknown, key: string) =>
    w.app.inject({
      method: 'POST',
      url: `/v1/payments/${id}/refunds`,
      headers: { authorization: w.merchant.authorization, 'idempotency-key': key },
      payload: body as Record<string, unknown>,
    });
  const read = async (id: string) =>
    (
      await w.app.inject({
        method: 'GET',
        url: `/v1/payments/${id}`,
        headers: { authorization: w.merchant.authorization },
      })
    ).json();
  async function paid(): Promise<string> {
    const token = await createSession(w, { amount: '10.00' });
    expect((await pay(w.app, token, cardBody())).statusCode).toBe(200);
    const session = await w.app.inject({
      method: 'GET',
      url: `/v1/checkout-sessions/${token}`,
      headers: { authorization: w.merchant.authorization },
    });
    return session.json().transactionId as string;
  }

  it('after the gateway refunded: 503, 409 until stale, then the refund it made, never a second', async () => {
    const id = await paid();
    const key = newKey();
    state.lose = 'after';
    const lost = await refund(id, { amount: '4.00' }, key);
    expect(lost.statusCode).toBe(503);
    expect(Number(lost.headers['retry-after'])).toBeGreaterThanOrEqual(10);
    expect((await read(id)).amountRefunded).toBe('4.00'); // the gateway did refund

    const early = await refund(id, { amount: '4.00' }, key);
    expect(early.statusCode).toBe(409);
    const otherKey = await refund(id, { amount: '1.00' }, newKey());
    expect(otherKey.statusCode).toBe(409); // one action of a payment at a time

    clock.advance(STALE_MS + 1_000);
    const settled = await refund(id, { amount: '4.00' }, key);
    expect(settled.statusCode, settled.body).toBe(200);
    expect(settled.json()).toMatchObject({
      status: 'succeeded',
      amount: '4.00',
      payment: { amountRefunded: '4.00' },
    });
    expect(settled.json().transactionIds).toHaveLength(1);
    const replay = await refund(id, { amount: '4.00' }, key);
    expect(replay.body).toBe(settled.body);
    expect((await read(id)).refunds).toHaveLength(1);
  });

  it('a call that never reached the gateway is made once the action is settled', async () => {
    const id = await paid();
    const key = newKey();
    state.lose = 'before';
    expect((await refund(id, { amount: '3.00' }, key)).statusCode).toBe(503);
    expect((await read(id)).amountRefunded).toBe('0.00');
    clock.advance(STALE_MS + 1_000);
    // Another key of the payment settles the stale action first, then runs.
    const next = await refund(id, { amount: '2.00' }, newKey());
    expect(next.statusCode, next.body).toBe(200);
    const again = await refund(id, { amount: '3.00' }, key);
    expect(again.json()).toMatchObject({ status: 'succeeded', amount: '3.00' });
    expect((await read(id)).amountRefunded).toBe('5.00');
  });
});

describe.each(databaseTargets())("the guide's payments examples, run with curl ($name)", (target) => {
  let w: CheckoutWorld;
  let url: string;
  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open());
    await w.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(w.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => w?.close());

  async function authorize(amount: string): Promise<string> {
    const as = { merchantId: w.merchant.id, key: w.merchant.key };
    const m = { id: w.merchant.id, key: w.merchant.key, name: '', publicCode: '', as };
    const r = await call(
      w.app,
      'ProcessTransaction',
      payRequest(m, card('4242424242424242', amount, { TransactionType: 'auth' })),
      as,
    );
    return r.TransactionID;
  }

  it('refunds, captures and voids once per key, then reads what they did', async () => {
    const token = await createSession(w);
    expect((await pay(w.app, token, cardBody())).statusCode).toBe(200);
    const session = await w.app.inject({
      method: 'GET',
      url: `/v1/checkout-sessions/${token}`,
      headers: { authorization: w.merchant.authorization },
    });
    const env = {
      PAYFRAME_URL: url,
      MERCHANT_ID: w.merchant.id,
      TRANSACTION_KEY: w.merchant.key,
      PAYMENT_ID: session.json().transactionId as string,
      AUTH_ID: await authorize('30.00'),
      OTHER_AUTH_ID: await authorize('8.00'),
    };
    const lines = async (name: string) => (await runShell(name, env)).split('\n').map((l) => JSON.parse(l));
    const [refund, capture, voided] = await lines('payments-act-sh');
    expect(refund).toMatchObject({
      action: 'refund',
      status: 'succeeded',
      amount: '5.00',
      reason: 'requested_by_customer',
    });
    expect(capture).toMatchObject({ action: 'capture', status: 'succeeded', amount: '10.00' });
    expect(voided).toMatchObject({ action: 'void', status: 'succeeded', payment: { status: 'voided' } });
    // Run again: the same keys answer the same, and nothing moves twice.
    expect(await lines('payments-act-sh')).toEqual([refund, capture, voided]);

    const [payment, list] = await lines('payments-read-sh');
    expect(payment).toMatchObject({
      id: env.PAYMENT_ID,
      status: 'partially_refunded',
      amountRefunded: '5.00',
      refunds: [{ id: refund.transactionIds[0], amount: '5.00' }],
    });
    expect(list.data.map((p: { id: string }) => p.id)).toEqual([env.PAYMENT_ID]);
  });
});
