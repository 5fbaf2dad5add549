/**
 * Payment profiles through the real SOAP endpoint, on every database target
 * (docs/gateway-profiles-invoices.md): ResultCodes, masking, update/delete semantics, another
 * merchant's profile is NotFound, and the PAN never in the clear in answers, tables or logs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../../test/kit/databases.ts';
import { TEST_CARDS } from '../processor/simulator.ts';
import {
  type GatewayWorld,
  openWorld,
  rawCall,
  SERVICE_KEY,
  type TestMerchant,
} from '../../../test/kit/gateway/gateway-kit.ts';
import { soapCall } from '../../../test/kit/gateway/soap-call.ts';

const YEAR = new Date().getUTCFullYear() + 2;
const PANS = [TEST_CARDS.visa, TEST_CARDS.mastercard, TEST_CARDS.amex, TEST_CARDS.declined];

describe.each(databaseTargets())('payment profiles ($name)', (target) => {
  let w: GatewayWorld;
  let nextCustomer = 1000;
  const bodies: string[] = [];

  beforeAll(async () => {
    w = await openWorld(target);
  });
  afterAll(() => w?.close());

  const profileRequest = (m: TestMerchant, fields: Record<string, unknown>) => ({
    paymentProfileRequest: {
      CustomerId: '1',
      MerchantId: m.id,
      CardNumber: TEST_CARDS.visa,
      NameOnCard: 'Jo Doe',
      CardExpirationMonth: 12,
      CardExpirationYear: YEAR,
      ...fields,
    },
  });
  /** Calls a profile operation as `m` and keeps the raw SOAP body for the PAN check. */
  const op = async (
    name: 'CreatePaymentProfile' | 'UpdatePaymentProfile' | 'DelelePaymentProfile',
    fields: Record<string, unknown>,
    m: TestMerchant = w.a,
  ) => {
    const reply = await soapCall(w.app, name, profileRequest(m, fields), m.as);
    bodies.push(reply.body);
    expect(reply.status).toBe(200);
    return reply.result as { PaymentProfileId?: string; ResultCode: string; Message: string };
  };
  const get = async (CustomerId: string, PaymentProfileId: string | undefined, m: TestMerchant = w.a) => {
    const reply = await soapCall(
      w.app,
      'GetCustomerPaymentProfile',
      { customerProfileRequest: { MerchantId: m.id, CustomerId, PaymentProfileId } },
      m.as,
    );
    bodies.push(reply.body);
    expect(reply.status).toBe(200);
    return reply.result as Record<string, string>;
  };
  const list = async (customerID: string, m: TestMerchant = w.a) => {
    const reply = await soapCall(
      w.app,
      'GetCustomerPaymentProfileList',
      { customerID, merchantID: m.id },
      m.as,
    );
    bodies.push(reply.body);
    expect(reply.status).toBe(200);
    return reply.result as Record<string, string>[];
  };
  const customer = () => String(nextCustomer++);

  it('CreatePaymentProfile stores the card; Get answers it masked, with expiry, name and type', async () => {
    const c = customer();
    const created = await op('CreatePaymentProfile', { CustomerId: c, CardType: 'ignored' });
    expect(created).toMatchObject({ ResultCode: 'Ok', Message: 'Payment profile created.' });
    expect(created.PaymentProfileId).toMatch(/^pp_[a-z]{24}$/);
    expect(await get(c, created.PaymentProfileId)).toEqual({
      CustomerId: c,
      ResultCode: 'Ok',
      Message: 'Payment profile found.',
      PaymentProfileId: created.PaymentProfileId,
      CardNumber: '424242******4242',
      NameOnCard: 'Jo Doe',
      CardExpirationMonth: '12',
      CardExpirationYear: String(YEAR),
      CardType: 'Visa',
    });
    const amex = await op('CreatePaymentProfile', {
      CustomerId: c,
      CardNumber: TEST_CARDS.amex,
      CardExpirationMonth: 3,
      CardExpirationYear: YEAR % 100,
      NameOnCard: undefined,
    });
    expect(await get(c, amex.PaymentProfileId)).toMatchObject({
      CardNumber: '378282*****0005',
      CardExpirationMonth: '03',
      CardExpirationYear: String(YEAR),
      CardType: 'American Express',
    });
  });

  it('refuses an invalid card number, an invalid expiry and an expired card, storing nothing', async () => {
    const c = customer();
    const before = await w.db.query<{ n: string }>('select count(*) as n from cards');
    expect(await op('CreatePaymentProfile', { CustomerId: c, CardNumber: '4242424242424241' })).toMatchObject(
      {
        ResultCode: 'InvalidCard',
      },
    );
    expect(await op('CreatePaymentProfile', { CustomerId: c, CardNumber: '0' })).toMatchObject({
      ResultCode: 'InvalidCard',
    });
    expect(
      await op('CreatePaymentProfile', { CustomerId: c, CardNumber: '-4242424242424242' }),
    ).toMatchObject({
      ResultCode: 'InvalidCard',
    });
    expect(await op('CreatePaymentProfile', { CustomerId: c, CardExpirationMonth: 13 })).toMatchObject({
      ResultCode: 'InvalidExpiry',
    });
    expect(await op('CreatePaymentProfile', { CustomerId: c, CardExpirationYear: YEAR + 40 })).toMatchObject({
      ResultCode: 'InvalidExpiry',
    });
    const expired = await op('CreatePaymentProfile', {
      CustomerId: c,
      CardExpirationMonth: 1,
      CardExpirationYear: 2020,
    });
    expect(expired).toEqual({
      ResultCode: 'Expired',
      Message: 'The card has expired: its expiry month is over.',
    });
    expect(await op('CreatePaymentProfile', { CustomerId: '0' })).toMatchObject({
      ResultCode: 'InvalidRequest',
    });
    expect(await list(c)).toEqual([]);
    const after = await w.db.query<{ n: string }>('select count(*) as n from cards');
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('answers InvalidRequest when the request element is missing', async () => {
    const created = await soapCall(w.app, 'CreatePaymentProfile', {}, w.a.as);
    expect(created.result).toEqual({
      ResultCode: 'InvalidRequest',
      Message: 'The paymentProfileRequest element is required.',
    });
    const got = await soapCall(w.app, 'GetCustomerPaymentProfile', {}, w.a.as);
    expect(got.result).toMatchObject({ CustomerId: '0', ResultCode: 'InvalidRequest' });
    expect(await get(customer(), undefined)).toMatchObject({ ResultCode: 'InvalidRequest' });
  });

  it('the same card number twice for one customer is Duplicate (naming the profile), for another customer Ok', async () => {
    const c = customer();
    const first = await op('CreatePaymentProfile', { CustomerId: c });
    const again = await op('CreatePaymentProfile', { CustomerId: c, CardExpirationMonth: 6 });
    expect(again).toMatchObject({ ResultCode: 'Duplicate', PaymentProfileId: first.PaymentProfileId });
    expect(again.Message).toContain(first.PaymentProfileId);
    expect(await op('CreatePaymentProfile', { CustomerId: customer() })).toMatchObject({ ResultCode: 'Ok' });
    expect(await op('CreatePaymentProfile', { CustomerId: c }, w.b)).toMatchObject({ ResultCode: 'Ok' });
    expect(await list(c)).toHaveLength(1);
    // Two at once (the unique index decides): one Ok, one Duplicate.
    const racer = customer();
    const raced = await Promise.all([1, 2].map(() => op('CreatePaymentProfile', { CustomerId: racer })));
    expect(raced.map((r) => r.ResultCode).sort()).toEqual(['Duplicate', 'Ok']);
  });

  it("another merchant's profile, or another customer's, is NotFound; another MerchantId is a forbidden fault", async () => {
    const c = customer();
    const { PaymentProfileId } = await op('CreatePaymentProfile', { CustomerId: c });
    expect(await get(c, PaymentProfileId, w.b)).toMatchObject({ ResultCode: 'NotFound', CustomerId: c });
    expect(await get(customer(), PaymentProfileId)).toMatchObject({ ResultCode: 'NotFound' });
    expect(await get(c, 'pp_aaaaaaaaaaaaaaaaaaaaaaaa')).toMatchObject({ ResultCode: 'NotFound' });
    expect(await get(c, "x' or 1=1 --")).toMatchObject({ ResultCode: 'NotFound' });
    expect(
      await op('UpdatePaymentProfile', { CustomerId: c, PaymentProfileId, NameOnCard: 'B' }, w.b),
    ).toMatchObject({
      ResultCode: 'NotFound',
    });
    expect(await op('DelelePaymentProfile', { CustomerId: c, PaymentProfileId }, w.b)).toMatchObject({
      ResultCode: 'NotFound',
    });
    expect(await list(c, w.b)).toEqual([]);
    expect(await get(c, PaymentProfileId)).toMatchObject({ ResultCode: 'Ok', NameOnCard: 'Jo Doe' });

    const asB = { ...profileRequest(w.a, { CustomerId: c, PaymentProfileId }) };
    for (const name of ['CreatePaymentProfile', 'UpdatePaymentProfile', 'DelelePaymentProfile']) {
      const fault = await rawCall(w.app, name, asB, w.b.as);
      expect(fault).toMatchObject({ status: 500, errorCode: 'forbidden' });
    }
    const listFault = await rawCall(
      w.app,
      'GetCustomerPaymentProfileList',
      { customerID: c, merchantID: w.a.id },
      w.b.as,
    );
    expect(listFault).toMatchObject({ status: 500, errorCode: 'forbidden' });
    const service = await rawCall(
      w.app,
      'GetCustomerPaymentProfileList',
      { customerID: c, merchantID: w.a.id },
      {
        service: SERVICE_KEY,
      },
    );
    expect(service).toMatchObject({ status: 500, errorCode: 'forbidden' });
    const anonymous = await rawCall(w.app, 'CreatePaymentProfile', asB, null);
    expect(anonymous.status).toBe(401);
  });

  it('UpdatePaymentProfile: 0 keeps number and expiry; a new expiry or number is a new vault card, same id', async () => {
    const c = customer();
    const { PaymentProfileId } = await op('CreatePaymentProfile', { CustomerId: c });
    const keep = {
      CustomerId: c,
      PaymentProfileId,
      CardNumber: '0',
      CardExpirationMonth: 0,
      CardExpirationYear: 0,
    };
    expect(await op('UpdatePaymentProfile', { ...keep, NameOnCard: 'Jo Q. Doe' })).toEqual({
      PaymentProfileId,
      ResultCode: 'Ok',
      Message: 'Payment profile updated.',
    });
    expect(await get(c, PaymentProfileId)).toMatchObject({
      NameOnCard: 'Jo Q. Doe',
      CardNumber: '424242******4242',
      CardExpirationMonth: '12',
    });
    await op('UpdatePaymentProfile', {
      ...keep,
      NameOnCard: '',
      CardExpirationMonth: 7,
      CardExpirationYear: YEAR + 1,
    });
    expect(await get(c, PaymentProfileId)).toMatchObject({
      NameOnCard: 'Jo Q. Doe',
      CardExpirationMonth: '07',
      CardExpirationYear: String(YEAR + 1),
    });
    await op('UpdatePaymentProfile', { ...keep, CardNumber: TEST_CARDS.mastercard });
    expect(await get(c, PaymentProfileId)).toMatchObject({
      CardNumber: '555555******4444',
      CardType: 'Mastercard',
      CardExpirationMonth: '07',
      CardExpirationYear: String(YEAR + 1),
    });
    const refused = [
      [{ ...keep, CardExpirationMonth: 1, CardExpirationYear: 2021 }, 'Expired'],
      [{ ...keep, CardExpirationMonth: 0, CardExpirationYear: YEAR }, 'InvalidExpiry'],
      [{ ...keep, CardNumber: '5555555555554445' }, 'InvalidCard'],
      [{ ...keep, PaymentProfileId: 'pp_abcdefghijklmnopqrstuvwx' }, 'NotFound'],
      [{ ...keep, PaymentProfileId: '' }, 'InvalidRequest'],
    ] as const;
    for (const [fields, code] of refused) {
      expect(await op('UpdatePaymentProfile', fields)).toMatchObject({ ResultCode: code });
    }
    expect(await get(c, PaymentProfileId)).toMatchObject({
      CardNumber: '555555******4444',
      CardExpirationMonth: '07',
    });
  });

  it("UpdatePaymentProfile to a card number of the customer's other profile is Duplicate and changes nothing", async () => {
    const c = customer();
    const visa = await op('CreatePaymentProfile', { CustomerId: c });
    const mc = await op('CreatePaymentProfile', { CustomerId: c, CardNumber: TEST_CARDS.mastercard });
    const dup = await op('UpdatePaymentProfile', {
      CustomerId: c,
      PaymentProfileId: mc.PaymentProfileId,
      CardNumber: TEST_CARDS.visa,
    });
    expect(dup).toMatchObject({ ResultCode: 'Duplicate', PaymentProfileId: visa.PaymentProfileId });
    expect(await get(c, mc.PaymentProfileId)).toMatchObject({ CardNumber: '555555******4444' });
    // Its own number again (as a client that always resends it would) is fine.
    const same = await op('UpdatePaymentProfile', {
      CustomerId: c,
      PaymentProfileId: mc.PaymentProfileId,
      CardNumber: TEST_CARDS.mastercard,
    });
    expect(same.ResultCode).toBe('Ok');
  });

  it('DelelePaymentProfile removes it: NotFound afterwards, gone from the list, the card can be added again', async () => {
    const c = customer();
    const one = await op('CreatePaymentProfile', { CustomerId: c });
    const two = await op('CreatePaymentProfile', { CustomerId: c, CardNumber: TEST_CARDS.mastercard });
    expect((await list(c)).map((p) => p.PaymentProfileId)).toEqual([
      one.PaymentProfileId,
      two.PaymentProfileId,
    ]);
    expect(
      await op('DelelePaymentProfile', { CustomerId: c, PaymentProfileId: one.PaymentProfileId }),
    ).toEqual({
      PaymentProfileId: one.PaymentProfileId,
      ResultCode: 'Ok',
      Message: 'Payment profile deleted.',
    });
    expect(await get(c, one.PaymentProfileId)).toMatchObject({ ResultCode: 'NotFound' });
    expect(
      await op('DelelePaymentProfile', { CustomerId: c, PaymentProfileId: one.PaymentProfileId }),
    ).toMatchObject({
      ResultCode: 'NotFound',
    });
    expect(
      await op('UpdatePaymentProfile', { CustomerId: c, PaymentProfileId: one.PaymentProfileId }),
    ).toMatchObject({
      ResultCode: 'NotFound',
    });
    const listed = await list(c);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      PaymentProfileId: two.PaymentProfileId,
      ResultCode: 'Ok',
      CardType: 'Mastercard',
    });
    const again = await op('CreatePaymentProfile', { CustomerId: c });
    expect(again.ResultCode).toBe('Ok');
    expect(again.PaymentProfileId).not.toBe(one.PaymentProfileId);
  });

  it('GetCustomerPaymentProfileList: empty for a customer without profiles; a bad customerID is a fault', async () => {
    expect(await list(customer())).toEqual([]);
    const fault = await rawCall(
      w.app,
      'GetCustomerPaymentProfileList',
      { customerID: '0', merchantID: w.a.id },
      w.a.as,
    );
    expect(fault).toMatchObject({ status: 500, errorCode: 'invalid_request' });
  });

  it('no answer, table or log line holds a card number in the clear', async () => {
    expect(bodies.length).toBeGreaterThan(20);
    for (const body of bodies) expect(body).not.toMatch(/\d{13,}/);
    for (const table of ['cards', 'payment_profiles']) {
      const { rows } = await w.db.query<{ row: string }>(
        `select row_to_json(t)::text as row from ${table} t`,
      );
      expect(rows.length).toBeGreaterThan(0);
      for (const { row } of rows) for (const pan of PANS) expect(row).not.toContain(pan);
    }
    for (const line of w.t.logLines) for (const pan of PANS) expect(line).not.toContain(pan);
  });
});
