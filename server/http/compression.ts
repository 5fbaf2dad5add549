/**
 * Answers compressed when the client accepts it (issue 14 §14): Brotli, else gzip, through
 * @fastify/compress, for every route registered after it (the REST and checkout APIs, the SOAP
 * service, the hosted pages, the WSDL). The widget's files are compressed once at build time
 * instead (widget-assets.ts); an answer that already has a Content-Encoding is left alone.
 *
 * - Only above 1 KB: a pay answer or a small JSON error costs more CPU than the bytes it saves.
 * - Brotli quality 4 (the plugin's default, as Cloudflare measured): 11 is for build time.
 * - Request bodies are never decompressed: a compressed body would get past BODY_LIMIT's meaning and
 *   the checks made before the body is read (gateway/pre-auth.ts); `Content-Encoding` on a request
 *   is refused as before (415).
 * - BREACH needs a secret and attacker-chosen text in one compressed answer read by an attacker who
 *   sees its size; no answer that a browser fetches with credentials echoes request text beside a
 *   secret (CSRF protection is header-based: checkout/csrf.ts), see docs/security.md.
 */
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

export const COMPRESSION_THRESHOLD = 1024;

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD,
  });
}
