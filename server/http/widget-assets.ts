/**
 * Serves the widget's built files (vite build → dist/widget): the hosted pages and their assets.
 * Hashed assets are immutable; pages are not cached. When the build is missing, pages answer 503
 * with the command that builds them, instead of a bare 404. Each text file is sent as the `.br` or
 * `.gz` made beside it at build time (scripts/compress-assets.ts) when the client accepts it, with
 * `Vary: Accept-Encoding`: nothing here is compressed per request.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { runtimePath } from '../runtime-files.ts';
import { CSP_REPORTING_DIRECTIVES } from './csp-reports.ts';

export const WIDGET_DIST = runtimePath('widget');

/** CSP for Payframe's own pages (security-requirements.md EMB-1, XSS-4): no inline script at all. */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "object-src 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  // Violations are reported to Payframe (csp-reports.ts); `Reporting-Endpoints` names the group.
  CSP_REPORTING_DIRECTIVES,
].join('; ');

export async function registerWidgetAssets(app: FastifyInstance, distDir = WIDGET_DIST): Promise<void> {
  const built = fs.existsSync(path.join(distDir, 'index.html'));
  if (!built) {
    app.get('/', async (_req, reply) =>
      reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The Payframe pages are not built. Run `npm run build`, then start again.\n'),
    );
    return;
  }
  await app.register(async (scope) => {
    // JavaScript as text/javascript (RFC 9239) also when a compressed twin is sent, whose type
    // @fastify/static sets after setHeaders has run.
    scope.addHook('onSend', async (_request, reply, payload) => {
      if (String(reply.getHeader('content-type') ?? '').startsWith('application/javascript'))
        reply.header('content-type', 'text/javascript; charset=utf-8');
      return payload;
    });
    await registerFiles(scope, distDir);
  });
}

async function registerFiles(app: FastifyInstance, distDir: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: distDir,
    prefix: '/',
    index: false,
    wildcard: false,
    preCompressed: true,
    setHeaders(res, sentPath) {
      // The path sent: `checkout.js.br` when the Brotli twin of checkout.js is.
      const filePath = sentPath.replace(/\.(?:br|gz)$/, '');
      if (filePath === path.join(distDir, 'checkout.js')) {
        // The embed loader keeps one URL, so merchants get a fix within five minutes (DESIGN.md §11).
        res.header('cache-control', 'public, max-age=300');
        res.header('cross-origin-resource-policy', 'cross-origin');
      } else if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        res.header('cache-control', 'public, max-age=31536000, immutable');
        // Lets a merchant page under COEP load the widget's files (checkout-anchors.md §5.3).
        res.header('cross-origin-resource-policy', 'cross-origin');
      } else if (filePath.endsWith('.html')) {
        // A page's file asked for by its own name (/pay.html, /dashboard.html): the pages' CSP
        // too, never cached, like the routes that serve it.
        res.header('content-security-policy', PAGE_CSP);
        res.header('cache-control', 'no-store');
      }
    },
  });
  app.get('/', async (_req, reply) => {
    reply.header('content-security-policy', PAGE_CSP).header('cache-control', 'no-store');
    return reply.sendFile('index.html', { cacheControl: false });
  });
}
