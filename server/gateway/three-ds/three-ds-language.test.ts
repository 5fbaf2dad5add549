/**
 * The sandbox bank's pages in the shopper's language (issue 17; server/i18n): the form's own
 * (`?lang=` on the challenge URL), else the checkout session's locale, else the browser's
 * Accept-Language, else English; Arabic and Hebrew right to left with the
 * amount left to right.
 */
import crypto from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { registerErrorHandling } from '../../http/error-handler.ts';
import { databaseTargets } from '../../../test/kit/databases.ts';
import { threeDsRoutes } from './three-ds-routes.ts';
import { ThreeDsService } from './three-ds-service.ts';

const HOST = 'pay.example.test';

describe("3-D Secure sandbox pages in the shopper's language", () => {
  let db: Database;
  const t: { app: FastifyInstance } = { app: Fastify() };
  let merchantId: string;
  const service = new ThreeDsService({ secret: crypto.randomBytes(32), now: () => new Date() });

  beforeAll(async () => {
    db = await databaseTargets()[0]!.open();
    const { rows } = await db.query<{ id: string }>(
      `insert into merchants (public_code, name, transaction_key_enc, reader_key_enc)
       values ('m3ds-lang', 'Tienda Sol', 'x', 'x') returning id`,
    );
    merchantId = rows[0]!.id;
    registerErrorHandling(t.app);
    await t.app.register(threeDsRoutes, { db, service });
  });
  afterAll(async () => {
    await t.app.close();
    await db.close();
  });

  /** A challenge for a checkout session in `locale` (null: a session without one; undefined: no session). */
  async function challenge(locale?: string | null) {
    let checkoutSessionId: string | null = null;
    if (locale !== undefined) {
      const { rows } = await db.query<{ id: string }>(
        `insert into checkout_sessions (token, merchant_id, amount, locale, expires_at)
         values ($1, $2, 12.34, $3, now() + interval '1 hour') returning id::text as id`,
        [`cs_lang_${crypto.randomBytes(8).toString('hex')}`, merchantId, locale],
      );
      checkoutSessionId = rows[0]!.id;
    }
    return service.createChallenge(db, {
      merchantId,
      cardFingerprint: 'fp_lang',
      amountCents: 123456n,
      checkoutSessionId,
    });
  }
  const get = (url: string, acceptLanguage?: string) =>
    t.app.inject({
      url,
      headers: { host: HOST, ...(acceptLanguage ? { 'accept-language': acceptLanguage } : {}) },
    });

  it("speaks the session's locale, whatever the browser asks", async () => {
    const c = await challenge('ar');
    const html = (await get(c.url, 'ja,en;q=0.5')).body;
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain('<title>بنك Payframe التجريبي — التحقق من هذا الدفع</title>');
    expect(html).toContain('<button type="submit" name="outcome" value="authenticate">مصادقة</button>');
    expect(html).toContain('<dd dir="ltr">USD 1,234.56</dd>');
    expect(html).not.toContain('Authenticate');
  });

  it("shows the amount in the session's currency (a euro session: EUR, never USD)", async () => {
    const { rows } = await db.query<{ id: string }>(
      `insert into checkout_sessions (token, merchant_id, amount, currency, locale, expires_at)
       values ($1, $2, 12.50, 'EUR', 'de', now() + interval '1 hour') returning id::text as id`,
      [`cs_eur_${crypto.randomBytes(8).toString('hex')}`, merchantId],
    );
    const c = await service.createChallenge(db, {
      merchantId,
      cardFingerprint: 'fp_eur',
      amountCents: 1250n,
      checkoutSessionId: rows[0]!.id,
    });
    const html = (await get(c.url, 'en')).body;
    expect(html).toContain('<html lang="de" dir="ltr">');
    expect(html).toContain('<dd dir="ltr">EUR 12.50</dd>');
    expect(html).not.toContain('USD');
  });

  it("the form's language, when its challenge URL says it, over the session's; the answer keeps it", async () => {
    const c = await challenge('ar');
    const html = (await get(`${c.url}?lang=ja`, 'de')).body;
    expect(html).toContain('<html lang="ja" dir="ltr">');
    expect(html).toContain(`<form method="post" action="${c.url}?lang=ja">`);
    const done = await t.app.inject({
      method: 'POST',
      url: `${c.url}?lang=ja`,
      headers: { host: HOST, origin: `http://${HOST}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'outcome=fail',
    });
    expect(done.body).toContain('<html lang="ja" dir="ltr">');
    expect(done.body).toContain('認証に失敗しました');
    // A language Payframe does not speak passes to the session's.
    expect((await get(`${c.url}?lang=tlh`)).body).toContain('<html lang="ar" dir="rtl">');
  });

  it("else the browser's languages by q-value", async () => {
    const c = await challenge(null);
    const html = (await get(c.url, 'nb, ja;q=0.9, de;q=0.8')).body;
    expect(html).toContain('<html lang="ja" dir="ltr">');
    expect(html).toContain('>認証する</button>');
    expect(html).toContain('>認証を失敗させる</button>');
    // The expiry's <time> element goes into the sentence whole.
    expect(html).toMatch(/有効期限は <time datetime="[^"]+">\d\d:\d\d UTC<\/time> です。/);
  });

  it("a merchant's own sale (no session) follows the browser; none asked: English", async () => {
    const c = await challenge();
    expect((await get(c.url, 'pt-PT')).body).toContain('>Simular falha</button>');
    const english = (await get(c.url)).body;
    expect(english).toContain('<html lang="en" dir="ltr">');
    expect(english).toContain('>Fail authentication</button>');
  });

  it('the result and error pages are translated too', async () => {
    const c = await challenge('he');
    const done = await t.app.inject({
      method: 'POST',
      url: c.url,
      headers: { host: HOST, origin: `http://${HOST}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'outcome=authenticate',
    });
    expect(done.body).toContain('<html lang="he" dir="rtl">');
    expect(done.body).toContain('התשלום אומת');
    expect(done.body).toContain('<dl dir="ltr">');

    const refused = await t.app.inject({
      method: 'POST',
      url: c.url,
      headers: { host: HOST, origin: 'https://evil.example', 'accept-language': 'fr-CA' },
      payload: '',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('Requête refusée');
    expect((await get('/3ds/challenge/nope', 'zh-CN')).body).toContain('未找到验证');
  });
});
