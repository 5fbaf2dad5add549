/**
 * The pinned loader (pinned-loader.ts): `/checkout.json` names the current build and its SRI
 * hash; that address serves exactly those bytes, immutable and CORS-readable; after an upgrade the
 * old address still serves the old bytes (from the database, on any instance), so a merchant page
 * pinned with `integrity` keeps working.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { databaseTargets, tempDir } from '../../test/kit/databases.ts';
import { acceptedEncoding, registerPinnedLoader } from './pinned-loader.ts';

describe('acceptedEncoding', () => {
  it('Brotli, else gzip, else none; q=0 refuses', () => {
    expect(acceptedEncoding('gzip, deflate, br')).toBe('br');
    expect(acceptedEncoding('gzip;q=0.5, br;q=0')).toBe('gzip');
    expect(acceptedEncoding('BR;q=1.0')).toBe('br');
    expect(acceptedEncoding('*')).toBe('gzip');
    expect(acceptedEncoding('deflate')).toBe('identity');
    expect(acceptedEncoding('gzip;q=0')).toBe('identity');
    expect(acceptedEncoding(undefined)).toBe('identity');
  });
});

async function instance(db: Database, body: string) {
  const file = path.join(tempDir('payframe-loader-'), 'checkout.js');
  fs.writeFileSync(file, body);
  const app = Fastify();
  await registerPinnedLoader(app, db, file);
  return app;
}

describe.each(databaseTargets())('the pinned loader ($name)', (target) => {
  let db: Database;
  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(() => db?.close());

  it('names the build and its SRI hash, serves those bytes for good, also after an upgrade', async () => {
    const v1 = `(function(){/* build ${crypto.randomUUID()} */})();`;
    const first = await instance(db, v1);
    const manifest = (await first.inject('/checkout.json')).json() as { src: string; integrity: string };
    expect(manifest.src).toMatch(/^\/checkout\.[0-9a-f]{16}\.js$/);
    const pinned = await first.inject(manifest.src);
    expect(pinned.statusCode).toBe(200);
    expect(pinned.body).toBe(v1);
    expect(manifest.integrity).toBe(`sha384-${crypto.createHash('sha384').update(v1).digest('base64')}`);
    expect(pinned.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(pinned.headers['access-control-allow-origin']).toBe('*');
    expect(pinned.headers['content-type']).toBe('text/javascript; charset=utf-8');
    await first.close();

    // An upgraded instance: the manifest moves on; the old pinned address still has the old bytes.
    const v2 = `(function(){/* build ${crypto.randomUUID()} */})();`;
    const upgraded = await instance(db, v2);
    const next = (await upgraded.inject('/checkout.json')).json() as { src: string };
    expect(next.src).not.toBe(manifest.src);
    expect((await upgraded.inject(next.src)).body).toBe(v2);
    const old = await upgraded.inject(manifest.src);
    expect(old.statusCode).toBe(200);
    expect(old.body).toBe(v1);
    await upgraded.close();
  });

  it('sends each build compressed as the client accepts, the same bytes once decoded', async () => {
    const body = `(function(){/* build ${crypto.randomUUID()} */${' var a = 1;'.repeat(100)}})();`;
    const app = await instance(db, body);
    const { src } = (await app.inject('/checkout.json')).json() as { src: string };
    const br = await app.inject({ url: src, headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(body);
    const gz = await app.inject({ url: src, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(body);
    const plain = await app.inject(src);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(body);
    await app.close();
  });

  it('answers 404 for a version it never served, or a malformed address', async () => {
    const app = await instance(db, `/* ${crypto.randomUUID()} */`);
    for (const url of [
      '/checkout.0123456789abcdef.js',
      '/checkout.XYZ.js',
      '/checkout.0123.js',
      '/checkout.x',
    ]) {
      expect((await app.inject(url)).statusCode).toBe(404);
    }
    await app.close();
  });
});
