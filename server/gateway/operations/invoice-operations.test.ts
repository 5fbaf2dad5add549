/**
 * CreateInvoice through the real SOAP endpoint, on every database target
 * (docs/gateway-profiles-invoices.md): valid and invalid invoices, the convenience fee (an amount, or
 * a percentage rounded half-up), and the token: a checkout session for exactly the total, recorded
 * with the invoices it pays. The fee arithmetic is also checked alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../../test/kit/databases.ts';
import {
  call,
  countRows,
  type GatewayWorld,
  openWorld,
  rawCall,
  SERVICE_KEY,
} from '../../../test/kit/gateway/gateway-kit.ts';
import { checkInvoices, convenienceFee, percentOf } from './invoice-operations.ts';

describe('convenience fee arithmetic', () => {
  it('a percentage of the total, rounded half-up to the cent', () => {
    expect(percentOf(10150n, '3')).toBe(305n); // 304.5 cents: half-up, not half-even
    expect(percentOf(10001n, '2.5')).toBe(250n); // 250.025
    expect(percentOf(10001n, '2.505')).toBe(251n); // 250.52505
    expect(percentOf(199n, '0.25')).toBe(0n); // 0.4975
    expect(percentOf(200n, '0.25')).toBe(1n); // 0.5
    expect(percentOf(12345n, '100')).toBe(12345n);
    expect(percentOf(12345n, '0')).toBe(0n);
  });

  it('an amount (at most two decimals, not negative), or a percentage from 0 to 100', () => {
    expect(convenienceFee('2.50', false, 999n)).toBe(250n);
    expect(convenienceFee('0', false, 999n)).toBe(0n);
    expect(convenienceFee('1.500', false, 999n)).toBe(150n);
    expect(typeof convenienceFee('-1', false, 999n)).toBe('string');
    expect(typeof convenienceFee('1.005', false, 999n)).toBe('string');
    expect(convenienceFee('100', true, 999n)).toBe(999n);
    expect(convenienceFee('100.000', true, 999n)).toBe(999n);
    expect(typeof convenienceFee('100.01', true, 999n)).toBe('string');
    expect(typeof convenienceFee('-3', true, 999n)).toBe('string');
  });
});

describe('invoice checks', () => {
  it('an InvoiceDate must name a calendar day (a dateTime or a date), from 2000-01-01 to a year ahead', () => {
    const now = new Date('2026-06-15T12:00:00Z');
    const dated = (InvoiceDate: string) => checkInvoices([{ InvoiceAmount: '1.00', InvoiceDate }], now);
    expect(dated('2026-06-15').valid).toEqual([
      { position: 1, number: null, cents: 100n, date: '2026-06-15' },
    ]);
    expect(dated('2026-06-15T23:30:00-05:00').valid[0]?.date).toBe('2026-06-15');
    expect(dated('2027-06-16').valid[0]?.date).toBe('2027-06-16');
    expect(dated('2027-06-17').errors).toEqual([
      'Invoice 1 (no InvoiceNumber): InvoiceDate 2027-06-17 is not between 2000-01-01 and 2027-06-16.',
    ]);
    expect(dated('2001-02').errors).toEqual([
      'Invoice 1 (no InvoiceNumber): InvoiceDate must be a full date (YYYY-MM-DD).',
    ]);
    expect(dated('10:00:00').errors).toHaveLength(1);
    // Nil (xsi:nil="true", the schema's element is nillable): the invoice's creation date, today (UTC).
    expect(checkInvoices([{ InvoiceAmount: '1.00', InvoiceDate: null }], now)).toEqual({
      valid: [{ position: 1, number: null, cents: 100n, date: '2026-06-15' }],
      errors: [],
    });
    const long = checkInvoices(
      [{ InvoiceNumber: 'N'.repeat(65), InvoiceAmount: '1.00', InvoiceDate: '2026-01-01' }],
      now,
    );
    expect(long.errors).toEqual(['Invoice 1: InvoiceNumber is longer than 64 characters.']);
  });
});

describe.each(databaseTargets())('CreateInvoice ($name)', (target) => {
  let w: GatewayWorld;
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    w = await openWorld(target);
  });
  afterAll(() => w?.close());

  const invoiceRequest = (fields: Record<string, unknown>) => ({
    invoiceRequest: {
      MerchantID: w.a.id,
      ConvenienceFee: '0',
      ConvenienceFeePercentage: false,
      Invoices: [],
      ...fields,
    },
  });
  const create = (fields: Record<string, unknown>) =>
    call(w.app, 'CreateInvoice', invoiceRequest(fields), w.a.as);
  const details = (token: string) =>
    call(w.app, 'GetHostedPaymentDetails', { token }, { service: SERVICE_KEY });
  const inv = (
    InvoiceNumber: string | undefined,
    InvoiceAmount: string,
    InvoiceDate: string | null = today,
  ) => ({
    InvoiceNumber,
    InvoiceAmount,
    InvoiceDate,
  });

  it('totals the valid invoices plus a fixed fee, lists each invalid one, and answers a session token for the total', async () => {
    const r = await create({
      ConvenienceFee: '2.50',
      TransactionKey: w.a.key,
      QbCustomerId: 'QB-7',
      Invoices: [
        inv('1001', '100.00', `${today}T09:30:00`),
        inv('1002', '0'),
        inv(undefined, '10.005'),
        inv('1004', '5.50', null),
        inv('1005', '20.00', '0001-01-01T00:00:00'),
        inv('1001', '1.00'),
        inv('1007', '-3.00', '2999-01-01'),
        inv('1008', '5.50'),
      ],
    });
    expect(r.Success).toBe(true);
    expect(r.InvoiceRandomNumber).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
    expect(r.Errors).toEqual([
      'Invoice 1002: InvoiceAmount must be greater than zero.',
      'Invoice 3 (no InvoiceNumber): InvoiceAmount has more than two decimals.',
      expect.stringMatching(
        /^Invoice 1005: InvoiceDate 0001-01-01 is not between 2000-01-01 and \d{4}-\d\d-\d\d\.$/,
      ),
      'Invoice 1001 (position 6): the same InvoiceNumber appears earlier in this request.',
      expect.stringMatching(
        /^Invoice 1007: InvoiceAmount must be greater than zero; InvoiceDate 2999-01-01 is not between 2000-01-01 and \d{4}-\d\d-\d\d\.$/,
      ),
    ]);
    expect(r.Message).toBe(
      `3 invoices (111.00) + convenience fee 2.50 = 113.50. Pay at ${w.t.gateway.deps.publicUrl}/pay/${r.InvoiceRandomNumber}. 5 invalid invoices were left out: see Errors.`,
    );
    const session = await details(r.InvoiceRandomNumber!);
    expect(session).toMatchObject({ Success: true, Amount: '113.50', OrderNumber: 'INV-1001,1004,1008' });

    const { rows } = await w.db.query<Record<string, string>>(
      `select i.position, i.invoice_number, i.amount, to_char(i.invoice_date, 'YYYY-MM-DD') as invoice_date, i.status,
              r.invoices_total, r.convenience_fee, r.total, r.qb_customer_id
       from invoices i join invoice_requests r on r.id = i.invoice_request_id
       join checkout_sessions s on s.id = r.checkout_session_id
       where s.token = $1 order by i.position`,
      [r.InvoiceRandomNumber],
    );
    expect(rows).toEqual([
      expect.objectContaining({ position: 1, invoice_number: '1001', amount: '100.00', invoice_date: today }),
      // InvoiceDate nil: the invoice's creation date, today.
      expect.objectContaining({ position: 4, invoice_number: '1004', amount: '5.50', invoice_date: today }),
      expect.objectContaining({ position: 8, invoice_number: '1008', amount: '5.50', status: 'open' }),
    ]);
    expect(rows[0]).toMatchObject({
      invoices_total: '111.00',
      convenience_fee: '2.50',
      total: '113.50',
      qb_customer_id: 'QB-7',
    });
  });

  it('a percentage fee is that percentage of the valid total, rounded half-up to the cent', async () => {
    const r = await create({
      ConvenienceFee: '3',
      ConvenienceFeePercentage: true,
      Invoices: [inv('A-1', '60.00'), inv('A-2', '41.50'), inv('A-3', '0.001')],
    });
    expect(r).toMatchObject({
      Success: true,
      Errors: ['Invoice A-3: InvoiceAmount has more than two decimals.'],
    });
    expect(r.Message).toMatch(/^2 invoices \(101\.50\) \+ convenience fee 3\.05 = 104\.55\./);
    expect(await details(r.InvoiceRandomNumber!)).toMatchObject({ Success: true, Amount: '104.55' });

    const one = await create({
      ConvenienceFee: '2.5',
      ConvenienceFeePercentage: true,
      Invoices: [inv(undefined, '100.01')],
    });
    expect(one.Errors).toEqual([]);
    expect(one.Message).toMatch(/^1 invoice \(100\.01\) \+ convenience fee 2\.50 = 102\.51\. Pay at /);
    const session = await details(one.InvoiceRandomNumber!);
    expect(session).toMatchObject({ Amount: '102.51' });
    expect(session.OrderNumber).toMatch(/^INV-[0-9A-F]{12}$/);
  });

  it('Success false, with a Message, and no session when no invoice is valid or the request is unusable', async () => {
    const sessionsBefore = await countRows(w.db, 'select count(*) as n from checkout_sessions');
    const none = await create({
      ConvenienceFee: '1.00',
      Invoices: [inv('X-1', '0'), inv('X-2', '-5.00')],
    });
    expect(none).toEqual({
      Success: false,
      Message: 'No invoice is valid, so there is nothing to pay: see Errors.',
      Errors: [
        'Invoice X-1: InvoiceAmount must be greater than zero.',
        'Invoice X-2: InvoiceAmount must be greater than zero.',
      ],
    });
    expect(await create({ Invoices: [] })).toMatchObject({
      Success: false,
      Message: 'The request has no invoices.',
    });
    expect(await create({ ConvenienceFee: '-1', Invoices: [inv('Y-1', '5.00'), inv('Y-2', '0')] })).toEqual({
      Success: false,
      Message: 'ConvenienceFee must be an amount of zero or more, with at most two decimals.',
      Errors: ['Invoice Y-2: InvoiceAmount must be greater than zero.'],
    });
    expect(
      await create({ ConvenienceFee: '120', ConvenienceFeePercentage: true, Invoices: [inv('Y-1', '5.00')] }),
    ).toMatchObject({ Success: false, Message: expect.stringContaining('percentage from 0 to 100') });
    expect(await create({ Invoices: [inv('Z-1', '9999999999.99'), inv('Z-2', '0.01')] })).toMatchObject({
      Success: false,
      Message: 'The total may be at most 9999999999.99.',
    });
    const many = Array.from({ length: 101 }, (_, i) => inv(`M-${i}`, '1.00'));
    expect(await create({ Invoices: many })).toMatchObject({
      Success: false,
      Message: expect.stringContaining('100'),
    });
    const missing = await call(w.app, 'CreateInvoice', {}, w.a.as);
    expect(missing).toMatchObject({ Success: false, Message: 'The invoiceRequest element is required.' });
    expect(await countRows(w.db, 'select count(*) as n from checkout_sessions')).toBe(sessionsBefore);
  });

  it('the TransactionKey in the message, and the MerchantID, must be the credential’s; the service may not call it', async () => {
    const body = invoiceRequest({ Invoices: [inv('K-1', '5.00')] });
    const wrongKey = await rawCall(
      w.app,
      'CreateInvoice',
      { invoiceRequest: { ...body.invoiceRequest, TransactionKey: w.b.key } },
      w.a.as,
    );
    expect(wrongKey).toMatchObject({ status: 500, errorCode: 'forbidden' });
    expect(await rawCall(w.app, 'CreateInvoice', body, w.b.as)).toMatchObject({
      status: 500,
      errorCode: 'forbidden',
    });
    expect(await rawCall(w.app, 'CreateInvoice', body, { service: SERVICE_KEY })).toMatchObject({
      status: 500,
      errorCode: 'forbidden',
    });
    expect((await rawCall(w.app, 'CreateInvoice', body, null)).status).toBe(401);
    // Merchant b cannot open merchant a's invoice session either.
    const r = await create({ Invoices: [inv('K-2', '5.00')] });
    const seenByB = await call(w.app, 'GetHostedPaymentDetails', { token: r.InvoiceRandomNumber }, w.b.as);
    expect(seenByB).toMatchObject({ Success: false, Message: 'This checkout session does not exist.' });
  });
});
