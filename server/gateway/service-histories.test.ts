/**
 * What a checkout in front of a spec-only Transaction Service does with the service credential
 * (issue 20), through the real SOAP endpoint: it pays a session's token (CreateInvoice's
 * InvoiceRandomNumber is one) with ProcessTransaction, stamping the token into CustomValue1, and
 * when it loses the answer finds the payment again with GetTransactionHistories, naming the
 * merchant. The service must name it; a merchant still reads only its own history.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../test/kit/databases.ts';
import { TEST_CARDS } from './processor/simulator.ts';
import {
  call,
  card,
  type GatewayWorld,
  openWorld,
  pay,
  rawCall,
  SERVICE_KEY,
} from '../../test/kit/gateway/gateway-kit.ts';

const service = { service: SERVICE_KEY };

describe.each(databaseTargets())('the service credential and GetTransactionHistories ($name)', (target) => {
  let w: GatewayWorld;
  const today = new Date().toISOString().slice(0, 10);
  const DAY = 86_400_000;
  const range = (merchantID: string) => ({
    startDate: new Date(Date.now() - DAY).toISOString(),
    endDate: new Date(Date.now() + DAY).toISOString(),
    merchantID,
  });

  beforeAll(async () => {
    w = await openWorld(target);
  });
  afterAll(() => w?.close());

  /** A session of merchant A for 12.34, made as a merchant's shop makes one: CreateInvoice. */
  async function invoiceToken(): Promise<string> {
    const r = await call(
      w.app,
      'CreateInvoice',
      {
        invoiceRequest: {
          MerchantID: w.a.id,
          ConvenienceFee: '0',
          ConvenienceFeePercentage: false,
          Invoices: [{ InvoiceNumber: 'S-1', InvoiceAmount: '12.34', InvoiceDate: today }],
        },
      },
      w.a.as,
    );
    expect(r.Success).toBe(true);
    return r.InvoiceRandomNumber!;
  }

  it("pays a session's token as the service, and finds the payment in the merchant's history by CustomValue1", async () => {
    const token = await invoiceToken();
    const paid = await call(
      w.app,
      'ProcessTransaction',
      pay(
        w.a,
        card(TEST_CARDS.visa, '12.34', {
          HostedPaymentToken: token,
          CustomValue1: token,
          CustomValue2: 'order 7 <b>&amp;</b>',
          CustomValue3: 'ünïcode ✓',
        }),
      ),
      service,
    );
    expect(paid).toMatchObject({ ResponseCode: '00', CustomValue1: token });

    const histories = await call(w.app, 'GetTransactionHistories', range(w.a.id), service);
    const found = histories.filter((h) => h.CustomValue1 === token);
    expect(found).toEqual([
      expect.objectContaining({
        TransactionID: paid.TransactionID,
        MerchantID: w.a.id,
        TransactionAmount: '12.34',
        CustomValue1: token,
        CustomValue2: 'order 7 <b>&amp;</b>',
        CustomValue3: 'ünïcode ✓',
      }),
    ]);
    // Merchant B's history, read by the service, does not hold A's payment.
    const other = await call(w.app, 'GetTransactionHistories', range(w.b.id), service);
    expect(other.some((h) => h.TransactionID === paid.TransactionID)).toBe(false);
    // The merchant reads the same row in its own history.
    const own = await call(w.app, 'GetTransactionHistories', range(w.a.id), w.a.as);
    expect(own.some((h) => h.TransactionID === paid.TransactionID && h.CustomValue1 === token)).toBe(true);
  });

  it('the service must name the merchant: merchantID 0 is invalid_request', async () => {
    const f = await rawCall(w.app, 'GetTransactionHistories', range('0'), service);
    expect(f.status).toBe(500);
    expect(f.errorCode).toBe('invalid_request');
  });

  it("a merchant is still refused another merchant's history", async () => {
    const f = await rawCall(w.app, 'GetTransactionHistories', range(w.a.id), w.b.as);
    expect(f.status).toBe(500);
    expect(f.errorCode).toBe('forbidden');
    expect(f.message).toBe('This credential may not act on that merchant.');
  });

  it('the service may not ProcessTransaction without a HostedPaymentToken', async () => {
    const f = await rawCall(w.app, 'ProcessTransaction', pay(w.a, card(TEST_CARDS.visa, '1.00')), service);
    expect(f.status).toBe(500);
    expect(f.errorCode).toBe('forbidden');
  });
});
