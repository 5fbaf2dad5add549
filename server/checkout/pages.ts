/**
 * The hosted payment page, `GET /pay/:token` (dist/widget/pay.html; the Preact app in
 * widget/app/pay/). The route loads the session once (loadWidgetSession, what the API's
 * GET /api/checkout/sessions/:token answers) and puts it in the HTML (page-html.ts), so the app
 * renders the form without a round trip; the same answer gives the headers a payment page needs
 * (security-requirements.md EMB-1, EMB-2, CJ-1, HDR-1):
 *   - the page CSP with `frame-src 'self'` (the 3-D Secure challenge, served by this server) and,
 *     in the split wiring, the gateway's origin where the challenge pages live;
 *   - `frame-ancestors 'none'` for the full page, the merchant's registered origins with `?embed=1`;
 *   - `Cache-Control: no-store`; HSTS when the request came over https (TRUST_PROXY aware).
 * A malformed token still gets the page (it shows "not found"), with status 404.
 *
 * `GET /pay/preview` is the dashboard's live preview of this page (issue 16 "Settings"): the same
 * app with a sample session (PREVIEW_SESSION) that cannot be paid — its token is no session's, so
 * every API call for it is refused, and the app disables its Pay button. Only this origin may frame
 * it (`frame-ancestors 'self'`, the dashboard's Settings page); the merchant's draft reaches it by
 * postMessage from that page (widget/app/pay/preview.ts), and since the draft's logo may be on any
 * https origin, `img-src` takes https images (an image runs no script).
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { SESSION_TOKEN_PATTERN } from '../../shared/checkout/fields.ts';
import type { PageLang } from '../../shared/checkout/page-lang.ts';
import { acceptedLanguages, pickLang } from '../../shared/checkout/page-lang-choice.ts';
import type { WidgetSession } from '../../shared/checkout/pay-schemas.ts';
import { PayframeError } from '../errors.ts';
import { PAGE_CSP, WIDGET_DIST } from '../http/widget-assets.ts';
import type { Checkout } from './checkout.ts';
import { pageWithState } from './page-html.ts';
import { loadPageRenderer } from './page-renderer.ts';
import { originOf } from './pay-routes.ts';
import { loadWidgetSession } from './session-view.ts';

export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The preview's sample session (GET /pay/preview): an open session of a sample order whose token
 * is not a session token (SESSION_TOKEN_PATTERN), so nothing can pay, cancel or read it; no
 * expiry, no shopper e-mail (so no wallet), no origins. The dashboard posts the merchant's draft.
 */
export const PREVIEW_SESSION: WidgetSession = {
  token: 'preview',
  status: 'open',
  amount: '24.99',
  currency: 'USD',
  orderNumber: 'PREVIEW-1001',
  expiresAt: null,
  merchant: { name: 'Your business', logoUrl: null, website: null, brandColor: null, cornerRadius: null },
  methods: ['card'],
  locale: 'en',
  embedOrigins: [],
  threeDSecure: false,
  returnMode: 'immediate',
  nameOnCardRequired: false,
  shopper: { email: null, firstName: null, lastName: null, zipCode: null },
  description: 'Sample order',
  lineItems: null,
  backUrl: null,
};

/**
 * PAGE_CSP with the challenge frame allowed, the given framing rule, and the merchant's logo: the
 * exact origin of its https logo URL joins `img-src` (an image cannot run script, an SVG loaded as
 * an image included), nothing wider.
 */
export function payPageCsp(
  frameAncestors: readonly string[],
  challengeOrigin: string | null = null,
  logoOrigin: string | null = null,
  styleNonce: string | null = null,
): string {
  const ancestors = frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'";
  return (
    PAGE_CSP.split('; ')
      .map((d) => (d.startsWith('frame-ancestors ') ? `frame-ancestors ${ancestors}` : d))
      .map((d) => (d.startsWith('img-src ') && logoOrigin ? `${d} ${logoOrigin}` : d))
      // The page rendered on the server carries its stylesheet and the merchant's branding in
      // <style> elements with the response's nonce.
      .map((d) => (d.startsWith('style-src ') && styleNonce ? `${d} 'nonce-${styleNonce}'` : d))
      .concat(challengeOrigin ? `frame-src 'self' ${challengeOrigin}` : "frame-src 'self'")
      .join('; ')
  );
}

/** Only plain origins reach the header: nothing that could end a directive or add a source. */
const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?$|^https?:\/\/\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

