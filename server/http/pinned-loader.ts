/**
 * The embed loader at a pinned, immutable address for Subresource Integrity (security-requirements
 * §1a, PCI DSS 6.4.3; attack row 33): `/checkout.json` names the current build
 * (`{"src": "/checkout.<version>.js", "integrity": "sha384-…"}`) and `/checkout.<version>.js` serves
 * those exact bytes for good. Each build is kept in the database the first time an instance serves
 * it, so a page pinned to it keeps working after Payframe is upgraded, on every instance.
 * `/checkout.js` stays the unpinned address that always has the latest build. Each build is
 * compressed once per instance (Brotli and gzip, as scripts/compress-assets.ts does at build time)
 * and sent in the encoding the client accepts; the integrity hash is of the decoded bytes, as SRI
 * checks them.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/database.ts';

/** 16 hex digits of the build's SHA-256: the address changes whenever one byte does. */
const VERSION = /^[0-9a-f]{16}$/;

export interface LoaderBuild {
  version: string;
  integrity: string;
  body: Buffer;
}

export function loaderBuild(body: Buffer): LoaderBuild {
  return {
    version: crypto.createHash('sha256').update(body).digest('hex').slice(0, 16),
    integrity: `sha384-${crypto.createHash('sha384').update(body).digest('base64')}`,
    body,
  };
}

type Encoding = 'br' | 'gzip';
type Encoded = Record<Encoding | 'identity', Buffer>;

function encode(body: Buffer): Encoded {
  const br = brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
  });
  return { identity: body, br, gzip: gzipSync(body, { level: 9 }) };
}

/** Brotli, else gzip, else the plain bytes, by the request's Accept-Encoding (q=0 refuses). */
export function acceptedEncoding(header: string | undefined): Encoding | 'identity' {
  const accepted = new Set<string>();
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name && (q === undefined || Number(q) > 0)) accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return 'identity';
}

function sendLoader(request: FastifyRequest, reply: FastifyReply, encoded: Encoded): FastifyReply {
  const encoding = acceptedEncoding(request.headers['accept-encoding']);
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return (
    reply
      .header('vary', 'accept-encoding')
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('cross-origin-resource-policy', 'cross-origin')
      // `<script integrity crossorigin="anonymous">` fetches in CORS mode; public bytes, no credentials.
      .header('access-control-allow-origin', '*')
      .send(encoded[encoding])
  );
}

export async function registerPinnedLoader(
  app: FastifyInstance,
  db: Database,
  loaderFile: string,
): Promise<void> {
  if (!fs.existsSync(loaderFile)) return;
  const current = loaderBuild(fs.readFileSync(loaderFile));
  // Compressed once: the current build now, an older one the first time it is asked for.
  const encodedBuilds = new Map<string, Encoded>([[current.version, encode(current.body)]]);
  await db.query(
    `insert into loader_versions (version, body, integrity, first_served_at) values ($1, $2, $3, $4)
     on conflict (version) do nothing`,
    [current.version, current.body, current.integrity, new Date()],
  );

  app.get('/checkout.json', async (_request, reply) =>
    reply
      .header('cache-control', 'public, max-age=300')
      .header('access-control-allow-origin', '*')
      .send({ src: `/checkout.${current.version}.js`, integrity: current.integrity }),
  );

  app.get<{ Params: { file: string } }>('/checkout.:file', async (request, reply) => {
    const m = /^([0-9a-f]+)\.js$/.exec(request.params.file);
    const version = m?.[1] ?? '';
    if (!VERSION.test(version)) return reply.callNotFound();
    const encoded = encodedBuilds.get(version);
    if (encoded) return sendLoader(request, reply, encoded);
    const { rows } = await db.query<{ body: Buffer | Uint8Array }>(
      'select body from loader_versions where version = $1',
      [version],
    );
    const stored = rows[0];
    if (!stored) return reply.callNotFound();
    const old = encode(Buffer.from(stored.body));
    encodedBuilds.set(version, old);
    return sendLoader(request, reply, old);
  });
}
