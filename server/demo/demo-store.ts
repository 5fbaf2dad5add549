/**
 * The demo store: a merchant site on a second origin (DEMO_PORT) that takes payments with Payframe
 * the way the merchant guide says: sessions created server to server, the widget embedded with the
 * script tag, in a modal, or as a plain iframe, and a `/return` page that verifies the signed
 * redirect. It is also what the embed browser tests (e2e/2x-*) drive.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { runtimePath } from '../runtime-files.ts';
import {
  errorPage,
  plainIframePage,
  PRODUCT,
  productPage,
  returnPage,
  type ReturnView,
  twoWidgetsPage,
} from './pages.ts';
import { examplePage, exampleOfReferer, fillPlaceholders, guideSnippet } from './guide-examples.ts';
import { type DemoCredentials, payframeClient } from './payframe-client.ts';
import { verifyRedirect } from './verify-redirect.ts';

const PUBLIC_DIR = runtimePath('demoPublic');

export interface DemoStoreOptions {
  /** Where this server reaches Payframe's REST API. */
  apiUrl: string;
  /** Payframe as browsers see it (PUBLIC_URL): the loader script and the iframes come from here. */
  payframeUrl: string;
  /** The demo merchant; null when DATA_DIR holds no demo-merchant.json (the pages say so). */
  credentials: DemoCredentials | null;
  /** The demo merchant's registered origins: the only ones a ReturnUrl may use. */
  origins: string[];
  /**
   * Payframe's developer outbox (`/dev/outbox`), where the one-time codes and e-mails it "sends"
   * arrive; null where there is none (production): the product page points shoppers to it.
   */
  outboxUrl?: string | null;
  logger?: FastifyBaseLogger;
}

/** DATA_DIR/demo-merchant.json, written by Payframe on its first start (server/gateway/demo-merchant.ts). */
export function readDemoMerchant(dataDir: string): (DemoCredentials & { origins: string[] }) | null {
  try {
    const m = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-merchant.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    if (typeof m.merchantId !== 'string' || typeof m.transactionKey !== 'string') return null;
    const origins = Array.isArray(m.origins) ? m.origins.filter((o) => typeof o === 'string') : [];
    return { merchantId: m.merchantId, transactionKey: m.transactionKey, origins };
  } catch {
    return null;
  }
}

