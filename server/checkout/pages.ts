/**
 * The hosted payment page, `GET /pay/:token` (dist/widget/pay.html; the Preact app in
 * widget/app/pay/). The page fetches the session itself; this route only sets the headers a
 * payment page needs (security-requirements.md EMB-1, EMB-2, CJ-1, HDR-1):
 *   - the page CSP with `frame-src 'self'` (the 3-D Secure challenge, served by this server) and,
 *     in the split wiring, the gateway's origin where the challenge pages live;
 *   - `frame-ancestors 'none'` for the full page, the merchant's registered origins with `?embed=1`;
 *   - `Cache-Control: no-store`; HSTS when the request came over https (TRUST_PROXY aware).
 * A malformed token still gets the page (it shows "not found"), with status 404.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { SESSION_TOKEN_PATTERN } from '../../shared/checkout/fields.ts';
import { PAGE_CSP, WIDGET_DIST } from '../http/widget-assets.ts';
import type { Checkout } from './checkout.ts';
import type { CallOrigin } from './deps.ts';
import { brandingOf, embedOriginsOf } from './gateway-calls.ts';
import { originOf } from './pay-routes.ts';
import { enforceLimits } from './rate-limit.ts';

export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * PAGE_CSP with the challenge frame allowed, the given framing rule, and the merchant's logo: the
 * exact origin of its https logo URL joins `img-src` (an image cannot run script, an SVG loaded as
 * an image included), nothing wider.
 */
export function payPageCsp(
  frameAncestors: readonly string[],
  challengeOrigin: string | null = null,
  logoOrigin: string | null = null,
): string {
  const ancestors = frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'";
  return PAGE_CSP.split('; ')
    .map((d) => (d.startsWith('frame-ancestors ') ? `frame-ancestors ${ancestors}` : d))
    .map((d) => (d.startsWith('img-src ') && logoOrigin ? `${d} ${logoOrigin}` : d))
    .concat(challengeOrigin ? `frame-src 'self' ${challengeOrigin}` : "frame-src 'self'")
    .join('; ');
}

/** Only plain origins reach the header: nothing that could end a directive or add a source. */
const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?$|^https?:\/\/\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

export async function payPageRoutes(
  app: FastifyInstance,
  options: { checkout: Checkout; distDir?: string },
): Promise<void> {
  const deps = options.checkout.deps;
  const file = path.join(options.distDir ?? WIDGET_DIST, 'pay.html');

  const send = async (reply: FastifyReply, status: number) => {
    let html: string;
    try {
      html = await fs.readFile(file, 'utf8');
    } catch {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The Payframe pages are not built. Run `npm run build` (npm start does it for you).\n');
    }
    return reply.code(status).type('text/html; charset=utf-8').send(html);
  };

  /** The origin of the merchant's logo when it is a plain https origin; null otherwise or unknown. */
  const logoOriginOf = async (origin: CallOrigin, token: string): Promise<string | null> => {
    try {
      const { logoUrl } = await brandingOf(deps, origin, token);
      const url = logoUrl ? new URL(logoUrl) : null;
      return url?.protocol === 'https:' && ORIGIN.test(url.origin) ? url.origin : null;
    } catch {
      return null; // an unknown session: the page says so, with no logo
    }
  };

  app.get<{ Params: { token: string }; Querystring: { embed?: string } }>(
    '/pay/:token',
    async (request, reply) => {
      const { token } = request.params;
      const wellFormed = SESSION_TOKEN_PATTERN.test(token);
      // Each load asks the gateway: limited per address like the session load it leads to.
      await enforceLimits(deps.db, reply, [[`read:ip:${request.ip}`, deps.limits.readPerIp]], deps.now());
      const origin = originOf(request);
      // The two gateway questions at once. Unknown, or the gateway unreachable: no framing allowed
      // and no logo (the page itself still loads and says what it can).
      const [origins, logoOrigin] = await Promise.all([
        request.query.embed === '1' && wellFormed
          ? embedOriginsOf(deps, origin, token).catch((): string[] => [])
          : [],
        wellFormed ? logoOriginOf(origin, token) : null,
      ]);
      const ancestors = origins.filter((o) => ORIGIN.test(o));
      const challengeOrigin = deps.threeDs?.frameOrigin ?? null;
      reply
        .header('content-security-policy', payPageCsp(ancestors, challengeOrigin, logoOrigin))
        .header('cache-control', 'no-store');
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
      return send(reply, wellFormed ? 200 : 404);
    },
  );
}
