/**
 * Compression in a real browser (issue 14 §14): Chromium asks for Brotli, and the hosted page's
 * scripts and stylesheets, the embed loader and the API's larger answers arrive Brotli-encoded
 * (the widget's files as made at build time), and the page still works.
 */
import { expect, test } from '@playwright/test';
import { createSession } from './helpers/checkout.ts';

test('the hosted page’s files and the loader arrive Brotli-encoded, and the page works', async ({
  page,
  request,
}) => {
  const session = await createSession(request);
  const encodings = new Map<string, string | undefined>();
  page.on('response', (res) => {
    const url = new URL(res.url());
    if (/^\/assets\/.+\.(?:js|css)$/.test(url.pathname))
      encodings.set(url.pathname, res.headers()['content-encoding']);
  });
  await page.goto(session.url);
  await expect(page.getByRole('button', { name: /^Pay/ })).toBeVisible();
  expect(encodings.size).toBeGreaterThan(0);
  for (const [file, encoding] of encodings) expect(encoding, file).toBe('br');

  const loader = await page.request.get('/checkout.js', { headers: { 'accept-encoding': 'br, gzip' } });
  expect(loader.headers()['content-encoding']).toBe('br');
  expect(loader.headers()['content-type']).toBe('text/javascript; charset=utf-8');
  expect(await loader.text()).toContain('payframe:loaded');

  const openapi = await page.request.get('/v1/openapi.json', { headers: { 'accept-encoding': 'gzip' } });
  expect(openapi.headers()['content-encoding']).toBe('gzip');
  expect((await openapi.json()).openapi).toMatch(/^3\.1/);
});
