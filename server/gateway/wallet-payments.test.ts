/**
 * ProcessTransaction and the shopper wallet: a payment with CreateToken and the shopper's e-mail
 * saves the card to the wallet; the checkout server (and only it) pays a checkout session with a
 * wallet card, and only with the CVV typed again (security-requirements.md OTP-12).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  call,
  futureExpiry,
  type GatewayWorld,
  openWorld,
  SERVICE_KEY,
} from '../../test/kit/gateway/gateway-kit.ts';
import { request } from '../../test/kit/gateway/soap-call.ts';

const EMAIL = 'shopper@example.com';

for (const target of databaseTargets()) {
  describe(`wallet payments on ${target.name}`, () => {
    let w: GatewayWorld;
    let tokenGuid: string;
    beforeAll(async () => {
      w = await openWorld(target);
    });
    afterAll(() => w.close());

    it('a payment with CreateToken and an e-mail saves the card to the shopper wallet', async () => {
      const sale = await call(
        w.app,
        'ProcessTransaction',
        {
          request: request({
            MerchantID: w.a.id,
            Amount: '5.00',
            CardNumber: '4242424242424242',
            ExpirationDate: futureExpiry(),
            CVV2: '123',
            CreateToken: true,
            Email: EMAIL,
            CardName: 'Sam Shopper',
          }),
        },
        w.a.as,
      );
      expect(sale.ResponseCode).toBe('00');
      const cards = await call(w.app, 'GetStoredCards', { email: EMAIL }, { service: SERVICE_KEY });
      expect(cards).toHaveLength(1);
      expect(cards[0]).toMatchObject({ MaskedCardNumber: '************4242', CardType: 'Visa' });
      tokenGuid = cards[0]!.TokenGuid!;
    });

    async function session(): Promise<string> {
      const created = await call(
        w.app,
        'CreateHostedPayment',
        { request: { MerchantID: w.a.id, Amount: '7.25' } },
        w.a.as,
      );
      return created.Token!;
    }

    it('the checkout server pays a session with the wallet card, CVV required', async () => {
      const token = await session();
      const pay = (cvv: string | undefined) =>
        call(
          w.app,
          'ProcessTransaction',
          {
            request: request({
              HostedPaymentToken: token,
              SaveCardID: tokenGuid,
              Email: EMAIL,
              ...(cvv ? { CVV2: cvv } : {}),
            }),
          },
          { service: SERVICE_KEY },
        );
      expect((await pay(undefined)).ResponseCode).toBe('N7');
      const paid = await pay('123');
      expect(paid.ResponseCode).toBe('00');
      expect(paid.MaskedCardNumber).toBe('424242******4242');
    });

    it('another contact cannot use the wallet card, and a merchant cannot use a TokenGuid', async () => {
      const token = await session();
      const stranger = await call(
        w.app,
        'ProcessTransaction',
        {
          request: request({
            HostedPaymentToken: token,
            SaveCardID: tokenGuid,
            Email: 'other@example.com',
            CVV2: '123',
          }),
        },
        { service: SERVICE_KEY },
      );
      expect(stranger.ResponseCode).toBe('14');
      const merchant = await call(
        w.app,
        'ProcessTransaction',
        {
          request: request({
            MerchantID: w.a.id,
            HostedPaymentToken: token,
            SaveCardID: tokenGuid,
            Email: EMAIL,
            CVV2: '123',
          }),
        },
        w.a.as,
      );
      expect(merchant.ResponseCode).toBe('14');
    });
  });
}
