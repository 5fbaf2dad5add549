/**
 * GET /pay/:token: the hosted page's headers (security-requirements.md EMB-1, EMB-2, CJ-1, HDR-1)
 * through the real app — framing refused for the full page, allowed to the merchant's registered
 * origins only in embed mode, no caching, HSTS only over https — and the session state its HTML
 * carries (shared/checkout/page-state.ts): the API's answer, inert whatever the merchant wrote in it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_STATE_ID } from '../../shared/checkout/page-state.ts';
import { WidgetSession } from '../../shared/checkout/pay-schemas.ts';
import type { TransactionService } from '../../shared/contract/service.ts';
import { WIDGET_DIST } from '../http/widget-assets.ts';
import type { CallContext } from '../soap/call-context.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { payPageCsp } from './pages.ts';
import {
  type CheckoutWorld,
  cardBody,
  createSession,
  openCheckoutWorld,
  pay,
  SHOP_ORIGIN,
} from '../../test/kit/checkout/checkout-world.ts';

function directives(csp: string | undefined): Map<string, string> {
  return new Map(
    (csp ?? '').split(';').map((d) => {
      const [name = '', ...rest] = d.trim().split(/\s+/);
      return [name, rest.join(' ')] as const;
    }),
  );
}

const built = fs.existsSync(path.join(WIDGET_DIST, 'pay.html'));

const BLOCK = new RegExp(`<script type="application/json" id="${SESSION_STATE_ID}">([^<]*)</script>`, 'g');

/** The state blocks of a page (one, or none when the page could not ask). */
function stateBlocks(html: string): string[] {
  return [...html.matchAll(BLOCK)].map((m) => m[1]!);
}

