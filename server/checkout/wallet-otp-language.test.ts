/**
 * The one-time code's e-mail and SMS in the shopper's language (issue 17; server/i18n): the form's
 * (`lang` in the request), else the session's locale, else the browser's Accept-Language on the
 * widget's request, else English.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, futureExpiry } from '../../test/kit/gateway/gateway-kit.ts';
import { listOutbox } from '../notify/outbox.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  type CheckoutWorld,
  createSession,
  openCheckoutWorld,
  SERVICE_KEY,
  WIDGET_HEADERS,
} from '../../test/kit/checkout/checkout-world.ts';

let shoppers = 0;
function newShopper() {
  shoppers += 1;
  const n = `${Date.now() % 100000}${shoppers}`;
  return { email: `lang.${n}@example.com`, phone: `+1415556${String(1000 + shoppers).padStart(4, '0')}` };
}

describe.each(databaseTargets())("one-time codes in the shopper's language ($name)", (target) => {
  let w: CheckoutWorld;
  let ips = 0;

  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open());
  });
  afterAll(() => w?.close());

  /** A shopper with a saved card (a code goes only to a contact that has one) and their session. */
  async function shopperSession(locale?: string) {
    const shopper = newShopper();
    const status = await call(
      w.app,
      'UpdateToken',
      {
        token: {
          MerchantID: w.merchant.id,
          IsValidateCard: false,
          CardEmail: shopper.email,
          PhoneNumber: shopper.phone,
          CardNumber: '4242424242424242',
          ExpirationDate: futureExpiry(),
          NameOnCard: 'Ada Lovelace',
        },
      },
      { service: SERVICE_KEY },
    );
    expect(status.Status).toBe(true);
    const token = await createSession(w, {
      ...(locale ? { locale } : {}),
      shopper: { email: shopper.email, firstName: 'Ada', lastName: 'Lovelace', phone: shopper.phone },
    });
    const view = await w.app.inject({ url: `/api/checkout/sessions/${token}`, headers: WIDGET_HEADERS });
    const merchant = (view.json() as { merchant: { name: string | null } }).merchant.name;
    expect(merchant).toBeTruthy();
    return { shopper, token, merchant: merchant! };
  }

  /** Asks for a code and returns what the outbox holds for `to`. */
  async function send(token: string, body: object, to: string, acceptLanguage?: string) {
    const res = await w.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${token}/wallet/send-code`,
      remoteAddress: `198.51.100.${(ips += 1) + 100}`,
      headers: { ...WIDGET_HEADERS, ...(acceptLanguage ? { 'accept-language': acceptLanguage } : {}) },
      payload: JSON.stringify(body),
    });
    expect(res.statusCode).toBe(202);
    await w.t.gateway.deps.notifier.flush();
    const [message] = await listOutbox(w.db, { to });
    expect(message).toBeDefined();
    const code = /\b(\d{6})\b/.exec(message!.text)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    return { message: message!, code: code! };
  }

  it("writes the e-mail in the session's locale, whatever the browser asks", async () => {
    const { shopper, token, merchant } = await shopperSession('es-MX');
    const { message, code } = await send(token, { email: shopper.email }, shopper.email, 'de-DE,de;q=0.9');
    expect(message.subject).toBe(`Su código de Payframe: ${code}`);
    expect(message.text).toContain(`Su código para usar sus tarjetas guardadas en ${merchant} es ${code}.`);
    expect(message.text).toContain('Caduca en 10 minutos');
  });

  it("the form's language, when the request says it, over the session's", async () => {
    const { shopper, token, merchant } = await shopperSession('es');
    const { message, code } = await send(token, { email: shopper.email, lang: 'sv' }, shopper.email);
    expect(message.subject).toBe(`Din Payframe-kod: ${code}`);
    expect(message.text).toContain(`Din kod för att använda dina sparade kort hos ${merchant} är ${code}.`);
    const bad = await w.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${token}/wallet/send-code`,
      remoteAddress: '198.51.100.250',
      headers: WIDGET_HEADERS,
      payload: JSON.stringify({ email: shopper.email, lang: 'tlh' }),
    });
    expect(bad.statusCode).toBe(400);
  });

  it("without a session locale, the browser's language: an SMS in Japanese", async () => {
    const { shopper, token, merchant } = await shopperSession();
    const { message, code } = await send(token, { phone: shopper.phone }, shopper.phone, 'ja-JP, en;q=0.5');
    expect(message.text).toBe(
      `Payframe の確認コード: ${code}（${merchant} で保存済みのカードを使うためのコードです）。有効期限は 10 分です。他の人には絶対に教えないでください。`,
    );
  });

  it('neither: English, as before', async () => {
    const { shopper, token, merchant } = await shopperSession();
    const { message, code } = await send(token, { email: shopper.email }, shopper.email);
    expect(message.subject).toBe(`Your Payframe code: ${code}`);
    expect(message.text).toContain(`Your code to use your saved cards at ${merchant} is ${code}.`);
  });
});
