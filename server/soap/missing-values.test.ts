/**
 * Missing value-type elements through the real app (issue 18 §4; shared/contract/missing-values.ts):
 * over SOAP 1.1 and 1.2 a missing element takes ASMX's default where the rule says so and reaches
 * the handler with it, and is refused naming the element where its default could move money or
 * change whom or what the call acts on; HTTP POST refuses every missing parameter, as ASMX does.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/kit/app.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { type RecordingService, recordingService } from '../../test/kit/soap/recording-service.ts';

const NS = 'http://tempuri.org/';
const ENVELOPES = {
  '1.1': {
    open: '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>',
    close: '</soap:Body></soap:Envelope>',
    headers: (op: string) => ({ 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NS}${op}"` }),
    client: 'soap:Client',
  },
  '1.2': {
    open: '<soap12:Envelope xmlns:soap12="http://www.w3.org/2003/05/soap-envelope"><soap12:Body>',
    close: '</soap12:Body></soap12:Envelope>',
    headers: (op: string) => ({ 'content-type': `application/soap+xml; charset=utf-8; action="${NS}${op}"` }),
    client: 'soap:Sender',
  },
} as const;

let t: TestApp;
let rec: RecordingService;

beforeAll(async () => {
  rec = recordingService();
  const db = await databaseTargets()[0]!.open();
  t = await buildTestApp(db, {}, { closeDatabase: true, transactionService: rec.service });
});
afterAll(() => t.close());
beforeEach(() => {
  rec.calls.length = 0;
});

const xml = (elements: Record<string, string>) =>
  Object.entries(elements)
    .map(([name, value]) => `<${name}>${value}</${name}>`)
    .join('');

async function soap(version: '1.1' | '1.2', op: string, inner: string) {
  const e = ENVELOPES[version];
  const res = await t.app.inject({
    method: 'POST',
    url: '/TransactionService.asmx',
    headers: e.headers(op),
    payload: `<?xml version="1.0" encoding="utf-8"?>${e.open}<${op} xmlns="${NS}">${inner}</${op}>${e.close}`,
  });
  return res;
}

/** A card sale as node-soap or PHP sends it when only the elements that matter are set. */
const sale = (extra: Record<string, string> = {}) =>
  `<request>${xml({
    TestRequest: 'false',
    MerchantID: '42',
    Amount: '10.50',
    CardNumber: '4242424242424242',
    ExpirationDate: '12/30',
    TransactionType: 'sale',
    ...extra,
  })}</request>`;

const without = (name: string, extra: Record<string, string> = {}) => {
  const fields: Record<string, string> = {
    TestRequest: 'false',
    MerchantID: '42',
    Amount: '10.50',
    CardNumber: '4242424242424242',
    ExpirationDate: '12/30',
    ...extra,
  };
  delete fields[name];
  return `<request>${xml(fields)}</request>`;
};

