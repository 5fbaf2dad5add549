/**
 * GET /pay/:token: the hosted page's headers (security-requirements.md EMB-1, EMB-2, CJ-1, HDR-1)
 * through the real app — framing refused for the full page, allowed to the merchant's registered
 * origins only in embed mode, no caching, HSTS only over https.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WIDGET_DIST } from '../http/widget-assets.ts';
import { databaseTargets } from '../testing/databases.ts';
import { payPageCsp } from './pages.ts';
import {
  type CheckoutWorld,
  createSession,
  openCheckoutWorld,
  SHOP_ORIGIN,
} from './testing/checkout-world.ts';

function directives(csp: string | undefined): Map<string, string> {
  return new Map(
    (csp ?? '').split(';').map((d) => {
      const [name = '', ...rest] = d.trim().split(/\s+/);
      return [name, rest.join(' ')] as const;
    }),
  );
}

const built = fs.existsSync(path.join(WIDGET_DIST, 'pay.html'));

describe('GET /pay/:token', () => {
  let w: CheckoutWorld;
  let token: string;
  beforeAll(async () => {
    w = await openCheckoutWorld(await databaseTargets()[0]!.open(), { env: { TRUST_PROXY: 'true' } });
    token = await createSession(w);
  });
  afterAll(() => w.close());

  it('serves the page with a CSP that allows the 3-D Secure frame and refuses every framer', async () => {
    const res = await w.app.inject(`/pay/${token}`);
    expect(res.statusCode).toBe(built ? 200 : 503);
    if (built) expect(res.body).toContain('<main id="app">');
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

  it('never lets an origin add a source or a directive', () => {
    expect(payPageCsp(['https://shop.example'])).toContain('frame-ancestors https://shop.example;');
    expect(payPageCsp([])).toContain("frame-ancestors 'none'");
  });
});