export async function payPageRoutes(
  app: FastifyInstance,
  options: { checkout: Checkout; distDir?: string; rendererDir?: string },
): Promise<void> {
  const deps = options.checkout.deps;
  const file = path.join(options.distDir ?? WIDGET_DIST, 'pay.html');
  // The page rendered on the server (page-renderer.ts); without that build, rendered in the browser.
  const renderer = await loadPageRenderer(options.rendererDir).catch((err: unknown) => {
    app.log.warn(
      { err },
      'the hosted page is rendered in the browser only: its server rendering did not load',
    );
    return null;
  });

  /**
   * The built page's stylesheets (its `<link rel="stylesheet">` to a file of the build), read once:
   * the page rendered on the server carries them inline, so its first paint waits for no second
   * request (a round trip on a phone's network).
   */
  const sheets = new Map<string, Promise<string | null>>();
  const stylesheets = async (html: string): Promise<Map<string, string>> => {
    const out = new Map<string, string>();
    for (const [tag, href] of html.matchAll(
      /<link rel="stylesheet"[^>]*href="(\/assets\/[\w.-]+\.css)"[^>]*>/g,
    )) {
      if (!sheets.has(href!)) {
        const dir = path.dirname(file);
        sheets.set(
          href!,
          fs.readFile(path.join(dir, href!), 'utf8').catch(() => null),
        );
      }
      const css = await sheets.get(href!)!;
      if (css !== null) out.set(tag, css);
    }
    return out;
  };

  const send = async (
    reply: FastifyReply,
    status: number,
    state: WidgetSession | null | undefined,
    lang: PageLang,
    csp: (styleNonce: string | null) => string,
    rendering: { search: string; origin: string } | null = null,
  ) => {
    let html: string;
    try {
      html = await fs.readFile(file, 'utf8');
    } catch {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The Payframe pages are not built. Run `npm run build`, then start again.\n');
    }
    let rendered: Parameters<typeof pageWithState>[3];
    if (renderer && rendering) {
      try {
        const nonce = crypto.randomBytes(16).toString('base64');
        rendered = {
          ...renderer({ session: state, lang, ...rendering }),
          nonce,
          stylesheets: await stylesheets(html),
        };
      } catch (err) {
        // The app renders it in the browser, as without the rendering: the shopper still pays.
        reply.log.error({ err }, 'the hosted page could not be rendered on the server');
      }
    }
    return reply
      .code(status)
      .header('content-security-policy', csp(rendered ? rendered.nonce : null))
      .type('text/html; charset=utf-8')
      .send(pageWithState(html, state, lang, rendered));
  };

  /** The origin of the merchant's logo when it is a plain https origin; null otherwise. */
  const logoOriginOf = (logoUrl: string | null): string | null => {
    try {
      const url = logoUrl ? new URL(logoUrl) : null;
      return url?.protocol === 'https:' && ORIGIN.test(url.origin) ? url.origin : null;
    } catch {
      return null;
    }
  };

  app.get('/pay/preview', async (request, reply) => {
    deps.memoryLimits.enforce(reply, `read:ip:${request.ip}`, deps.limits.readPerIp, deps.now());
    const csp = payPageCsp(["'self'"])
      .split('; ')
      .map((d) => (d.startsWith('img-src ') ? `${d} https:` : d))
      .join('; ');
    reply.header('cache-control', 'no-store');
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    // Rendered in the browser: each draft of the merchant's is a page of its own (preview-frame.ts).
    return send(reply, 200, PREVIEW_SESSION, 'en', () => csp);
  });

  app.get<{ Params: { token: string }; Querystring: { embed?: string; locale?: unknown } }>(
    '/pay/:token',
    async (request, reply) => {
      const { token } = request.params;
      const wellFormed = SESSION_TOKEN_PATTERN.test(token);
      // Each load asks the gateway: limited per address like the session load it leads to.
      deps.memoryLimits.enforce(reply, `read:ip:${request.ip}`, deps.limits.readPerIp, deps.now());
      // One gateway question; its answer is the page's state. Unknown (null): the page shows "not
      // found". The gateway unreachable (undefined): no state, so the app asks the API itself. Both:
      // no framing allowed and no logo.
      let state: WidgetSession | null | undefined = null;
      if (wellFormed) {
        state = await loadWidgetSession(deps, originOf(request), token).catch((error: unknown) => {
          if (error instanceof PayframeError && error.code === 'not_found') return null;
          request.log.warn({ err: error }, 'the hosted page went out without its session');
          return undefined;
        });
      }
      const origins = request.query.embed === '1' ? (state?.embedOrigins ?? []) : [];
      const logoOrigin = logoOriginOf(state?.merchant.logoUrl ?? null);
      // The language the app will choose (widget/app/pay/i18n), so the document says it, and its
      // direction, from the first paint: the session's, the widget's `?locale=` (the first, as
      // URLSearchParams.get reads it), the browser's by q-value (shared/checkout/page-lang-choice.ts).
      const asked: unknown = [request.query.locale].flat()[0];
      const browser = acceptedLanguages(request.headers['accept-language']);
      const lang = pickLang([state?.locale, typeof asked === 'string' ? asked : null, ...browser]);
      const ancestors = origins.filter((o) => ORIGIN.test(o));
      const challengeOrigin = deps.threeDs?.frameOrigin ?? null;
      reply.header('cache-control', 'no-store');
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
      const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      return send(
        reply,
        wellFormed ? 200 : 404,
        state,
        lang,
        (nonce) => payPageCsp(ancestors, challengeOrigin, logoOrigin, nonce),
        { search, origin: `${request.protocol}://${request.host}` },
      );
    },
  );
}