for (const version of ['1.1', '1.2'] as const) {
  const clientFault = ENVELOPES[version].client;

  describe(`SOAP ${version}: the default is taken where it is harmless`, () => {
    it('a sale without the recurring, reversal and flag elements reaches the handler with ASMX defaults', async () => {
      const res = await soap(version, 'ProcessTransaction', sale());
      expect(res.statusCode).toBe(200);
      expect(rec.calls).toHaveLength(1);
      expect(rec.calls[0]!.params.request).toEqual({
        TestRequest: false,
        MerchantID: '42',
        Amount: '10.50',
        CardNumber: '4242424242424242',
        ExpirationDate: '12/30',
        TransactionType: 'sale',
        CreateToken: false,
        IsSwipe: false,
        OriginalTransactionID: '0',
        IsRecurring: false,
        RecurringAmount: '0',
        RecurringStartDate: '0001-01-01T00:00:00',
        RecurringEndDate: '0001-01-01T00:00:00',
        MerchantReceipt: false,
        CardHolderReceipt: false,
        MagensaLogID: '0',
        CustomerID: '0',
        IsCitTransaction: false,
        IsPartialRevesal: false,
        SettlementAmount: '0',
        IsAchTransaction: false,
        IsAddDSRPValue: false,
        InAppTransaction: false,
        IsRegisteredUser: false,
      });
    });

    it('a recurring sale with its recurring elements, and a refund with its original, are read', async () => {
      const recurring = sale({
        IsRecurring: 'true',
        RecurringAmount: '5.00',
        RecurringStartDate: '2030-01-01',
        RecurringEndDate: '2031-01-01',
      });
      expect((await soap(version, 'ProcessTransaction', recurring)).statusCode).toBe(200);
      const refund = without('CardNumber', { TransactionType: 'Refund', OriginalTransactionID: '77' });
      expect((await soap(version, 'ProcessTransaction', refund)).statusCode).toBe(200);
      expect(rec.calls.map((c) => (c.params.request as Record<string, unknown>).RecurringAmount)).toEqual([
        '5.00',
        '0',
      ]);
    });

    it('an operation parameter and a nillable dateTime take theirs', async () => {
      rec.respond('GetTransactionHistories', () => []);
      const res = await soap(version, 'GetTransactionHistories', xml({ merchantID: '42' }));
      expect(res.statusCode).toBe(200);
      expect(rec.calls[0]!.params).toEqual({
        merchantID: '42',
        startDate: '0001-01-01T00:00:00',
        endDate: '0001-01-01T00:00:00',
      });
      const invoice = `<invoiceRequest>${xml({ MerchantID: '42', ConvenienceFee: '0', ConvenienceFeePercentage: 'false' })}<Invoices><InvoiceDetails><InvoiceAmount>3.00</InvoiceAmount></InvoiceDetails></Invoices></invoiceRequest>`;
      expect((await soap(version, 'CreateInvoice', invoice)).statusCode).toBe(200);
      expect(rec.calls[1]!.params.invoiceRequest).toMatchObject({
        Invoices: [{ InvoiceAmount: '3.00', InvoiceDate: null }],
      });
    });
  });

  describe(`SOAP ${version}: refused, naming the element, where the default could matter`, () => {
    const refused = async (op: string, inner: string, message: string) => {
      const res = await soap(version, op, inner);
      expect(res.statusCode).toBe(500);
      expect(res.body).toContain(clientFault);
      expect(res.body).toContain(message);
      expect(res.body).toContain('<ErrorCode');
      expect(rec.calls).toHaveLength(0);
    };

    it('a merchant id, an amount, TestRequest', async () => {
      await refused(
        'ProcessTransaction',
        without('MerchantID'),
        "Required element 'request/MerchantID' is missing.",
      );
      await refused('ProcessTransaction', without('Amount'), "Required element 'request/Amount' is missing.");
      await refused(
        'ProcessTransaction',
        without('TestRequest'),
        "Required element 'request/TestRequest' is missing.",
      );
      await refused(
        'GetTransactionHistories',
        xml({ startDate: '2024-01-01' }),
        "Required element 'merchantID' is missing.",
      );
      await refused(
        'GetCustomerPaymentProfileList',
        xml({ merchantID: '42' }),
        "Required element 'customerID' is missing.",
      );
    });

    it('an element the request makes matter: recurring, a follow-on, a partial reversal', async () => {
      await refused(
        'ProcessTransaction',
        sale({ IsRecurring: 'true', RecurringStartDate: '2030-01-01', RecurringEndDate: '2031-01-01' }),
        "Required element 'request/RecurringAmount' is missing. It is required when IsRecurring is true.",
      );
      await refused(
        'ProcessTransaction',
        without('CardNumber', { TransactionType: ' Capture ' }),
        "Required element 'request/OriginalTransactionID' is missing. It is required when TransactionType is capture, void or refund.",
      );
      await refused(
        'ProcessTransaction',
        without('CardNumber', { IsPartialRevesal: 'true', OriginalTransactionID: '77' }),
        "Required element 'request/SettlementAmount' is missing. It is required when IsPartialRevesal is true.",
      );
    });

    it('an amount inside a list item, by its position', async () => {
      const invoice = `<invoiceRequest>${xml({ MerchantID: '42', ConvenienceFee: '0', ConvenienceFeePercentage: 'false' })}<Invoices><InvoiceDetails><InvoiceAmount>3.00</InvoiceAmount></InvoiceDetails><InvoiceDetails><InvoiceNumber>B</InvoiceNumber></InvoiceDetails></Invoices></invoiceRequest>`;
      await refused(
        'CreateInvoice',
        invoice,
        "Required element 'invoiceRequest/Invoices/InvoiceDetails[2]/InvoiceAmount' is missing.",
      );
    });
  });
}

describe('HTTP POST: every parameter is needed, as ASMX', () => {
  const post = (op: string, form: string) =>
    t.app.inject({
      method: 'POST',
      url: `/TransactionService.asmx/${op}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form,
    });

  it('refuses a missing merchant id', async () => {
    const res = await post('GetTransactionHistories', 'startDate=2024-01-01&endDate=2024-02-01');
    expect(res.statusCode).toBe(500);
    expect(res.body).toBe('Missing parameter: merchantID.\n');
    expect(rec.calls).toHaveLength(0);
  });

  it('refuses a missing dateTime the SOAP bindings default', async () => {
    const res = await post('GetTransactionHistories', 'endDate=2024-02-01&merchantID=42');
    expect(res.statusCode).toBe(500);
    expect(res.body).toBe('Missing parameter: startDate.\n');
    expect(rec.calls).toHaveLength(0);
  });

  it('calls the operation when every parameter is there', async () => {
    rec.respond('GetTransactionHistories', () => []);
    const res = await post(
      'GetTransactionHistories',
      'startDate=2024-01-01&endDate=2024-02-01&merchantID=42',
    );
    expect(res.statusCode).toBe(200);
    expect(rec.calls[0]!.params).toEqual({
      startDate: '2024-01-01T00:00:00',
      endDate: '2024-02-01T00:00:00',
      merchantID: '42',
    });
  });
});
