/**
 * The dashboard's reads (payment-operations.ts) through the real SOAP endpoint, on every database
 * target: each payment state and filter, the search, pages, another merchant's ids, the service
 * credential refused, a payment's timeline and what may still be done to it, the overview's days
 * and the settlement summary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationResult } from '../../../shared/contract/service.ts';
import { databaseTargets } from '../../../test/kit/databases.ts';
import { ACH_TEST_ACCOUNTS, TEST_CARDS } from '../processor/simulator.ts';
import {
  call,
  card,
  completeChallenge,
  createMerchant,
  type GatewayWorld,
  openWorld,
  pay,
  rawCall,
  SERVICE_KEY,
  type TestMerchant,
} from '../../../test/kit/gateway/gateway-kit.ts';
import { request } from '../../../test/kit/gateway/soap-call.ts';

type Response = OperationResult<'ProcessTransaction'>;
type Filter = Record<string, unknown>;
const DAY = 86_400_000;

describe.each(databaseTargets())('dashboard payment reads ($name)', (target) => {
  let w: GatewayWorld;
  const tx = (fields: Record<string, unknown>, m: TestMerchant = w.a): Promise<Response> =>
    call(w.app, 'ProcessTransaction', pay(m, fields), m.as);
  const list = (filter: Filter = {}, m: TestMerchant = w.a) => call(w.app, 'ListPayments', { filter }, m.as);
  const ids = async (filter: Filter = {}, m: TestMerchant = w.a) =>
    ((await list({ Limit: 100, ...filter }, m)).Payments ?? []).map((p) => p.TransactionID);
  const detail = (id: string, m: TestMerchant = w.a) =>
    call(w.app, 'GetPayment', { transactionID: id }, m.as);
  const follow = (type: string, original: string, amount?: string, m: TestMerchant = w.a) =>
    tx({ TransactionType: type, OriginalTransactionID: original, ...(amount ? { Amount: amount } : {}) }, m);

  /** Merchant a's payments, one in each state. */
  const p = {} as Record<
    | 'approved'
    | 'declined'
    | 'voided'
    | 'refunded'
    | 'partial'
    | 'authorized'
    | 'captured'
    | 'settled'
    | 'ach'
    | 'mastercard',
    string
  >;
  let settlementId: string;

  beforeAll(async () => {
    w = await openWorld(target);
    const sale = async (number: string, amount: string) => (await tx(card(number, amount))).TransactionID!;
    p.approved = await sale(TEST_CARDS.visa, '10.00');
    p.declined = await sale(TEST_CARDS.declined, '11.00');
    p.voided = await sale(TEST_CARDS.visa, '12.00');
    await follow('void', p.voided);
    p.refunded = await sale(TEST_CARDS.visa, '13.00');
    await follow('refund', p.refunded);
    p.partial = await sale(TEST_CARDS.visa, '14.00');
    await follow('refund', p.partial, '4.00');
    p.authorized = (await tx(card(TEST_CARDS.visa, '15.00', { TransactionType: 'auth' }))).TransactionID!;
    p.captured = (await tx(card(TEST_CARDS.visa, '16.00', { TransactionType: 'auth' }))).TransactionID!;
    await follow('capture', p.captured, '16.00');
    p.settled = await sale(TEST_CARDS.visa, '17.00');
    const settled = await call(
      w.app,
      'SettleTransaction',
      { request: { MerchantID: w.a.id, TransactionID: p.settled } },
      w.a.as,
    );
    settlementId = settled.SettlementID!;
    p.ach = (
      await tx({
        IsAchTransaction: true,
        RoutingNumber: '011000015',
        AccountNumber: ACH_TEST_ACCOUNTS.approved,
        AccountType: 'checking',
        Amount: '18.00',
      })
    ).TransactionID!;
    p.mastercard = await sale(TEST_CARDS.mastercard, '19.00');
  });
  afterAll(() => w?.close());

  it('lists each payment in its state, newest first', async () => {
    const page = await list({ Limit: 100 });
    const state = Object.fromEntries(page.Payments!.map((x) => [x.TransactionID, x.State]));
    expect(state).toEqual({
      [p.approved]: 'Approved',
      [p.declined]: 'Declined',
      [p.voided]: 'Voided',
      [p.refunded]: 'Refunded',
      [p.partial]: 'PartiallyRefunded',
      [p.authorized]: 'Authorized',
      [p.captured]: 'Approved',
      [p.settled]: 'Settled',
      [p.ach]: 'Approved',
      [p.mastercard]: 'Approved',
    });
    // Follow-ons are not payments; newest first.
    expect(page.Payments!.map((x) => x.TransactionID)).toEqual(
      [...Object.values(p)].sort((x, y) => Number(BigInt(y) - BigInt(x))),
    );
    expect(page.HasMore).toBe(false);
  });

  it('answers a payment as fields: amounts, method, card, decline reason, batch', async () => {
    const byId = new Map((await list({ Limit: 100 })).Payments!.map((x) => [x.TransactionID, x]));
    expect(byId.get(p.partial)).toMatchObject({
      Kind: 'Sale',
      Amount: '14.00',
      ApprovedAmount: '14.00',
      CapturedAmount: '14.00',
      RefundedAmount: '4.00',
      Currency: 'USD',
      PaymentMethod: 'Card',
      CardBrand: 'Visa',
      Last4: '4242',
      ResponseCode: '00',
    });
    expect(byId.get(p.partial)!.DeclineReason).toBeUndefined();
    expect(byId.get(p.declined)).toMatchObject({
      State: 'Declined',
      ApprovedAmount: '0.00',
      ResponseCode: '05',
      DeclineReason: 'CardDeclined',
    });
    expect(byId.get(p.captured)).toMatchObject({ Kind: 'Authorization', CapturedAmount: '16.00' });
    expect(byId.get(p.authorized)).toMatchObject({ Kind: 'Authorization', CapturedAmount: '0.00' });
    expect(byId.get(p.settled)).toMatchObject({ BatchID: settlementId });
    expect(byId.get(p.ach)).toMatchObject({ PaymentMethod: 'Ach', Last4: '6789' });
    expect(byId.get(p.ach)!.CardBrand).toBeUndefined();
    expect(byId.get(p.mastercard)).toMatchObject({ CardBrand: 'Mastercard', Last4: '4444' });
  });

  it.each([
    ['Approved', ['approved', 'captured', 'ach', 'mastercard']],
    ['Declined', ['declined']],
    ['Refunded', ['refunded', 'partial']],
    ['Voided', ['voided']],
    ['Settled', ['settled']],
  ] as const)('filters by state %s', async (state, names) => {
    expect((await ids({ State: state })).sort()).toEqual(names.map((n) => p[n]).sort());
  });

  it('filters by method and by creation time (from inclusive, before exclusive)', async () => {
    expect(await ids({ PaymentMethod: 'Ach' })).toEqual([p.ach]);
    expect(await ids({ PaymentMethod: 'Card' })).toHaveLength(9);
    const now = Date.now();
    expect(await ids({ CreatedFrom: new Date(now - DAY).toISOString() })).toHaveLength(10);
    expect(await ids({ CreatedFrom: new Date(now + DAY).toISOString() })).toEqual([]);
    expect(await ids({ CreatedBefore: new Date(now - DAY).toISOString() })).toEqual([]);
    const { rows } = await w.db.query<{ at: string }>(
      'select created_at::text as at from transactions where id = $1',
      [p.settled],
    );
    const at = new Date(rows[0]!.at).toISOString();
    expect(await ids({ CreatedFrom: at, CreatedBefore: at })).toEqual([]);
    // Milliseconds of the instant: a payment made within it is at or after it.
    expect(await ids({ CreatedFrom: new Date(Date.parse(at) + 1).toISOString(), Limit: 100 })).not.toContain(
      p.settled,
    );
  });

  it('searches by last four, amount and transaction id', async () => {
    expect((await ids({ Search: '4444' })).sort()).toEqual([p.mastercard]);
    expect(await ids({ Search: '6789' })).toEqual([p.ach]);
    expect(await ids({ Search: '14' })).toEqual([p.partial]);
    expect(await ids({ Search: '14.00' })).toEqual([p.partial]);
    expect(await ids({ Search: p.voided })).toEqual([p.voided]);
    expect(await ids({ Search: 'nothing-like-this' })).toEqual([]);
    // Another merchant's payment is not found by its id either.
    expect(await ids({ Search: p.voided }, w.b)).toEqual([]);
  });

  it('pages newest first with StartingAfter, and a cursor of another merchant is not found', async () => {
    const all = await ids();
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await list({ Limit: 3, ...(after ? { StartingAfter: after } : {}) });
      seen.push(...page.Payments!.map((x) => x.TransactionID));
      if (!page.HasMore) break;
      after = page.Payments!.at(-1)!.TransactionID;
    }
    expect(seen).toEqual(all);
    // A filter holds across pages.
    const first = await list({ State: 'Approved', Limit: 2 });
    expect(first.HasMore).toBe(true);
    const second = await list({
      State: 'Approved',
      Limit: 2,
      StartingAfter: first.Payments![1]!.TransactionID,
    });
    expect([...first.Payments!, ...second.Payments!].map((x) => x.TransactionID)).toEqual(
      await ids({ State: 'Approved' }),
    );
    expect(second.HasMore).toBe(false);
    const foreign = await rawCall(w.app, 'ListPayments', { filter: { StartingAfter: p.approved } }, w.b.as);
    const missing = await rawCall(w.app, 'ListPayments', { filter: { StartingAfter: '999999999' } }, w.b.as);
    expect(foreign.errorCode).toBe('not_found');
    expect([foreign.status, foreign.errorCode, foreign.message]).toEqual([
      missing.status,
      missing.errorCode,
      missing.message,
    ]);
  });

  it('refuses a Limit outside 1–100', async () => {
    for (const Limit of [0, 101]) {
      const fault = await rawCall(w.app, 'ListPayments', { filter: { Limit } }, w.a.as);
      expect([fault.errorCode, fault.message]).toEqual(['invalid_request', 'Limit must be from 1 to 100.']);
    }
  });

  it("answers another merchant's payment exactly as a missing one", async () => {
    const foreign = await rawCall(w.app, 'GetPayment', { transactionID: p.approved }, w.b.as);
    const missing = await rawCall(w.app, 'GetPayment', { transactionID: '999999999' }, w.b.as);
    expect(foreign.errorCode).toBe('not_found');
    expect([foreign.status, foreign.errorCode, foreign.message]).toEqual([
      missing.status,
      missing.errorCode,
      missing.message,
    ]);
    expect(await ids({}, w.b)).toEqual([]);
  });

  it('refuses the service credential', async () => {
    for (const [op, params] of [
      ['ListPayments', { filter: {} }],
      ['GetPayment', { transactionID: p.approved }],
      ['GetPaymentOverview', {}],
      ['GetSettlementSummary', {}],
    ] as const) {
      const fault = await rawCall(w.app, op, params, { service: SERVICE_KEY });
      expect(fault.errorCode, op).toBe('forbidden');
    }
  });

  it('answers what may still be done by the gateway rules: after a partial refund, the rest', async () => {
    const partial = await detail(p.partial);
    expect(partial).toMatchObject({ RefundableAmount: '10.00', CapturableAmount: '0.00', Voidable: false });
    expect(partial.Events!.map((e) => [e.Kind, e.Amount])).toEqual([
      ['Approved', '14.00'],
      ['Refunded', '4.00'],
    ]);
    await follow('refund', p.partial, '10.01').then((r) => expect(r.ResponseCode).toBe('13'));
    expect(await detail(p.approved)).toMatchObject({
      RefundableAmount: '10.00',
      CapturableAmount: '0.00',
      Voidable: true,
    });
    expect(await detail(p.authorized)).toMatchObject({
      RefundableAmount: '0.00',
      CapturableAmount: '15.00',
      Voidable: true,
    });
    expect(await detail(p.refunded)).toMatchObject({ RefundableAmount: '0.00', Voidable: false });
    expect(await detail(p.voided)).toMatchObject({ RefundableAmount: '0.00', Voidable: false });
    expect(await detail(p.declined)).toMatchObject({
      RefundableAmount: '0.00',
      CapturableAmount: '0.00',
      Voidable: false,
    });
    // Settled: refundable, no longer voidable.
    expect(await detail(p.settled)).toMatchObject({ RefundableAmount: '17.00', Voidable: false });
  });

  it('tells each timeline oldest first: declined, voided, captured, settled', async () => {
    const kinds = async (id: string) => (await detail(id)).Events!.map((e) => e.Kind);
    expect(await kinds(p.declined)).toEqual(['Declined']);
    expect((await detail(p.declined)).Events![0]).toMatchObject({
      TransactionID: p.declined,
      ResponseCode: '05',
    });
    expect(await kinds(p.voided)).toEqual(['Approved', 'Voided']);
    expect(await kinds(p.captured)).toEqual(['Approved', 'Captured']);
    expect(await kinds(p.settled)).toEqual(['Approved', 'Settled']);
  });

  it('a paid checkout session: its currency, order, shopper, 3-D Secure and the settled capture', async () => {
    const created = await call(
      w.app,
      'CreateHostedPayment',
      {
        request: {
          MerchantID: w.a.id,
          Amount: '42.00',
          Currency: 'EUR',
          OrderNumber: 'ORD-7731',
          Email: 'ana@shop.example',
          FirstName: 'Ana',
          LastName: 'Lima',
        },
      },
      w.a.as,
    );
    const payWith = (fields: Record<string, unknown>) =>
      call(
        w.app,
        'PayCheckoutSession',
        { token: created.Token, request: request(card(TEST_CARDS.threeDSecure, '42.00', fields)) },
        { service: SERVICE_KEY },
      );
    const asked = await payWith({});
    expect(asked.Outcome).toBe('ChallengeRequired');
    const r = await completeChallenge(w.app, asked.ChallengeUrl!);
    const paid = await payWith({
      CAVV: r.cavv,
      ECI: r.eci,
      XID: r.xid,
      DirectoryServerTransactionId: r.dsTransactionId,
    });
    expect(paid.Outcome).toBe('Approved');
    const id = paid.TransactionID!;
    const d = await detail(id);
    expect(d.Payment).toMatchObject({
      TransactionID: id,
      State: 'Approved',
      Currency: 'EUR',
      OrderNumber: 'ORD-7731',
      CustomerName: 'Ana Lima',
      CustomerEmail: 'ana@shop.example',
      SessionToken: created.Token,
    });
    expect(d.Events!.map((e) => e.Kind)).toEqual(['SessionCreated', 'ThreeDSecure', 'Approved']);
    // Found by its order number, whatever the case, and by a beginning of it.
    expect(await ids({ Search: 'ord-7731' })).toEqual([id]);
    expect(await ids({ Search: 'ORD-77' })).toEqual([id]);
    // Another payment, made without 3-D Secure, has no such event.
    expect((await detail(p.approved)).Events!.map((e) => e.Kind)).toEqual(['Approved']);
  });

  it('an authorisation captured and settled: Settled, its capture refundable on the capture', async () => {
    const auth = (await tx(card(TEST_CARDS.visa, '30.00', { TransactionType: 'auth' }))).TransactionID!;
    const capture = (await follow('capture', auth, '20.00')).TransactionID!;
    await call(
      w.app,
      'SettleTransaction',
      { request: { MerchantID: w.a.id, TransactionID: capture } },
      w.a.as,
    );
    const d = await detail(auth);
    expect(d.Payment).toMatchObject({ State: 'Settled', CapturedAmount: '20.00' });
    // A refund of the authorisation goes to its capture, with what the capture has left.
    expect(d).toMatchObject({
      CapturableAmount: '10.00',
      RefundableAmount: '20.00',
      RefundTransactionID: capture,
    });
    expect(d.Events!.map((e) => e.Kind)).toEqual(['Approved', 'Captured', 'Settled']);
    await follow('refund', d.RefundTransactionID!, '5.00');
    expect(await detail(auth)).toMatchObject({ RefundableAmount: '15.00', RefundTransactionID: capture });
    await follow('refund', capture, '15.00');
    const refunded = await detail(auth);
    expect(refunded.Payment).toMatchObject({ State: 'Refunded', RefundedAmount: '20.00' });
    expect(refunded.RefundableAmount).toBe('0.00');
    expect(refunded.RefundTransactionID).toBeUndefined();
  });
});

