/**
 * The gateway scenario, part 3 — merchant data, card look-ups and checkout sessions (docs/gateway.md):
 * GetCardInfo, GetCardDetailsFromEncryptedData, GetMerchantInfo / GetMerchantDetails (TransactionKey
 * only to its owner; by id, public code or checkout-session token), Verify3DSecureMerchant,
 * CreateHostedPayment (extension) and GetHostedPaymentDetails, and paying a session.
 * Through the real SOAP endpoint, on every database target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../test/kit/databases.ts';
import { encryptReaderData } from './card-reader.ts';
import { TEST_CARDS } from './processor/simulator.ts';
import {
  call,
  card,
  type GatewayWorld,
  openWorld,
  pay,
  rawCall,
  SERVICE_KEY,
  SHOP_ORIGIN,
} from '../../test/kit/gateway/gateway-kit.ts';

describe.each(databaseTargets())(
  'gateway scenario: merchant data and checkout sessions ($name)',
  (target) => {
    let w: GatewayWorld;
    const service = { service: SERVICE_KEY };

    beforeAll(async () => {
      w = await openWorld(target);
    });
    afterAll(() => w?.close());

    const session = async (fields: Record<string, unknown> = {}) => {
      const r = await call(
        w.app,
        'CreateHostedPayment',
        {
          request: {
            MerchantID: w.a.id,
            Amount: '49.90',
            OrderNumber: 'A-1001',
            Email: 'jo@shop.example',
            FirstName: 'Jo',
            LastName: 'Doe',
            ZipCode: '94110',
            ReturnUrl: `${SHOP_ORIGIN}/thanks?order=A-1001`,
            ...fields,
          },
        },
        w.a.as,
      );
      return r;
    };

    it('GetCardInfo: the brand of a valid number, ErrorMessage for an invalid one, never the number', async () => {
      const info = (CardNumber: string, MerchantID = w.a.id) =>
        call(w.app, 'GetCardInfo', { request: { MerchantID, CardNumber } }, w.a.as);
      expect(await info(TEST_CARDS.visa)).toEqual({ Type: 'Visa' });
      expect(await info('5555 5555 5555 4444')).toEqual({ Type: 'Mastercard' });
      expect(await info(TEST_CARDS.amex, '')).toEqual({ Type: 'American Express' });
      expect(await info('4242424242424241')).toEqual({ ErrorMessage: 'Invalid card number.' });
      expect(await info('')).toEqual({ ErrorMessage: 'A card number is required.' });
    });

    it("GetCardDetailsFromEncryptedData reads reader data under the merchant's own reader key only", async () => {
      const key = await w.t.gateway.deps.merchants.readerKey(w.db, w.a.id);
      const data = encryptReaderData(key!, {
        pan: TEST_CARDS.visa,
        expMonth: 12,
        expYear: 2030,
        name: 'Jo Doe',
      });
      const read = await call(
        w.app,
        'GetCardDetailsFromEncryptedData',
        { encryptedData: data, deviceName: 'Counter 1', merchantID: w.a.id },
        w.a.as,
      );
      expect(read).toEqual({
        MaskedCardNumber: '424242******4242',
        ExpirationDate: '1230',
        CardType: 'Visa',
      });
      // Under B's key the data does not decrypt: a Client fault that names the problem, not the card.
      const other = await rawCall(
        w.app,
        'GetCardDetailsFromEncryptedData',
        { encryptedData: data, merchantID: w.b.id },
        w.b.as,
      );
      expect(other).toMatchObject({ faultCode: 'soap:Client', errorCode: 'validation_failed' });
      expect(other.message).toMatch(/could not be decrypted/);
      expect(other.body).not.toContain(TEST_CARDS.visa);
      const garbage = await rawCall(
        w.app,
        'GetCardDetailsFromEncryptedData',
        { encryptedData: 'not base64!', merchantID: w.a.id },
        w.a.as,
      );
      expect(garbage).toMatchObject({
        errorCode: 'validation_failed',
        message: 'The card-reader data is not base64.',
      });
    });

    it('GetMerchantInfo and GetMerchantDetails give the TransactionKey to its owner only', async () => {
      expect(await call(w.app, 'GetMerchantInfo', { merchantID: w.a.id }, w.a.as)).toEqual({
        MerchantID: w.a.id,
        TransactionKey: w.a.key,
        Name: w.a.name,
      });
      const own = await call(w.app, 'GetMerchantDetails', { merchantId: w.a.id }, w.a.as);
      expect(own).toMatchObject({
        MerchantId: w.a.id,
        TransactionKey: w.a.key,
        BusinessName: w.a.name,
        PaymentMethods: 'card,ach',
      });
      const byCode = await call(w.app, 'GetMerchantDetails', { code: w.a.publicCode }, w.a.as);
      expect(byCode).toMatchObject({ MerchantId: w.a.id, TransactionKey: w.a.key });
      // The checkout server may read any merchant's details, never a key.
      const viaService = await call(w.app, 'GetMerchantDetails', { code: w.a.publicCode }, service);
      expect(viaService).toMatchObject({
        MerchantId: w.a.id,
        BusinessName: w.a.name,
        Email: 'billing@alpha-outfitters.example',
      });
      expect(viaService.TransactionKey).toBeUndefined();
      expect(await call(w.app, 'GetMerchantDetails', { merchantId: w.b.id }, service)).toMatchObject({
        MerchantId: w.b.id,
      });
    });

    it("another merchant's details: the same 'forbidden' whether or not the merchant exists", async () => {
      const ask = (params: Record<string, unknown>) => rawCall(w.app, 'GetMerchantDetails', params, w.b.as);
      const existing = await ask({ code: w.a.publicCode });
      const missing = await ask({ code: 'pm_doesnotexist' });
      const byId = await ask({ merchantId: w.a.id });
      for (const f of [existing, missing, byId]) {
        expect(f).toMatchObject({
          errorCode: 'forbidden',
          message: 'This credential may not act on that merchant.',
        });
        expect(f.body).not.toContain(w.a.name);
      }
      expect(await rawCall(w.app, 'GetMerchantDetails', { code: 'pm_doesnotexist' }, service)).toMatchObject({
        errorCode: 'not_found',
      });
      expect(await rawCall(w.app, 'GetMerchantDetails', {}, w.a.as)).toMatchObject({
        errorCode: 'invalid_request',
      });
      expect(await rawCall(w.app, 'GetMerchantDetails', { merchantId: 'abc' }, w.a.as)).toMatchObject({
        errorCode: 'invalid_request',
      });
      expect(await rawCall(w.app, 'GetMerchantInfo', { merchantID: w.a.id }, w.b.as)).toMatchObject({
        errorCode: 'forbidden',
      });
    });

    it('Verify3DSecureMerchant: own enrolment; the checkout server may ask about any merchant', async () => {
      expect(await call(w.app, 'Verify3DSecureMerchant', { merchantID: w.a.id }, w.a.as)).toBe(true);
      expect(await call(w.app, 'Verify3DSecureMerchant', { merchantID: w.b.id }, service)).toBe(false);
      expect(await rawCall(w.app, 'Verify3DSecureMerchant', { merchantID: '999999' }, service)).toMatchObject(
        { errorCode: 'not_found' },
      );
    });

    it('CreateHostedPayment: a token and URL; a ReturnUrl off the registered origins is refused', async () => {
      const before = Date.now();
      const ok = await session();
      expect(ok).toMatchObject({ Success: true, Message: 'Checkout session created.' });
      expect(ok.Token).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
      expect(ok.Url).toBe(`${w.t.config.publicUrl}/pay/${ok.Token}`);
      const ttl = new Date(ok.ExpiresAt!).getTime() - before;
      expect(ttl).toBeGreaterThan(59 * 60_000);
      expect(ttl).toBeLessThan(61 * 60_000);
      for (const bad of [
        'https://evil.example/x',
        'http://shop.example/x',
        '//evil.example',
        'javascript:alert(1)',
      ]) {
        const r = await session({ ReturnUrl: bad });
        expect(r.Success, bad).toBe(false);
        expect(r.Message).toMatch(/^returnUrl /);
        expect(r.Token).toBeUndefined();
      }
      expect(await session({ Amount: '0' })).toMatchObject({
        Success: false,
        Message: 'amount must be greater than zero.',
      });
      expect(await session({ Currency: 'dollars' })).toMatchObject({ Success: false });
      const wrongKey = await rawCall(
        w.app,
        'CreateHostedPayment',
        { request: { MerchantID: w.a.id, Amount: '1.00', TransactionKey: w.b.key } },
        w.a.as,
      );
      expect(wrongKey.errorCode).toBe('forbidden');
      const bySvc = await rawCall(
        w.app,
        'CreateHostedPayment',
        { request: { MerchantID: w.a.id, Amount: '1.00' } },
        service,
      );
      expect(bySvc.errorCode).toBe('forbidden');
    });

    it('GetHostedPaymentDetails: open with the shopper data, then paid, then refused', async () => {
      const { Token } = await session();
      const open = await call(w.app, 'GetHostedPaymentDetails', { token: Token }, service);
      expect(open).toMatchObject({
        Success: true,
        Message: 'Open',
        Amount: '49.90',
        MerchantName: w.a.name,
        OrderNumber: 'A-1001',
        Email: 'jo@shop.example',
        FirstName: 'Jo',
        LastName: 'Doe',
        ZipCode: '94110',
        ReturnUrl: `${SHOP_ORIGIN}/thanks?order=A-1001`,
      });
      const payIt = (fields: Record<string, unknown>) =>
        call(
          w.app,
          'ProcessTransaction',
          pay(w.a, card(TEST_CARDS.visa, '0', { HostedPaymentToken: Token, ...fields })),
          w.a.as,
        );
      expect(await payIt({ Amount: '1.00' })).toMatchObject({
        ResponseCode: '13',
        ResponseMessage: 'Amount does not match the checkout session.',
      });
      expect(await payIt({ CardNumber: TEST_CARDS.declined })).toMatchObject({ ResponseCode: '05' }); // still open
      expect((await call(w.app, 'GetHostedPaymentDetails', { token: Token }, w.a.as)).Success).toBe(true);
      const paid = await payIt({ Amount: '49.90' });
      expect(paid.ResponseCode).toBe('00');
      expect(await call(w.app, 'GetHostedPaymentDetails', { token: Token }, service)).toEqual({
        Success: false,
        Message: expect.stringMatching(/^This checkout session has already been paid \(transaction \d+\)\.$/),
        Amount: '49.90',
        MerchantName: w.a.name,
        OrderNumber: 'A-1001',
      });
      expect(await payIt({})).toMatchObject({
        TransactionID: '0',
        ResponseCode: '94',
        ResponseMessage: `This checkout session has already been paid (transaction ${paid.TransactionID}).`,
      });
      // Another merchant cannot pay it; capture/void/refund cannot carry a session.
      const b = await call(
        w.app,
        'ProcessTransaction',
        pay(w.b, card(TEST_CARDS.visa, '0', { HostedPaymentToken: Token })),
        w.b.as,
      );
      expect(b).toMatchObject({
        ResponseCode: '12',
        ResponseMessage: 'HostedPaymentToken does not name a checkout session of this merchant.',
      });
      expect(
        await payIt({ TransactionType: 'refund', OriginalTransactionID: paid.TransactionID }),
      ).toMatchObject({ ResponseCode: '12' });
    });

    it('GetHostedPaymentDetails: an expired session, an unknown token; the checkout server brands by token', async () => {
      const { Token } = await session();
      expect(await call(w.app, 'GetMerchantDetails', { code: Token }, service)).toMatchObject({
        MerchantId: w.a.id,
        BusinessName: w.a.name,
      });
      await w.db.query(
        "update checkout_sessions set expires_at = now() - interval '1 minute' where token = $1",
        [Token],
      );
      expect(await call(w.app, 'GetHostedPaymentDetails', { token: Token }, service)).toMatchObject({
        Success: false,
        Message: 'This checkout session has expired.',
      });
      const late = await call(
        w.app,
        'ProcessTransaction',
        pay(w.a, card(TEST_CARDS.visa, '0', { HostedPaymentToken: Token })),
        w.a.as,
      );
      expect(late).toMatchObject({
        TransactionID: '0',
        ResponseCode: '12',
        ResponseMessage: 'This checkout session is expired.',
      });
      const unknown = { Success: false, Message: 'This checkout session does not exist.', Amount: '0.00' };
      expect(
        await call(w.app, 'GetHostedPaymentDetails', { token: `cs_${'x'.repeat(43)}` }, service),
      ).toEqual(unknown);
      expect(await call(w.app, 'GetHostedPaymentDetails', { token: 'nonsense' }, service)).toEqual(unknown);
      expect(await call(w.app, 'GetHostedPaymentDetails', {}, service)).toEqual(unknown);
    });
  },
);
