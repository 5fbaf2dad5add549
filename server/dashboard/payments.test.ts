/**
 * The dashboard's payments (issue 15 "Payments"; API tests), through the real app on both
 * databases: a user sees its own merchant's payments only (another merchant's id is 404), refunds
 * part and then the rest, voids, captures, settles; the CSV export pages through everything with
 * the same filters and defuses formulas; a payment paid through a checkout session shows its
 * webhook deliveries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, cardBody, pay, sessionBody } from '../../test/kit/checkout/checkout-world.ts';
import { call, card, pay as payRequest, type TestMerchant } from '../../test/kit/gateway/gateway-kit.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { CSV_COLUMNS, CSV_PAGE_SIZE } from './payments-csv.ts';
import { type DashboardWorld, openDashboardWorld } from '../../test/kit/dashboard/dashboard-world.ts';

describe.each(databaseTargets())('dashboard payments on $name', (target) => {
  let w: DashboardWorld;
  let ann: string;
  let bob: string;

  /** A card sale (or authorisation) of the merchant over SOAP, as its shop would make it: its id. */
  async function charge(
    m: TestMerchant,
    amount: string,
    fields: Record<string, unknown> = {},
  ): Promise<string> {
    const r = await call(
      w.t.app,
      'ProcessTransaction',
      payRequest(m, card('4242424242424242', amount, fields)),
      m.as,
    );
    expect(r.ResponseCode).toBe('00');
    return r.TransactionID;
  }

  beforeAll(async () => {
    w = await openDashboardWorld(target);
    ann = await w.signInVerified(w.users.ann);
    bob = await w.signInVerified(w.users.bob);
  });
  afterAll(() => w.close());

  it("shows a card payment's address check: the processor's AVS letter, absent when the address was not checked", async () => {
    const checked = await charge(w.a, '3.21', { Zip: '94105' });
    const detail = await w.call('GET', `/payments/${checked}`, { cookie: ann });
    expect(detail.json().payment).toMatchObject({ id: checked, avs: 'Y' });
    // Not checked: what the checkout records when the merchant does not ask for the postal code.
    const unchecked = await charge(w.a, '3.22');
    await w.db.query('update transactions set avs_code = null where id = $1', [unchecked]);
    const plain = (await w.call('GET', `/payments/${unchecked}`, { cookie: ann })).json().payment;
    expect(plain.id).toBe(unchecked);
    expect(plain).not.toHaveProperty('avs');
  });

  it("lists the user's own merchant's payments, newest first; another merchant's id is 404", async () => {
    const mine = await charge(w.a, '12.34', { CardName: 'Ada Lovelace' });
    const theirs = await charge(w.b, '56.78');
    const res = await w.call('GET', '/payments', { cookie: ann });
    expect(res.statusCode).toBe(200);
    const { payments, hasMore } = res.json();
    expect(hasMore).toBe(false);
    expect(payments.map((p: { id: string }) => p.id)).toContain(mine);
    expect(payments.map((p: { id: string }) => p.id)).not.toContain(theirs);
    expect(payments[0]).toMatchObject({
      id: mine,
      kind: 'Sale',
      state: 'Approved',
      amount: '12.34',
      approvedAmount: '12.34',
      refundedAmount: '0.00',
      method: 'Card',
      last4: '4242',
      customerName: 'Ada Lovelace',
    });
    expect(payments[0].createdAt).toBe(new Date(payments[0].createdAt).toISOString());

    for (const [method, path, body] of [
      ['GET', `/payments/${theirs}`, undefined],
      ['POST', `/payments/${theirs}/refund`, { amount: '1.00' }],
      ['POST', `/payments/${theirs}/void`, {}],
      ['POST', `/payments/${theirs}/capture`, {}],
      ['GET', '/payments/999999999999', undefined],
    ] as const) {
      const r = await w.call(method, path, { cookie: ann, body });
      expect(r.statusCode, `${method} ${path}`).toBe(404);
      expect(r.json().error.code).toBe('not_found');
    }
    // Bob's own payment is untouched by Ann's attempts.
    const detail = await w.call('GET', `/payments/${theirs}`, { cookie: bob });
    expect(detail.json()).toMatchObject({
      payment: { state: 'Approved' },
      refundable: '56.78',
      voidable: true,
    });
  });

  it('filters by state, method, day and search', async () => {
    const id = await charge(w.a, '77.07');
    const today = w.clock.now.toISOString().slice(0, 10);
    const ids = async (query: string) =>
      (await w.call('GET', `/payments?${query}`, { cookie: ann }))
        .json()
        .payments.map((p: { id: string }) => p.id);
    expect(await ids(`q=77.07`)).toEqual([id]);
    expect(await ids(`q=${id}`)).toEqual([id]);
    expect(await ids(`from=${today}&to=${today}&method=Card&state=Approved`)).toContain(id);
    expect(await ids(`method=Ach`)).not.toContain(id);
    expect(await ids(`to=2000-01-01`)).toEqual([]);
    const bad = await w.call('GET', '/payments?from=yesterday&state=Lost', { cookie: ann });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .error.fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(['from', 'state']);
  });

  it('refunds part, then the rest; never more than remains', async () => {
    const id = await charge(w.a, '20.00');
    const partial = await w.call('POST', `/payments/${id}/refund`, { cookie: ann, body: { amount: '5.00' } });
    expect(partial.statusCode).toBe(200);
    expect(partial.json()).toMatchObject({ approved: true, responseCode: '00' });
    expect(partial.json().transactionId).toMatch(/^\d+$/);
    let detail = (await w.call('GET', `/payments/${id}`, { cookie: ann })).json();
    expect(detail).toMatchObject({
      payment: { state: 'PartiallyRefunded', refundedAmount: '5.00' },
      refundable: '15.00',
    });
    expect(detail.events.map((e: { kind: string }) => e.kind)).toEqual(['Approved', 'Refunded']);

    const tooMuch = await w.call('POST', `/payments/${id}/refund`, {
      cookie: ann,
      body: { amount: '15.01' },
    });
    expect(tooMuch.json()).toMatchObject({ approved: false, responseCode: '13' });
    expect(tooMuch.json().transactionId).toBeUndefined();
    const rest = await w.call('POST', `/payments/${id}/refund`, { cookie: ann, body: { amount: '15.00' } });
    expect(rest.json().approved).toBe(true);
    detail = (await w.call('GET', `/payments/${id}`, { cookie: ann })).json();
    expect(detail).toMatchObject({
      payment: { state: 'Refunded', refundedAmount: '20.00' },
      refundable: '0.00',
    });

    const noAmount = await w.call('POST', `/payments/${id}/refund`, { cookie: ann, body: {} });
    expect(noAmount.statusCode).toBe(400);
    expect(noAmount.json().error.fields[0].field).toBe('amount');
  });

  it('voids an unsettled sale', async () => {
    const id = await charge(w.a, '9.99');
    const res = await w.call('POST', `/payments/${id}/void`, { cookie: ann });
    expect(res.json()).toMatchObject({ approved: true, responseCode: '00' });
    const detail = (await w.call('GET', `/payments/${id}`, { cookie: ann })).json();
    expect(detail).toMatchObject({ payment: { state: 'Voided' }, voidable: false, refundable: '0.00' });
    const again = await w.call('POST', `/payments/${id}/void`, { cookie: ann });
    expect(again.json()).toMatchObject({ approved: false, responseCode: '12' });
  });

  it('captures an authorisation in part, then what remains', async () => {
    const id = await charge(w.a, '30.00', { TransactionType: 'auth' });
    let detail = (await w.call('GET', `/payments/${id}`, { cookie: ann })).json();
    expect(detail).toMatchObject({
      payment: { kind: 'Authorization', state: 'Authorized' },
      capturable: '30.00',
    });
    const part = await w.call('POST', `/payments/${id}/capture`, { cookie: ann, body: { amount: '10.00' } });
    expect(part.json()).toMatchObject({ approved: true });
    const rest = await w.call('POST', `/payments/${id}/capture`, { cookie: ann, body: {} });
    expect(rest.json()).toMatchObject({ approved: true });
    detail = (await w.call('GET', `/payments/${id}`, { cookie: ann })).json();
    expect(detail).toMatchObject({ payment: { capturedAmount: '30.00' }, capturable: '0.00' });

    // Refunded from the authorisation's page: the gateway's refund goes to its newest capture.
    const refund = await w.call('POST', `/payments/${id}/refund`, { cookie: ann, body: { amount: '4.00' } });
    expect(refund.json()).toMatchObject({ approved: true, responseCode: '00' });
    detail = (await w.call('GET', `/payments/${id}`, { cookie: ann })).json();
    expect(detail.events.map((e: { kind: string }) => e.kind)).toContain('Refunded');
    expect(detail.refundable).toBe('16.00');
  });

  it('settles what is pending and lists the batch', async () => {
    await charge(w.a, '1.00');
    const before = (await w.call('GET', '/settlement', { cookie: ann })).json();
    expect(before.pendingCount).toBeGreaterThan(0);
    const settled = await w.call('POST', '/settlement/settle', { cookie: ann });
    expect(settled.statusCode).toBe(200);
    expect(settled.json()).toEqual({
      batchId: expect.stringMatching(/^\d+$/),
      count: before.pendingCount,
      totals: before.pendingTotals,
    });
    expect(before.pendingTotals).toEqual([
      { currency: 'USD', amount: expect.stringMatching(/^\d+\.\d{2}$/) },
    ]);
    const after = (await w.call('GET', '/settlement', { cookie: ann })).json();
    expect(after).toMatchObject({ pendingCount: 0, pendingTotals: [] });
    expect(after.batches[0]).toMatchObject({ id: settled.json().batchId, count: before.pendingCount });
    // Nothing left: an answer, not an error.
    expect((await w.call('POST', '/settlement/settle', { cookie: ann })).json()).toEqual({
      count: 0,
      totals: [],
    });
  });

  it("shows today's volume in the overview", async () => {
    const res = await w.call('GET', '/overview', { cookie: ann });
    expect(res.statusCode).toBe(200);
    const { today, days } = res.json();
    expect(days).toHaveLength(30);
    expect(today.date).toBe(w.clock.now.toISOString().slice(0, 10));
    expect(today.approved).toBeGreaterThan(0);
    expect(today.volume).toMatch(/^\d+\.\d{2}$/);
    expect(res.json()).toMatchObject({ currency: 'USD', currencies: ['USD'] });
    const euros = (await w.call('GET', '/overview?currency=EUR', { cookie: ann })).json();
    expect(euros).toMatchObject({ currency: 'EUR', today: { volume: '0.00', approved: 0 } });
    expect((await w.call('GET', '/overview?currency=euro', { cookie: ann })).statusCode).toBe(400);
  });

  it('exports every page as CSV, with formulas defused and text quoted', async () => {
    // Bob's merchant: more payments than one page of the export.
    for (let i = 0; i < CSV_PAGE_SIZE + 2; i++) await charge(w.b, `${i + 1}.00`);
    await charge(w.b, '3.50', { CardName: '=HYPERLINK("http://evil.example","Ada, Inc")' });
    const res = await w.call('GET', '/payments/export.csv', { cookie: bob });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="payments.csv"');
    const lines = res.body.split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe(CSV_COLUMNS.map(([header]) => header).join(','));
    const rows = lines.slice(1, -1);
    // Every payment of Bob's merchant (the one of the first test too), none of Ann's.
    expect(rows).toHaveLength(CSV_PAGE_SIZE + 4);
    expect(rows[0]).toContain(`,"'=HYPERLINK(""http://evil.example"",""Ada, Inc"")",`);
    expect(rows[0]).toMatch(/^\d+,\d{4}-\d\d-\d\dT[\d:.]+Z,Sale,Approved,3\.50,3\.50,3\.50,0\.00,USD,Card,/);
    // The same filters as the list.
    const filtered = await w.call('GET', '/payments/export.csv?q=3.50', { cookie: bob });
    expect(filtered.body.split('\r\n').slice(1, -1)).toEqual([rows[0]]);
  });

  it('shows the webhook deliveries of a payment made through a checkout session', async () => {
    const created = await w.t.app.inject({
      method: 'POST',
      url: '/v1/checkout-sessions',
      headers: { authorization: basicAuth(w.a.id, w.a.key) },
      payload: sessionBody({ webhookUrl: 'http://127.0.0.1:9/hooks' }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const token = created.json().token;
    const paid = await pay(w.t.app, token, cardBody());
    expect(paid.statusCode, paid.body).toBe(200);
    const id = (await w.call('GET', `/payments?q=${sessionBody().orderNumber}`, { cookie: ann })).json()
      .payments[0].id;
    const detail = (await w.call('GET', `/payments/${id}`, { cookie: ann })).json();
    expect(detail.payment).toMatchObject({ orderNumber: 'A-1001', customerEmail: 'ada@example.com' });
    expect(detail.webhooks).toEqual([
      {
        event: 'payment.succeeded',
        status: 'pending',
        attempts: 0,
        createdAt: expect.any(String),
        nextAttemptAt: expect.any(String),
      },
    ]);
    // Bob sees neither the payment nor its deliveries.
    expect((await w.call('GET', `/payments/${id}`, { cookie: bob })).statusCode).toBe(404);
  });
});