describe.each(databaseTargets())('dashboard figures ($name)', (target) => {
  let w: GatewayWorld;
  let c: TestMerchant;
  const tx = (fields: Record<string, unknown>): Promise<Response> =>
    call(w.app, 'ProcessTransaction', pay(c, fields), c.as);
  const ago = (id: string, days: number) =>
    w.db.query(`update transactions set created_at = created_at - $2 * interval '1 day' where id = $1`, [
      id,
      days,
    ]);

  beforeAll(async () => {
    w = await openWorld(target);
    c = await createMerchant(w.t, w.db, 'Charlie Crafts', false);
  });
  afterAll(() => w?.close());

  it('counts each UTC day of the last 30, today last: sales and captures, approvals, declines', async () => {
    await tx(card(TEST_CARDS.visa, '10.00'));
    await tx(card(TEST_CARDS.declined, '99.00'));
    const auth = (await tx(card(TEST_CARDS.visa, '5.00', { TransactionType: 'auth' }))).TransactionID!;
    await tx({ TransactionType: 'capture', OriginalTransactionID: auth, Amount: '3.00' });
    const voided = (await tx(card(TEST_CARDS.visa, '50.00'))).TransactionID!;
    await tx({ TransactionType: 'void', OriginalTransactionID: voided });
    const refunded = (await tx(card(TEST_CARDS.visa, '7.00'))).TransactionID!;
    await tx({ TransactionType: 'refund', OriginalTransactionID: refunded });
    await ago((await tx(card(TEST_CARDS.visa, '2.50'))).TransactionID!, 2);
    await ago((await tx(card(TEST_CARDS.visa, '1.00'))).TransactionID!, 29);
    await ago((await tx(card(TEST_CARDS.visa, '1000.00'))).TransactionID!, 30);

    const overview = await call(w.app, 'GetPaymentOverview', {}, c.as);
    const days = overview.Days!;
    const now = w.t.gateway.deps.now();
    const day = (n: number) => new Date(now.getTime() - n * DAY).toISOString().slice(0, 10);
    expect(days).toHaveLength(30);
    expect(days.map((d) => d.Date)).toEqual(Array.from({ length: 30 }, (_, i) => day(29 - i)));
    // Today: 10.00 + the 3.00 capture + the 7.00 refunded later (refunds are not taken off); the
    // voided sale took nothing; the auth counts as approved, not as volume.
    expect(overview.Today).toEqual({ Date: day(0), Volume: '20.00', Approved: 4, Declined: 1 });
    expect(days.at(-1)).toEqual(overview.Today);
    expect(days.at(-3)).toEqual({ Date: day(2), Volume: '2.50', Approved: 1, Declined: 0 });
    expect(days[0]).toEqual({ Date: day(29), Volume: '1.00', Approved: 1, Declined: 0 });
    expect(days.filter((d) => d.Volume !== '0.00')).toHaveLength(3);
    // Another merchant's days are empty.
    const other = await call(w.app, 'GetPaymentOverview', {}, w.b.as);
    expect(other.Days!.every((d) => d.Volume === '0.00' && d.Approved === 0 && d.Declined === 0)).toBe(true);
    expect(other).toMatchObject({ Currency: 'USD', Currencies: [] });
  });

  it('sums what awaits settlement as SettleTransaction settles it, and lists the batches newest first', async () => {
    const before = await call(w.app, 'GetSettlementSummary', {}, c.as);
    // Sales 10.00, 7.00, 2.50, 1.00, 1000.00 and the 3.00 capture, less the 7.00 refund.
    expect(before).toMatchObject({
      PendingCount: 7,
      PendingTotals: [{ Currency: 'USD', Amount: '1016.50' }],
    });
    expect(before.Batches ?? []).toEqual([]);
    const settled = await call(w.app, 'SettleTransaction', { request: { MerchantID: c.id } }, c.as);
    expect(settled.ResponseMessage).toBe('Settled 7 transactions, net 1016.50.');
    await tx(card(TEST_CARDS.visa, '4.00'));
    const second = await call(w.app, 'SettleTransaction', { request: { MerchantID: c.id } }, c.as);
    await tx(card(TEST_CARDS.visa, '6.00'));
    const after = await call(w.app, 'GetSettlementSummary', {}, c.as);
    expect(after).toMatchObject({ PendingCount: 1, PendingTotals: [{ Currency: 'USD', Amount: '6.00' }] });
    const usd = (b: { Totals?: { Currency?: string | null; Amount: string }[] | null }) =>
      b.Totals?.map((t) => `${t.Amount} ${t.Currency}`).join(', ');
    expect(after.Batches!.map((b) => [b.BatchID, b.TransactionCount, usd(b)])).toEqual([
      [second.SettlementID, 1, '4.00 USD'],
      [settled.SettlementID, 7, '1016.50 USD'],
    ]);
    expect(Date.parse(after.Batches![0]!.SettledAt)).toBeGreaterThanOrEqual(
      Date.parse(after.Batches![1]!.SettledAt),
    );
    const none = await call(w.app, 'GetSettlementSummary', {}, w.b.as);
    expect(none.PendingCount).toBe(0);
    expect(none.PendingTotals ?? []).toEqual([]);
  });

  it('never adds currencies together: the figures of one currency, the most used by default', async () => {
    const before = await call(w.app, 'GetPaymentOverview', {}, c.as);
    const created = await call(
      w.app,
      'CreateHostedPayment',
      { request: { MerchantID: c.id, Amount: '8.00', Currency: 'EUR', OrderNumber: 'EUR-1' } },
      c.as,
    );
    const paid = await call(
      w.app,
      'PayCheckoutSession',
      { token: created.Token, request: request(card(TEST_CARDS.visa, '8.00')) },
      { service: SERVICE_KEY },
    );
    expect(paid.Outcome).toBe('Approved');
    const usd = await call(w.app, 'GetPaymentOverview', {}, c.as);
    expect(usd).toMatchObject({ Currency: 'USD', Currencies: ['USD', 'EUR'] });
    expect(usd.Today).toEqual(before.Today); // the euros are not in the dollars' figures
    const eur = await call(w.app, 'GetPaymentOverview', { currency: 'eur' }, c.as);
    expect(eur).toMatchObject({ Currency: 'EUR', Currencies: ['USD', 'EUR'] });
    expect(eur.Today).toMatchObject({ Volume: '8.00', Approved: 1, Declined: 0 });
    const bad = await rawCall(w.app, 'GetPaymentOverview', { currency: 'euro' }, c.as, '192.0.2.44');
    expect(bad.errorCode).toBe('invalid_request');

    // What awaits settlement, and the batch that settles it, per currency.
    const pending = await call(w.app, 'GetSettlementSummary', {}, c.as);
    expect(pending.PendingTotals).toEqual([
      { Currency: 'EUR', Amount: '8.00' },
      { Currency: 'USD', Amount: '6.00' },
    ]);
    await call(w.app, 'SettleTransaction', { request: { MerchantID: c.id } }, c.as);
    const [batch] = (await call(w.app, 'GetSettlementSummary', {}, c.as)).Batches!;
    expect(batch).toMatchObject({
      TransactionCount: 2,
      Totals: [
        { Currency: 'EUR', Amount: '8.00' },
        { Currency: 'USD', Amount: '6.00' },
      ],
    });
  });
});
