/**
 * `GET /v1/checkout-sessions` (issue 14 §11): the merchant's own sessions, newest first, a page at a
 * time, through the real app on every database target, in both wirings: the gateway in process, and
 * a gateway app of its own reached over real SOAP (ListCheckoutSessions) with the merchant's
 * credential, as in remote-port.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/kit/app.ts';
import {
  addMerchant,
  type CheckoutWorld,
  cardBody,
  createSession,
  openCheckoutWorld,
  pay,
  type WorldMerchant,
  openRemoteCheckoutWorld,
  wiringCases,
} from '../../test/kit/checkout/checkout-world.ts';

const cases = wiringCases();

describe.each(cases)('listing checkout sessions ($name)', ({ target, wiring }) => {
  let w: CheckoutWorld;
  /** The app that owns the gateway (and so its merchants). */
  let gatewayApp: TestApp;
  let soapCalls: string[] = [];
  let n = 0;

  beforeAll(async () => {
    const db = await target.open();
    if (wiring === 'in process') {
      w = await openCheckoutWorld(db);
      gatewayApp = w.t;
      return;
    }
    const remote = await openRemoteCheckoutWorld(db, 'Remote Outfitters');
    gatewayApp = remote.gateway;
    soapCalls = remote.soapCalls;
    w = remote;
  });
  afterAll(async () => {
    await w?.close(); // closes the database (and the gateway's app) too
  });

  const newMerchant = () => addMerchant(gatewayApp, w.db, `Lister ${++n}`);
  const list = (merchant: WorldMerchant, query = '') =>
    w.app.inject({
      method: 'GET',
      url: `/v1/checkout-sessions${query}`,
      headers: { authorization: merchant.authorization },
    });
  const read = async (merchant: WorldMerchant, token: string) =>
    (
      await w.app.inject({
        method: 'GET',
        url: `/v1/checkout-sessions/${token}`,
        headers: { authorization: merchant.authorization },
      })
    ).json();
  const make = (merchant: WorldMerchant, overrides: Record<string, unknown> = {}) =>
    createSession(w, overrides, merchant);
  /** Every page of `query`, `limit` at a time, following startingAfter. */
  async function walk(merchant: WorldMerchant, query: string, limit: number) {
    const tokens: string[] = [];
    const pages: { size: number; hasMore: boolean }[] = [];
    let after = '';
    for (;;) {
      const res = await list(merchant, `?limit=${limit}${query}${after && `&startingAfter=${after}`}`);
      expect(res.statusCode).toBe(200);
      const body = res.json() as { data: { token: string }[]; hasMore: boolean };
      pages.push({ size: body.data.length, hasMore: body.hasMore });
      tokens.push(...body.data.map((s) => s.token));
      if (!body.hasMore) return { tokens, pages };
      after = body.data.at(-1)!.token;
    }
  }

  it('lists newest first, each item as the session read answers it, 10 by default', async () => {
    const m = await newMerchant();
    const made: string[] = [];
    for (let i = 0; i < 12; i++) made.push(await make(m, { orderNumber: `ORD-${i}` }));
    const res = await list(m);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.hasMore).toBe(true);
    expect(body.data.map((s: { token: string }) => s.token)).toEqual(made.slice(2).reverse());
    expect(body.data[0]).toEqual(await read(m, made[11]!));
    expect(body.data[0]).toMatchObject({
      status: 'open',
      amount: '24.99',
      currency: 'USD',
      orderNumber: 'ORD-11',
    });
    if (wiring === 'over SOAP') expect(soapCalls).toContain('ListCheckoutSessions');
  });

  it('walks every page once: no session twice, none missed, in order, while another merchant makes sessions', async () => {
    const m = await newMerchant();
    const other = await newMerchant();
    const made: string[] = [];
    for (let i = 0; i < 23; i++) {
      made.push(await make(m, { orderNumber: `P-${i}` }));
      if (i % 4 === 0) await make(other, { orderNumber: `P-${i}` });
    }
    const { tokens, pages } = await walk(m, '', 5);
    expect(tokens).toEqual([...made].reverse());
    expect(pages.map((p) => p.size)).toEqual([5, 5, 5, 5, 3]);
    // A page that ends exactly at the last session says so.
    const exact = await walk(m, '', 23);
    expect(exact.pages).toEqual([{ size: 23, hasMore: false }]);
    expect((await list(m, '?limit=100')).json().data).toHaveLength(23);
  });

  it('filters by status (as the session read answers it) and by order number, across pages', async () => {
    const m = await newMerchant();
    const paid = await make(m, { orderNumber: 'F-paid' });
    expect((await pay(w.app, paid, cardBody())).json().status).toBe('succeeded');
    const canceled = await make(m, { orderNumber: 'F-1' });
    const cancel = await w.app.inject({
      method: 'POST',
      url: `/v1/checkout-sessions/${canceled}/cancel`,
      headers: { authorization: m.authorization },
    });
    expect(cancel.statusCode).toBe(200);
    // Past its time but not yet swept: the read says expired, and so does the filter.
    const lapsed = await make(m, { orderNumber: 'F-1' });
    await w.db.query(
      "update checkout_sessions set expires_at = now() - interval '1 minute' where token = $1",
      [lapsed],
    );
    const swept = await make(m, { orderNumber: 'F-2' });
    await w.db.query("update checkout_sessions set status = 'expired' where token = $1", [swept]);
    const open = [await make(m, { orderNumber: 'F-1' }), await make(m, { orderNumber: 'F-2' })];
    expect((await read(m, lapsed)).status).toBe('expired');

    const tokensOf = async (query: string) => (await walk(m, query, 1)).tokens;
    expect(await tokensOf('&status=open')).toEqual([...open].reverse());
    expect(await tokensOf('&status=expired')).toEqual([swept, lapsed]);
    expect(await tokensOf('&status=paid')).toEqual([paid]);
    expect(await tokensOf('&status=canceled')).toEqual([canceled]);
    expect(await tokensOf('&orderNumber=F-1')).toEqual([open[0], lapsed, canceled]);
    expect(await tokensOf('&orderNumber=F-1&status=open')).toEqual([open[0]]);
    expect(await tokensOf('&orderNumber=F-')).toEqual([]);
    const items = (await list(m, '?status=paid')).json().data;
    expect(items[0]).toEqual(await read(m, paid));
    expect(items[0]).toMatchObject({ status: 'paid', transactionId: expect.any(String) });
  });

  it("never lists another merchant's sessions, nor starts after one of them", async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    const mine = await make(a, { orderNumber: 'SHARED-1' });
    const theirs = await make(b, { orderNumber: 'SHARED-1' });
    expect((await walk(a, '', 100)).tokens).toEqual([mine]);
    expect((await walk(b, '&orderNumber=SHARED-1', 100)).tokens).toEqual([theirs]);
    for (const token of [theirs, `cs_${'A'.repeat(43)}`]) {
      const res = await list(a, `?startingAfter=${token}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields).toEqual([expect.objectContaining({ field: 'startingAfter' })]);
    }
    // A merchant with no session lists nothing.
    expect((await list(await newMerchant())).json()).toEqual({ data: [], hasMore: false });
  });

  it('refuses a bad parameter with 400 naming it, and a bad credential with 401', async () => {
    const m = await newMerchant();
    const bad: [string, string][] = [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=ten', 'limit'],
      ['?limit=1.5', 'limit'],
      ['?limit=-1', 'limit'],
      ['?limit=1&limit=2', 'limit'],
      ['?status=succeeded', 'status'],
      ['?status=Open', 'status'],
      ['?startingAfter=nope', 'startingAfter'],
      ['?orderNumber=', 'orderNumber'],
      ['?orderNumber=' + 'x'.repeat(65), 'orderNumber'],
      ['?order=A-1', 'order'],
    ];
    for (const [query, field] of bad) {
      const res = await list(m, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code, query).toBe('validation_failed');
      expect(
        res.json().error.fields.map((f: { field: string }) => f.field),
        query,
      ).toEqual([field]);
    }
    const none = await w.app.inject({ method: 'GET', url: '/v1/checkout-sessions' });
    expect(none.statusCode).toBe(401);
    const wrong = await list({
      ...m,
      authorization: `Basic ${Buffer.from(`${m.id}:wrong`).toString('base64')}`,
    });
    expect(wrong.statusCode).toBe(401);
  });

  it('is in the OpenAPI document, its parameters from the schema that checks them', async () => {
    const doc = (await w.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const get = doc.paths['/v1/checkout-sessions'].get;
    expect(get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
      'query:orderNumber',
      'query:status',
      'query:limit',
      'query:startingAfter',
    ]);
    expect(get.parameters[1].schema.enum).toEqual(['open', 'paid', 'expired', 'canceled']);
    expect(get.responses[200].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/CheckoutSessionList',
    );
    expect(doc.components.schemas.CheckoutSessionList.required).toEqual(['data', 'hasMore']);
  });

  it('ListCheckoutSessions itself: a merchant credential only, limit 1 to 100, 10 when absent', async () => {
    const m = await newMerchant();
    for (let i = 0; i < 11; i++) await make(m);
    const { port, contexts } = w.checkout.deps;
    const origin = { requestId: 'list-test', remoteAddress: '127.0.0.1', log: w.app.log };
    const asMerchant = contexts.merchant(origin, m.authorization);
    const page = await port.ListCheckoutSessions({}, asMerchant);
    expect(page.Sessions).toHaveLength(10);
    expect(page.HasMore).toBe(true);
    for (const limit of [0, 101, -1]) {
      await expect(port.ListCheckoutSessions({ limit }, asMerchant)).rejects.toMatchObject({
        code: 'invalid_request',
      });
    }
    // The checkout server has no merchant to list for.
    await expect(port.ListCheckoutSessions({}, contexts.service(origin))).rejects.toMatchObject({
      code: 'forbidden',
    });
  });
});
