/**
 * The sandbox ACS over HTTP (DESIGN.md §13):
 *   GET  /3ds/challenge/:id              the challenge page (or its result, once decided)
 *   POST /3ds/challenge/:id              the shopper's answer (form field `outcome`), then the result page
 *   GET  /3ds/challenge/:id/result.json  `{status, cavv, eci, xid, dsTransactionId}` for polling;
 *                                         `?session=<token>`: only if made for that checkout session
 *
 *   GET  /3ds/size.js                    the pages' one script: their height, posted to the framing checkout
 *
 * Pages carry no inline script (`script-src 'self'`, the size script only); their one `<style>` has a
 * per-response nonce. They are framed by Payframe's own checkout iframe, so `frame-ancestors 'self'` by default.
 * The POST refuses another origin (CSRF); completing is idempotent, so a double click is harmless.
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import { CSP_REPORTING_DIRECTIVES } from '../../http/csp-reports.ts';
import { sendError } from '../../http/error-handler.ts';
import { type ShopperLang, shopperLang } from '../../i18n/index.ts';
import {
  type ErrorPageStatus,
  renderChallengePage,
  renderErrorPage,
  renderResultPage,
  SIZE_SCRIPT,
  SIZE_SCRIPT_PATH,
  sizeScriptTag,
} from './three-ds-page.ts';
import type { ChallengeOutcome, ChallengeStatus, ThreeDsService } from './three-ds-service.ts';

export interface ThreeDsRoutesOptions {
  db: Queryable;
  service: ThreeDsService;
  /**
   * Who may frame the pages (CSP `frame-ancestors` sources). Default `'self'`: the checkout iframe
   * on the gateway's origin, as in the one-process wiring; a split deployment names the checkout's.
   */
  frameAncestors?: readonly string[];
}

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

const OUTCOMES: ReadonlySet<string> = new Set<ChallengeOutcome>(['authenticate', 'fail']);

function pageCsp(nonce: string, frameAncestors: readonly string[]): string {
  return [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    "script-src 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors.join(' ')}`,
    "base-uri 'none'",
    CSP_REPORTING_DIRECTIVES,
  ].join('; ');
}

/** The request's Origin is the server's own (WHATWG origins, so default ports compare equal). */
export function isSameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true; // not a browser's cross-site form post: browsers send Origin on POST
  // Under `Referrer-Policy: no-referrer` (set on every page) a browser sends `Origin: null` even on
  // the page's own form post; Sec-Fetch-Site, which a page cannot forge, still says same-origin.
  if (origin === 'null' && request.headers['sec-fetch-site'] === 'same-origin') return true;
  try {
    return new URL(origin).origin === new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return false; // "null" (sandboxed or privacy-sensitive contexts) and garbage
  }
}

export async function threeDsRoutes(app: FastifyInstance, opts: ThreeDsRoutesOptions): Promise<void> {
  const { db, service } = opts;
  const frameAncestors = opts.frameAncestors?.length ? opts.frameAncestors : ["'self'"];

  // This scope reads only small HTML form posts; anything else is 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  function page(
    reply: FastifyReply,
    status: number,
    render: (nonce: string) => string,
    merchantOrigins: readonly string[] = [],
  ): FastifyReply {
    const nonce = crypto.randomBytes(16).toString('base64');
    // Every ancestor must be allowed: in an embed the checkout iframe sits in the merchant's page.
    const ancestors = [...frameAncestors, ...merchantOrigins.filter((o) => !frameAncestors.includes(o))];
    return (
      reply
        .code(status)
        .header('content-security-policy', pageCsp(nonce, ancestors))
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        // The page's height, told to the checkout that frames it (three-ds-page.ts SIZE_SCRIPT).
        .send(render(nonce).replace('</body>', () => `${sizeScriptTag(ancestors)}\n</body>`))
    );
  }
  const errorPage = (reply: FastifyReply, status: ErrorPageStatus, lang: ShopperLang) =>
    page(reply, status, (nonce) => renderErrorPage(nonce, status, lang));
  // The checkout form's language when its challenge URL says it (`?lang=`), else the session's
  // locale, else the browser's.
  const askedLang = (request: FastifyRequest) => (request.query as { lang?: unknown }).lang;
  const langOf = (request: FastifyRequest, challenge?: ChallengeStatus | null) =>
    shopperLang({
      page: askedLang(request),
      locale: challenge?.locale,
      acceptLanguage: request.headers['accept-language'],
    });

  app.get(SIZE_SCRIPT_PATH, async (_request, reply) =>
    reply
      .header('cache-control', 'public, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .type('text/javascript; charset=utf-8')
      .send(SIZE_SCRIPT),
  );

  app.get('/3ds/challenge/:id', async (request: IdRequest, reply) => {
    const challenge = await service.challengeStatus(db, request.params.id);
    const lang = langOf(request, challenge);
    if (!challenge) return errorPage(reply, 404, lang);
    switch (challenge.status) {
      case 'pending':
        return page(
          reply,
          200,
          // The answer's page keeps an asked language: the form posts it back.
          (nonce) => renderChallengePage(nonce, challenge, lang, askedLang(request) !== undefined),
          challenge.merchantOrigins,
        );
      case 'expired':
        return errorPage(reply, 410, lang);
      default:
        // Already answered (a reload, or the back button): show that answer again.
        return page(
          reply,
          200,
          (nonce) => renderResultPage(nonce, challenge, lang),
          challenge.merchantOrigins,
        );
    }
  });

  app.post('/3ds/challenge/:id', async (request: IdRequest, reply) => {
    const browserLang = langOf(request);
    if (!isSameOrigin(request)) return errorPage(reply, 403, browserLang);
    const outcome = (request.body as Record<string, unknown> | undefined)?.outcome;
    if (typeof outcome !== 'string' || !OUTCOMES.has(outcome)) return errorPage(reply, 400, browserLang);
    const done = await service.completeChallenge(db, request.params.id, outcome as ChallengeOutcome);
    if (!done.ok) return errorPage(reply, done.reason === 'unknown' ? 404 : 410, browserLang);
    request.log.info(
      { challenge: done.challenge.id, status: done.challenge.status },
      '3ds challenge answered',
    );
    return page(
      reply,
      200,
      (nonce) => renderResultPage(nonce, done.challenge, langOf(request, done.challenge)),
      done.challenge.merchantOrigins,
    );
  });

  app.get('/3ds/challenge/:id/result.json', async (request: IdRequest, reply) => {
    const challenge = await service.challengeStatus(db, request.params.id);
    reply.header('cache-control', 'no-store');
    // `?session=<token>`: the checkout asks for its own session's challenge (issue 13 §5); another
    // session's, or a merchant's own, is not there for it.
    const session = (request.query as { session?: unknown }).session;
    const forSession = session === undefined || challenge?.checkoutSessionToken === session;
    if (!challenge || !forSession)
      return sendError(reply, 'not_found', 'There is no such 3-D Secure challenge.');
    const r = challenge.result;
    return reply.type('application/json; charset=utf-8').send({
      status: challenge.status,
      cavv: r?.cavv ?? null,
      eci: r?.eci ?? null,
      xid: r?.xid ?? null,
      dsTransactionId: r?.dsTransactionId ?? null,
    });
  });
}
