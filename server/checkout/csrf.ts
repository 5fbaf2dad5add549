/**
 * Cross-site request forgery (security-requirements.md CSRF-1, CSRF-2; attack row 15). A
 * state-changing call from one of Payframe's own pages — the widget, the merchant dashboard — must
 * carry a header no cross-site form can send — the custom `X-Payframe-Client: <the page's name>` and
 * `Content-Type: application/json`, neither CORS-safelisted — and, when the browser names them, an
 * `Origin` equal to this server's own origin and a `Sec-Fetch-Site` of same-origin. Otherwise 403
 * before the body is read. (Both pages are served from this origin, the widget's iframe included,
 * so their calls are same-origin.) GET/HEAD/OPTIONS change nothing.
 */
import type { FastifyRequest } from 'fastify';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../../shared/checkout/pay-schemas.ts';
import { PayframeError } from '../errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The guard of one page's API: `client` is the value its calls send in `X-Payframe-Client`. */
export function clientRequestGuard(publicOrigin: string, client: string) {
  return async (request: FastifyRequest): Promise<void> => {
    if (SAFE_METHODS.has(request.method)) return;
    const h = request.headers;
    if (h[CLIENT_HEADER] !== client) {
      throw new PayframeError('forbidden', 'This request must come from a Payframe page.');
    }
    const type = (h['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') {
      throw new PayframeError('forbidden', 'This request must be sent as application/json.');
    }
    if (h.origin !== undefined && h.origin !== publicOrigin) {
      throw new PayframeError('forbidden', 'This request comes from another site.');
    }
    const site = h['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') {
      throw new PayframeError('forbidden', 'This request comes from another site.');
    }
  };
}

/** The widget's API (pay-routes.ts, wallet-routes.ts). */
export function widgetRequestGuard(publicOrigin: string) {
  return clientRequestGuard(publicOrigin, CLIENT_HEADER_VALUE);
}
