/**
 * One ReturnUrl validator for REST and SOAP (issue 13 §6; shared/return-url.ts): every ReturnUrl the
 * merchant REST API refuses, CreateHostedPayment over SOAP refuses too, and the other way round —
 * encoded control characters, invisible and bidi characters, URLs over 2,048 characters — and
 * neither stores a session for it. The same for a WebhookUrl.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { soapCall } from '../../test/kit/gateway/soap-call.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  type CheckoutWorld,
  openCheckoutWorld,
  SHOP_ORIGIN,
  sessionBody,
} from '../../test/kit/checkout/checkout-world.ts';

const REFUSED: readonly [string, string][] = [
  ['an encoded CR/LF', `${SHOP_ORIGIN}/thanks%0d%0aSet-Cookie:x=1`],
  ['an encoded NUL', `${SHOP_ORIGIN}/thanks?x=%00`],
  ['an encoded tab', `${SHOP_ORIGIN}/thanks?x=%09`],
  ['an encoded DEL', `${SHOP_ORIGIN}/thanks?x=%7F`],
  ['an encoded C1 control (NEL)', `${SHOP_ORIGIN}/thanks?x=%C2%85`],
  ['a raw C1 control (NEL)', `${SHOP_ORIGIN}/thanks?x=\u0085`],
  ['an encoded right-to-left override', `${SHOP_ORIGIN}/%E2%80%AEfdp.exe`],
  ['a raw zero-width space', `${SHOP_ORIGIN}/tha\u200Bnks`],
  ['2,049 characters', `${SHOP_ORIGIN}/${'a'.repeat(2049 - SHOP_ORIGIN.length - 1)}`],
  ['under 2,048 typed, over once encoded', `${SHOP_ORIGIN}/?q=${' '.repeat(700)}x`],
  ['a foreign origin', 'https://evil.example/thanks'],
  ['plain http', 'http://shop.example/thanks'],
];

describe.each(databaseTargets())('one ReturnUrl validator for REST and SOAP ($name)', (target) => {
  let w: CheckoutWorld;
  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open());
  });
  afterAll(() => w?.close());

  async function sessions(): Promise<number> {
    const { rows } = await w.db.query<{ n: string }>('select count(*) as n from checkout_sessions');
    return Number(rows[0]!.n);
  }

  const rest = (field: 'returnUrl' | 'webhookUrl', url: string) =>
    w.app.inject({
      method: 'POST',
      url: '/v1/checkout-sessions',
      headers: { authorization: w.merchant.authorization },
      payload: sessionBody({ [field]: url }),
    });

  const soap = (field: 'ReturnUrl' | 'WebhookUrl', url: string) =>
    soapCall(
      w.app,
      'CreateHostedPayment',
      { request: { MerchantID: w.merchant.id, Amount: '10.00', [field]: url } },
      { merchantId: w.merchant.id, key: w.merchant.key },
    );

  it.each(REFUSED)(
    'a ReturnUrl with %s: 400 over REST, Success=false over SOAP, nothing stored',
    async (_name, url) => {
      const before = await sessions();
      const r = await rest('returnUrl', url);
      expect(r.statusCode).toBe(400);
      expect(r.json().error.fields[0]).toMatchObject({ field: 'returnUrl', code: 'invalid_return_url' });
      const s = await soap('ReturnUrl', url);
      expect(s.status).toBe(200);
      expect(s.result).toMatchObject({ Success: false, ErrorField: 'returnUrl' });
      expect(await sessions()).toBe(before);
    },
  );

  it.each(REFUSED.filter(([name]) => !['a foreign origin'].includes(name)))(
    'a WebhookUrl with %s: refused on both paths',
    async (_name, url) => {
      const hook = url.replace(SHOP_ORIGIN, 'https://hooks.example');
      expect((await rest('webhookUrl', hook)).statusCode).toBe(400);
      expect((await soap('WebhookUrl', hook)).result).toMatchObject({
        Success: false,
        ErrorField: 'webhookUrl',
      });
    },
  );

  it('a ReturnUrl both accept is stored the same from either path', async () => {
    const url = `${SHOP_ORIGIN}/thanks?order=A-1&q=caf%C3%A9`;
    const r = await rest('returnUrl', url);
    expect(r.statusCode).toBe(201);
    const s = await soap('ReturnUrl', url);
    expect(s.result).toMatchObject({ Success: true });
    const { rows } = await w.db.query<{ return_url: string }>(
      'select return_url from checkout_sessions where token = any($1)',
      [[r.json().token, (s.result as { Token: string }).Token]],
    );
    expect(rows.map((row) => row.return_url)).toEqual([url, url]);
  });
});
