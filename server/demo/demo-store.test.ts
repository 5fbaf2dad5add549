/**
 * The demo store without a running Payframe: its headers, its redirect check (against the
 * canonical string Payframe signs), and its guide-example routes. Payments through it are the
 * embed browser tests (e2e/2x-*).
 */
import crypto from 'node:crypto';
import { afterAll, describe, expect, test } from 'vitest';
import { canonicalRedirectString } from '../../shared/checkout/redirect-signature.ts';
import { buildDemoStore } from './demo-store.ts';
import { guideSnippet } from './guide-examples.ts';
import { productPage } from './pages.ts';
import { verifyRedirect } from './verify-redirect.ts';

const KEY = 'demo-transaction-key-0123456789';
const credentials = { merchantId: '100001', transactionKey: KEY };
const params = {
  status: 'succeeded',
  token: 'cs_Xk3VqZ8bH1nD0cR5tY7wM2pL9sA4fG6jE3uI8oB1xQz',
  transactionId: '500000001',
  orderNumber: 'DEMO-1A2B3C4D',
  amount: '24.99',
  currency: 'USD',
  timestamp: '1767225600',
};
const sign = (p: typeof params, key = KEY) =>
  crypto.createHmac('sha256', key).update(canonicalRedirectString(p)).digest('hex');

describe('verifyRedirect', () => {
  test('accepts what Payframe signs, refuses a changed value, another key or a malformed signature', () => {
    const query = new URLSearchParams({ ...params, signature: sign(params) });
    expect(verifyRedirect(query, KEY)).toBe(true);
    expect(
      verifyRedirect(new URLSearchParams({ ...params, amount: '0.01', signature: sign(params) }), KEY),
    ).toBe(false);
    expect(verifyRedirect(new URLSearchParams({ ...params, signature: sign(params, 'other') }), KEY)).toBe(
      false,
    );
    expect(verifyRedirect(new URLSearchParams({ ...params, signature: 'abc' }), KEY)).toBe(false);
    // As many characters as a signature but more bytes: refused, not thrown.
    const wide = `é${sign(params).slice(1)}`;
    expect(verifyRedirect(new URLSearchParams({ ...params, signature: wide }), KEY)).toBe(false);
    expect(verifyRedirect(new URLSearchParams(params), KEY)).toBe(false);
  });
});

describe('demo store routes', async () => {
  const app = await buildDemoStore({
    apiUrl: 'http://127.0.0.1:9', // never reached by these requests
    payframeUrl: 'http://127.0.0.1:3000',
    credentials,
    origins: ['http://localhost:3001'],
  });
  afterAll(() => app.close());

  test('/return shows "Payment verified" for a signed redirect with the store CSP, "Signature invalid" otherwise', async () => {
    const good = await app.inject(`/return?${new URLSearchParams({ ...params, signature: sign(params) })}`);
    expect(good.statusCode).toBe(200);
    expect(good.body).toContain('<h1 id="return-result">Payment verified</h1>');
    expect(good.body).toContain('This order is not one this store created.');
    expect(good.headers['content-security-policy']).toBe(
      "default-src 'self'; script-src 'self' http://127.0.0.1:3000; frame-src http://127.0.0.1:3000; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; object-src 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    const bad = await app.inject(
      `/return?${new URLSearchParams({ ...params, orderNumber: '<script>x</script>', signature: sign(params) })}`,
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('<h1 id="return-result">Signature invalid</h1>');
    expect(bad.body).not.toContain('<script>x');
  });

  test('guide examples: an unknown name is 404; a script without an example page is 404', async () => {
    expect((await app.inject('/guide/no-such-example')).statusCode).toBe(404);
    expect((await app.inject('/checkout-page.js')).statusCode).toBe(404);
    const js = await app.inject({
      url: '/checkout-page.js',
      headers: { referer: 'http://localhost:3001/guide/embed-iframe' },
    });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.body).toContain("const PAYFRAME_ORIGIN = 'http://127.0.0.1:3000';");
    expect(guideSnippet('embed-iframe-js')).toContain("const PAYFRAME_ORIGIN = 'https://pay.example';");
  });
});

describe('the product page', () => {
  test("points to Payframe's outbox for the one-time codes where there is one, and only there", () => {
    const sessions = [{ token: 'a' }, { token: 'b' }, { url: 'http://127.0.0.1:3000/pay/c' }] as const;
    const page = productPage('http://127.0.0.1:3000', ...sessions, 'http://127.0.0.1:3000/dev/outbox');
    expect(page).toContain('<a href="http://127.0.0.1:3000/dev/outbox">http://127.0.0.1:3000/dev/outbox</a>');
    expect(page).toContain('one-time code');
    expect(productPage('https://pay.example', ...sessions, null)).not.toContain('outbox');
  });
});