describe('GET /pay/:token', () => {
  let w: CheckoutWorld;
  let token: string;
  /** While true, every gateway call fails as an unreachable gateway's would. */
  let gatewayDown = false;
  beforeAll(async () => {
    w = await openCheckoutWorld(await databaseTargets()[0]!.open(), {
      env: { TRUST_PROXY: 'true' },
      wrapPort: (port) =>
        new Proxy(port, {
          get: (target, name, receiver) => {
            const real: unknown = Reflect.get(target, name, receiver);
            if (typeof real !== 'function') return real;
            return (...args: unknown[]) => {
              if (gatewayDown) return Promise.reject(new Error('connect ECONNREFUSED'));
              return (real as (...a: unknown[]) => unknown).apply(target, args);
            };
          },
        }) as TransactionService<CallContext>,
    });
    token = await createSession(w);
  });
  afterAll(() => w.close());

  it('serves the page with a CSP that allows the 3-D Secure frame and refuses every framer', async () => {
    const res = await w.app.inject(`/pay/${token}`);
    expect(res.statusCode).toBe(built ? 200 : 503);
    // Rendered on the server (data-rendered) when the server-rendering build is there too.
    if (built) expect(res.body).toMatch(/<main id="app"( data-rendered)?>/);
    const d = directives(res.headers['content-security-policy'] as string);
    expect(d.get('frame-ancestors')).toBe("'none'");
    expect(d.get('frame-src')).toBe("'self'");
    expect(d.get('default-src')).toBe("'none'");
    expect(d.get('script-src')).toBe("'self'");
    expect(d.get('connect-src')).toBe("'self'");
    expect(d.get('object-src')).toBe("'none'");
    expect(d.get('base-uri')).toBe("'none'");
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it("lets only the merchant's registered origins frame the embed mode", async () => {
    const res = await w.app.inject(`/pay/${token}?embed=1&instance=a1`);
    const ancestors =
      directives(res.headers['content-security-policy'] as string).get('frame-ancestors') ?? '';
    expect(ancestors.split(' ')).toContain(SHOP_ORIGIN);
    expect(ancestors).not.toContain("'none'");
    expect(ancestors).not.toContain('*');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers an unknown or malformed token without a framing allowance', async () => {
    const unknown = await w.app.inject(`/pay/cs_${'A'.repeat(43)}?embed=1`);
    expect(directives(unknown.headers['content-security-policy'] as string).get('frame-ancestors')).toBe(
      "'none'",
    );
    const malformed = await w.app.inject('/pay/not-a-token?embed=1');
    expect(malformed.statusCode).toBe(built ? 404 : 503);
    expect(directives(malformed.headers['content-security-policy'] as string).get('frame-ancestors')).toBe(
      "'none'",
    );
  });

  it('sends HSTS when the request came over https (through a trusted proxy)', async () => {
    const res = await w.app.inject({ url: `/pay/${token}`, headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it("lets the merchant's https logo in, by its exact origin only", async () => {
    const plain = directives(
      (await w.app.inject(`/pay/${token}`)).headers['content-security-policy'] as string,
    );
    expect(plain.get('img-src')).toBe("'self' data:");
    await w.db.query('update merchants set logo_url = $2 where id = $1', [
      w.merchant.id,
      'https://cdn.shop.example/brand/logo.svg?v=3',
    ]);
    try {
      const res = await w.app.inject(`/pay/${token}?embed=1`);
      const d = directives(res.headers['content-security-policy'] as string);
      expect(d.get('img-src')).toBe("'self' data: https://cdn.shop.example");
      expect(d.get('script-src')).toBe("'self'");
    } finally {
      await w.db.query('update merchants set logo_url = null where id = $1', [w.merchant.id]);
    }
  });

  it.skipIf(!built)('carries the session the API answers, so the app needs no round trip', async () => {
    const page = await w.app.inject(`/pay/${token}`);
    const api = await w.app.inject(`/api/checkout/sessions/${token}`);
    const [block, ...more] = stateBlocks(page.body);
    expect(more).toEqual([]);
    const state = WidgetSession.parse(JSON.parse(block!));
    expect(state).toEqual(api.json());
    expect(state.status).toBe('open');
    // Nothing secret: the merchant's key is nowhere in the page.
    expect(page.body).not.toContain(w.merchant.key);
    // The embed mode is the same page with the same state.
    const embedded = await w.app.inject(`/pay/${token}?embed=1&instance=a1`);
    expect(stateBlocks(embedded.body)).toEqual([block]);
  });

  it.skipIf(!built)(
    'embeds a hostile order number and shopper name inertly, under the same CSP',
    async () => {
      // (U+2028/2029 never reach a page: the text policy refuses them when the session is made.)
      const evil = "</script><script>alert(1)</script><!--$'$&";
      const hostile = await createSession(w, {
        orderNumber: evil.slice(0, 64),
        shopper: { email: 'ada@example.com', firstName: '<!--<script>', lastName: 'x</SCRIPT>' },
      });
      const plain = await w.app.inject(`/pay/${token}`);
      const res = await w.app.inject(`/pay/${hostile}`);
      expect(res.statusCode).toBe(200);
      // The page is the plain one plus exactly one block: no element was opened or closed by the data.
      const scripts = (html: string) => html.match(/<\/?script\b/gi)?.length ?? 0;
      expect(scripts(res.body)).toBe(scripts(plain.body));
      expect(res.body).not.toContain('alert(1)</script>');
      expect(res.body).not.toMatch(/[\u2028\u2029]/);
      expect(res.body.match(/<!--/g)).toBeNull();
      const [block] = stateBlocks(res.body);
      expect(block).toContain('\\u003c/script\\u003e\\u003cscript\\u003ealert(1)');
      const state = WidgetSession.parse(JSON.parse(block!));
      expect(state.orderNumber).toBe(evil.slice(0, 64));
      expect(state.shopper).toMatchObject({ firstName: '<!--<script>', lastName: 'x</SCRIPT>' });
      // The CSP is the ordinary page's (its stylesheet's nonce is fresh per response): a data block
      // is never run, so no script hash, nonce or 'unsafe-inline'.
      const csp = res.headers['content-security-policy'] as string;
      const anyNonce = (policy: unknown) => String(policy).replace(/'nonce-[^']+'/g, "'nonce'");
      expect(anyNonce(csp)).toBe(anyNonce(plain.headers['content-security-policy']));
      expect(directives(csp).get('script-src')).toBe("'self'");
      expect(csp).not.toMatch(/unsafe-inline|sha(256|384|512)-/);
    },
  );

  it.skipIf(!built)('says "no such session" for an unknown or malformed token', async () => {
    const unknown = await w.app.inject(`/pay/cs_${'A'.repeat(43)}`);
    expect(unknown.statusCode).toBe(200);
    expect(stateBlocks(unknown.body)).toEqual(['null']);
    const malformed = await w.app.inject('/pay/not-a-token');
    expect(stateBlocks(malformed.body)).toEqual(['null']);
  });

  it.skipIf(!built)('carries the receipt of a paid session', async () => {
    const paid = await createSession(w);
    expect((await pay(w.app, paid, cardBody())).statusCode).toBe(200);
    const [block] = stateBlocks((await w.app.inject(`/pay/${paid}`)).body);
    const state = WidgetSession.parse(JSON.parse(block!));
    expect(state.status).toBe('paid');
    expect(state.receipt?.maskedCard).toBe('•••• 4242');
    expect(block).not.toContain('4242424242424242');
  });

  it.skipIf(!built)('says its language on the root element, as the app will choose it', async () => {
    const es = await createSession(w, { locale: 'es-MX' });
    const page = async (url: string, acceptLanguage?: string) =>
      (await w.app.inject({ url, headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {} }))
        .body;
    expect(await page(`/pay/${es}`)).toContain('<html lang="es" dir="ltr">');
    expect(await page(`/pay/${token}`)).toContain('<html lang="en" dir="ltr">');
    expect(await page(`/pay/${token}?locale=es`)).toContain('<html lang="es" dir="ltr">');
    // The session's locale before the widget's, the widget's before the browser's.
    expect(await page(`/pay/${es}?locale=fr`, 'fr')).toContain('<html lang="es"');
    expect(await page(`/pay/${token}?locale=es`, 'fr')).toContain('<html lang="es"');
    // The browser's by q-value (fr-CA reads French), q=0 never, then English.
    expect(await page(`/pay/${token}`, 'fr-CA, es;q=0.8')).toContain('<html lang="fr" dir="ltr">');
    expect(await page(`/pay/${token}`, 'fr;q=0.2, es;q=0.9')).toContain('<html lang="es"');
    expect(await page(`/pay/${token}`, 'es;q=0, nb')).toContain('<html lang="en"');
    // Arabic and Hebrew right to left from the first paint; Chinese and Portuguese by their fallbacks.
    expect(await page(`/pay/${token}`, 'ar-EG')).toContain('<html lang="ar" dir="rtl">');
    expect(await page(`/pay/${token}?locale=iw`)).toContain('<html lang="he" dir="rtl">');
    expect(await page(`/pay/${token}`, 'zh-Hans-CN')).toContain('<html lang="zh-CN" dir="ltr">');
    expect(await page(`/pay/${token}`, 'zh-TW, pt-PT;q=0.5')).toContain('<html lang="pt-BR" dir="ltr">');
  });

  it.skipIf(!built)('goes out without state when the gateway does not answer: the app asks', async () => {
    gatewayDown = true;
    try {
      const res = await w.app.inject(`/pay/${token}?embed=1`);
      expect(res.statusCode).toBe(200);
      expect(stateBlocks(res.body)).toEqual([]);
      expect(directives(res.headers['content-security-policy'] as string).get('frame-ancestors')).toBe(
        "'none'",
      );
    } finally {
      gatewayDown = false;
    }
  });

  it('never lets an origin add a source or a directive', () => {
    expect(payPageCsp(['https://shop.example'])).toContain('frame-ancestors https://shop.example;');
    expect(payPageCsp([])).toContain("frame-ancestors 'none'");
  });
});
