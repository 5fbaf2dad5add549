/**
 * Compression (issue 14 §14): API answers are compressed per request when the client accepts it
 * (Brotli first, then gzip; above 1 KB; `Vary: Accept-Encoding`), request bodies are never
 * decompressed, and the widget's files are sent as the `.br` / `.gz` made at build time
 * (scripts/compress-assets.ts), never compressed again per request.
 */
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressAssets } from '../../scripts/compress-assets.ts';
import {
  type CheckoutWorld,
  createSession,
  openCheckoutWorld,
} from '../../test/kit/checkout/checkout-world.ts';
import { databaseTargets, tempDir } from '../../test/kit/databases.ts';
import { registerCompression } from './compression.ts';
import { PAGE_CSP, registerWidgetAssets } from './widget-assets.ts';

const decoded = (res: LightMyRequestResponse): string => {
  const raw = res.rawPayload;
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(raw).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(raw).toString('utf8');
  return raw.toString('utf8');
};

describe.each(databaseTargets())('API answers compressed when accepted ($name)', (target) => {
  let w: CheckoutWorld;
  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open());
  });
  afterAll(() => w?.close());

  const get = (url: string, acceptEncoding?: string, authorization?: string) =>
    w.app.inject({
      method: 'GET',
      url,
      headers: {
        ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
        ...(authorization ? { authorization } : {}),
      },
    });

  it('Brotli first, gzip when only it is accepted, plain otherwise; the same document each time', async () => {
    const plain = await get('/v1/openapi.json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);

    const br = await get('/v1/openapi.json', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(decoded(br)).toBe(plain.body);

    const gzip = await get('/v1/openapi.json', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decoded(gzip)).toBe(plain.body);

    expect((await get('/v1/openapi.json', 'br;q=0, gzip;q=0')).headers['content-encoding']).toBeUndefined();
  });

  it('the SOAP service’s WSDL too (text/xml)', async () => {
    const plain = await get('/TransactionService.asmx?WSDL');
    const br = await get('/TransactionService.asmx?WSDL', 'br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(decoded(br)).toBe(plain.body);
  });

  it('not a small answer (under 1 KB): the bytes saved cost more than they save', async () => {
    const token = await createSession(w);
    const res = await get(`/v1/checkout-sessions/${token}`, 'br, gzip', w.merchant.authorization);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('never decompresses a request body', async () => {
    const res = await w.app.inject({
      method: 'POST',
      url: '/v1/checkout-sessions',
      headers: {
        authorization: w.merchant.authorization,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      payload: gzipSync(Buffer.from('{"amount":"1.00"}')),
    });
    // Read as it came: gzip bytes are not JSON. Decompressed, it would be a field error instead.
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).not.toBe('validation_failed');
  });
});

describe('the widget’s files, compressed once at build time', () => {
  const dist = tempDir('payframe-dist-');
  const loader = `(function(){${'window.Payframe = window.Payframe || {};\n'.repeat(80)}})();`;
  beforeAll(() => {
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      `<!doctype html><title>Payframe</title>${' '.repeat(300)}`,
    );
    fs.writeFileSync(path.join(dist, 'checkout.js'), loader);
    fs.writeFileSync(path.join(dist, 'assets', 'pay-1a2b.css'), `body{margin:0}\n`.repeat(40));
    fs.writeFileSync(path.join(dist, 'assets', 'tiny-3c4d.js'), 'export{};');
  });

  async function app() {
    const a = Fastify();
    await registerCompression(a);
    await registerWidgetAssets(a, dist);
    return a;
  }

  it('writes .br and .gz beside each text file worth it, not beside a tiny one', () => {
    const written = compressAssets(dist).map((f) => f.file);
    expect(written.sort()).toEqual(['assets/pay-1a2b.css', 'checkout.js', 'index.html']);
    expect(brotliDecompressSync(fs.readFileSync(path.join(dist, 'checkout.js.br'))).toString()).toBe(loader);
    expect(gunzipSync(fs.readFileSync(path.join(dist, 'checkout.js.gz'))).toString()).toBe(loader);
    expect(fs.existsSync(path.join(dist, 'assets', 'tiny-3c4d.js.br'))).toBe(false);
  });

  it('sends the file made at build time by content negotiation, with the plain file’s headers', async () => {
    compressAssets(dist);
    // A marker in the build's .br: what arrives must be that file, not a fresh compression.
    const marked = `${loader}/* from checkout.js.br */`;
    fs.writeFileSync(path.join(dist, 'checkout.js.br'), brotliCompressSync(marked));
    const a = await app();
    const br = await a.inject({ url: '/checkout.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(marked);
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(br.headers['cache-control']).toBe('public, max-age=300');
    expect(br.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(br.headers.vary).toMatch(/accept-encoding/i);

    const gz = await a.inject({ url: '/checkout.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(loader);

    const plain = await a.inject({ url: '/checkout.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(loader);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);

    const css = await a.inject({ url: '/assets/pay-1a2b.css', headers: { 'accept-encoding': 'br' } });
    expect(css.headers['content-encoding']).toBe('br');
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const index = await a.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
    expect(index.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(index.rawPayload).toString()).toContain('<title>Payframe</title>');
    // A page asked for by its file name keeps the pages' CSP and is not cached.
    for (const encoding of ['br', 'identity']) {
      const byName = await a.inject({ url: '/index.html', headers: { 'accept-encoding': encoding } });
      expect(byName.statusCode).toBe(200);
      expect(byName.headers['content-security-policy']).toBe(PAGE_CSP);
      expect(byName.headers['cache-control']).toBe('no-store');
    }
    await a.close();
  });
});