/** The store's CSP, the one docs/merchant-guide.md recommends: Payframe for scripts and frames only. */
export function demoCsp(payframeOrigin: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${payframeOrigin}`,
    `frame-src ${payframeOrigin}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "object-src 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export async function buildDemoStore(options: DemoStoreOptions): Promise<FastifyInstance> {
  const app = Fastify({ loggerInstance: options.logger, connectionTimeout: 30_000, requestTimeout: 30_000 });
  const payframeUrl = options.payframeUrl.replace(/\/+$/, '');
  const csp = demoCsp(new URL(payframeUrl).origin);
  const client = options.credentials ? payframeClient(options.apiUrl, options.credentials) : null;
  // Order number → session token, so /return can confirm the payment server to server (RED-3).
  const orders = new Map<string, string>();

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    // The origin only: a plain iframe's page may use it to address its messages to this store.
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      reply.header('content-security-policy', csp).header('cache-control', 'no-store');
    }
    return payload;
  });
  await app.register(fastifyStatic, { root: PUBLIC_DIR, prefix: '/static/', index: false });

  /** The store's own origin as this browser reached it, so the ReturnUrl is on a registered origin. */
  function storeOrigin(request: FastifyRequest): string {
    const origin = `${request.protocol}://${request.host}`;
    return options.origins.includes(origin) ? origin : (options.origins[0] ?? origin);
  }

  async function newSession(request: FastifyRequest) {
    if (!client) throw new Error('no demo merchant');
    const orderNumber = `DEMO-${crypto.randomBytes(4).toString('hex').toUpperCase()}`;
    const session = await client.createSession({
      amount: PRODUCT.amount,
      currency: PRODUCT.currency,
      orderNumber,
      returnUrl: `${storeOrigin(request)}/return`,
    });
    orders.set(orderNumber, session.token);
    if (orders.size > 1000) orders.delete(orders.keys().next().value!);
    return session;
  }

  const page =
    (render: (request: FastifyRequest) => Promise<string>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        const html = await render(request);
        return reply.type('text/html; charset=utf-8').send(html);
      } catch (err) {
        if ((err as { statusCode?: number }).statusCode === 404) throw err;
        request.log.error({ err }, 'demo store: could not create a checkout session');
        const message = client
          ? `Payframe did not create a checkout session (${(err as Error).message}).`
          : 'DATA_DIR holds no demo-merchant.json: the demo merchant is created on the first start with an empty database.';
        throw Object.assign(new Error(message), { statusCode: 503, page: errorPage(payframeUrl, message) });
      }
    };
  app.setErrorHandler((err: Error & { statusCode?: number; page?: string }, _request, reply) => {
    const status = err.statusCode ?? 500;
    reply.code(status).type('text/html; charset=utf-8');
    return err.page ?? errorPage(payframeUrl, status === 404 ? 'Not found.' : 'Something went wrong.');
  });

  app.get(
    '/',
    page(async (request) => {
      const [embed, modal, hosted] = await Promise.all([
        newSession(request),
        newSession(request),
        newSession(request),
      ]);
      return productPage(payframeUrl, embed, modal, hosted, options.outboxUrl ?? null);
    }),
  );
  app.get(
    '/two',
    page(async (request) => {
      const [a, b] = await Promise.all([newSession(request), newSession(request)]);
      return twoWidgetsPage(payframeUrl, a, b);
    }),
  );
  app.get(
    '/plain',
    page(async (request) => plainIframePage(payframeUrl, await newSession(request))),
  );
  app.get(
    '/guide/:name',
    page(async (request) => {
      const { name } = request.params as { name: string };
      const html = guideSnippet(`${name}-html`);
      if (!html) throw Object.assign(new Error('Not found.'), { statusCode: 404 });
      const { token } = await newSession(request);
      return examplePage(name, fillPlaceholders(html, payframeUrl, token));
    }),
  );
  // The guide's examples load "your" script as /checkout-page.js; which one is told by the page
  // that asks (same-origin requests carry the full Referer under this store's policy).
  app.get('/checkout-page.js', async (request, reply) => {
    const name = exampleOfReferer(request.headers.referer);
    const js = name ? guideSnippet(`${name}-js`) : null;
    if (!js) return reply.code(404).type('text/plain; charset=utf-8').send('No such example script.\n');
    return reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(fillPlaceholders(js, payframeUrl, ''));
  });
  // What a single-page shop's backend offers its front end: a fresh session for the cart. (The
  // guide's examples and the embed tests use it to get tokens.) JSON, same-origin callers only.
  app.post('/api/checkout-session', async (request, reply) => {
    if (!client) return reply.code(503).send({ error: 'no demo merchant' });
    const site = request.headers['sec-fetch-site'];
    if (site && site !== 'same-origin' && site !== 'none')
      return reply.code(403).send({ error: 'forbidden' });
    const { token, url } = await newSession(request);
    return { token, url };
  });
  app.get('/return', async (request, reply) => {
    const query = new URLSearchParams(request.url.split('?')[1] ?? '');
    const verified = !!options.credentials && verifyRedirect(query, options.credentials.transactionKey);
    const orderNumber = query.get('orderNumber') ?? '';
    const token = verified ? orders.get(orderNumber) : undefined;
    const confirmed = token && client ? (await client.readSession(token)).status : null;
    const view: ReturnView = {
      verified,
      confirmed,
      params: {
        status: query.get('status') ?? '',
        transactionId: query.get('transactionId') ?? '',
        orderNumber,
        amount: query.get('amount') ?? '',
      },
    };
    reply.code(verified ? 200 : 400).type('text/html; charset=utf-8');
    return returnPage(payframeUrl, view);
  });
  return app;
}
