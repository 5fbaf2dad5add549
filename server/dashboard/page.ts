/**
 * The dashboard's one HTML page (widget/app/dashboard.html, built to dist/widget/dashboard.html),
 * answered at /dashboard and every path under it but the API: the app routes with the history API,
 * so a reload or a bookmarked /dashboard/payments/123 gets the same page. Its scripts and styles
 * are the widget build's hashed assets, served by http/widget-assets.ts.
 *
 * PAGE_CSP as the hosted page has it (no inline script, nothing from elsewhere), framed by no one
 * (`frame-ancestors 'none'`: a dashboard inside another site's frame is a clickjacking target),
 * never cached (it is the door to a signed-in session). It frames this origin's pages only
 * (`frame-src 'self'`): the Settings page's live preview of the hosted page, `/pay/preview`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { PAGE_CSP, WIDGET_DIST } from '../http/widget-assets.ts';

/** PAGE_CSP with this origin's frames allowed (the Settings page's preview, /pay/preview). */
export const DASHBOARD_CSP = `${PAGE_CSP}; frame-src 'self'`;

export async function dashboardPageRoutes(app: FastifyInstance, options: { distDir?: string } = {}) {
  const file = path.join(options.distDir ?? WIDGET_DIST, 'dashboard.html');
  const send = async (reply: FastifyReply) => {
    reply.header('cache-control', 'no-store');
    let html: string;
    try {
      html = await fs.readFile(file, 'utf8');
    } catch {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The Payframe pages are not built. Run `npm run build`, then start again.\n');
    }
    return reply.header('content-security-policy', DASHBOARD_CSP).type('text/html; charset=utf-8').send(html);
  };
  app.get('/dashboard', (_request, reply) => send(reply));
  app.get('/dashboard/*', async (request, reply) => {
    // The API's unknown paths are the API's 404, not the page.
    const rest = (request.params as { '*': string })['*'];
    if (rest === 'api' || rest.startsWith('api/')) return reply.callNotFound();
    return send(reply);
  });
}
