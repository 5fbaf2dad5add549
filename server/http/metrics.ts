/**
 * Prometheus metrics at `GET /metrics` (docs/deployment.md, "Metrics"). One registry per app, so
 * the tests can build many apps in one process.
 *
 * Counted from hooks, so the routes themselves stay free of metrics code:
 *  - every request, by method, route pattern and status (the pattern, never the URL: session
 *    tokens must not become label values);
 *  - checkout payments, from the pay route's answer;
 *  - one-time code sends, from the send-code route's answer;
 *  - each Transaction Service operation, by wrapping the service the SOAP bindings call;
 *  - the webhook outbox backlog, counted when scraped.
 *
 * Who may read it: with METRICS_TOKEN set, `Authorization: Bearer <token>`; without it, only a
 * direct connection from the loopback interface (not one relayed by a proxy).
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { operations } from '../../shared/contract/index.ts';
import type { TransactionService } from '../../shared/contract/service.ts';
import type { Database } from '../db/database.ts';
import { PayframeError } from '../errors.ts';
import type { CallContext } from '../gateway/port.ts';
import { CounterTable, HistogramTable } from './metric-tables.ts';

export const METRICS_PATH = '/metrics';
const PAY_ROUTE = '/api/checkout/sessions/:token/pay';
const SEND_CODE_SUFFIX = '/send-code';

export type PaymentOutcome = 'approved' | 'declined' | 'requires_action' | 'error';

export interface Metrics {
  registry: Registry;
  /** The service with every operation timed and counted (binding from the call context). */
  instrumentService(service: TransactionService<CallContext>): TransactionService<CallContext>;
}

export interface MetricsOptions {
  db: Database;
  /** METRICS_TOKEN; undefined: loopback only. */
  token: string | undefined;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const byApp = new WeakMap<FastifyInstance, Metrics>();

/**
 * Process metrics (CPU, memory, event loop, GC) belong to the process, not to an app: collected
 * once, in their own registry, and merged into each app's answer. Per app, the GC observer would
 * be set up again by every app a test builds, and never removed.
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** The metrics registerMetrics set up on this app. */
export function metricsOf(app: FastifyInstance): Metrics {
  const metrics = byApp.get(app);
  if (!metrics) throw new Error('registerMetrics has not run on this app.');
  return metrics;
}

export function registerMetrics(app: FastifyInstance, { db, token }: MetricsOptions): Metrics {
  const registry = new Registry();

  // What every request updates: tables keyed by label values (metric-tables.ts), not prom-client's
  // per-update label checks.
  const httpRequests = new CounterTable(
    'payframe_http_requests_total',
    'HTTP requests answered, by method, route pattern and status.',
    ['method', 'route', 'status'],
    registry,
  );
  const httpDuration = new HistogramTable(
    'payframe_http_request_duration_seconds',
    'Time to answer an HTTP request, by method and route pattern.',
    ['method', 'route'],
    LATENCY_BUCKETS,
    registry,
  );
  const soapOperations = new CounterTable(
    'payframe_soap_operations_total',
    'Transaction Service operations, by operation, binding and outcome (ok, fault, error).',
    ['operation', 'binding', 'outcome'],
    registry,
  );
  const soapDuration = new HistogramTable(
    'payframe_soap_operation_duration_seconds',
    'Time spent in a Transaction Service operation, by operation and binding.',
    ['operation', 'binding'],
    LATENCY_BUCKETS,
    registry,
  );
  const payments = new Counter({
    name: 'payframe_payments_total',
    help: 'Checkout payments, by outcome (approved, declined, requires_action, error) and method.',
    labelNames: ['outcome', 'method'] as const,
    registers: [registry],
  });
  const otpSends = new Counter({
    name: 'payframe_otp_sends_total',
    help: 'One-time code sends accepted by the checkout (unknown contacts included: they get the same answer).',
    registers: [registry],
  });
  new Gauge({
    name: 'payframe_webhook_backlog',
    help: 'Webhook events in the outbox not yet delivered (pending).',
    registers: [registry],
    async collect() {
      try {
        const { rows } = await db.query<{ n: number }>(
          `select count(*)::int as n from checkout_webhook_events where state = 'pending'`,
        );
        this.set(Number(rows[0]?.n ?? 0));
      } catch (err) {
        // A scrape during a database outage still answers; the gauge is absent rather than wrong.
        this.reset();
        app.log.warn({ err }, 'webhook backlog not counted');
      }
    },
  });

  // Synchronous hooks: an async one costs every request a promise and a microtask turn.
  app.addHook('onResponse', (request, reply, done) => {
    const route = routeOf(request);
    httpRequests.inc(request.method, route, statusText(reply.statusCode));
    httpDuration.observe(reply.elapsedTime / 1000, request.method, route);
    if (request.method === 'POST' && route.endsWith(SEND_CODE_SUFFIX) && reply.statusCode === 202) {
      otpSends.inc();
    }
    done();
  });

  // The pay answer says what happened; a replay of an earlier answer is not a new payment.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (
      request.method === 'POST' &&
      request.routeOptions.url === PAY_ROUTE &&
      reply.getHeader('idempotent-replayed') !== 'true'
    ) {
      const outcome = paymentOutcome(reply.statusCode, payload);
      if (outcome) payments.inc({ outcome, method: paymentMethod(request.body) });
    }
    done(null, payload);
  });

  app.get(METRICS_PATH, async (request, reply) => {
    if (!mayRead(request, token)) {
      // Without a token configured, say nothing more than an unknown path would.
      if (token) reply.header('www-authenticate', 'Bearer realm="metrics"');
      return reply.code(token ? 401 : 404).send({ error: { code: token ? 'unauthorized' : 'not_found' } });
    }
    reply.header('cache-control', 'no-store').type(registry.contentType);
    return Registry.merge([processMetrics(), registry]).metrics();
  });

  const metrics: Metrics = {
    registry,
    instrumentService(service) {
      // One wrapper per operation, made here once: the bindings call them on every request.
      const instrumented: Record<string, (params: unknown, context: CallContext) => Promise<unknown>> = {};
      const target = service as unknown as Record<string, (p: unknown, c: CallContext) => Promise<unknown>>;
      for (const { name } of operations) {
        const operation = target[name];
        if (typeof operation !== 'function') continue;
        instrumented[name] = async (params, context) => {
          const binding = context?.binding ?? 'unknown';
          const started = performance.now();
          let outcome = 'error';
          try {
            const result = await operation.call(service, params, context);
            outcome = 'ok';
            return result;
          } catch (err) {
            if (err instanceof PayframeError) outcome = 'fault';
            throw err;
          } finally {
            soapOperations.inc(name, binding, outcome);
            soapDuration.observe((performance.now() - started) / 1000, name, binding);
          }
        };
      }
      return instrumented as unknown as TransactionService<CallContext>;
    },
  };
  byApp.set(app, metrics);
  return metrics;
}

const STATUS_TEXT = new Map<number, string>();
/** The status code as a label value, its string made once per code. */
function statusText(code: number): string {
  let text = STATUS_TEXT.get(code);
  if (text === undefined) {
    text = String(code);
    STATUS_TEXT.set(code, text);
  }
  return text;
}

/** The route pattern; requests that matched no route share one label. */
function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? 'unmatched';
}

function paymentOutcome(status: number, payload: unknown): PaymentOutcome | null {
  if (status >= 500) return 'error';
  if (status !== 200 || typeof payload !== 'string') return null; // 4xx: no payment was attempted
  let answer: unknown;
  try {
    answer = JSON.parse(payload);
  } catch {
    return null;
  }
  switch ((answer as { status?: unknown } | null)?.status) {
    case 'succeeded':
    case 'already_paid':
      return 'approved';
    case 'declined':
      return 'declined';
    case 'requires_action':
      return 'requires_action';
    default:
      return null;
  }
}

function paymentMethod(body: unknown): string {
  const method = (body as { method?: unknown } | null)?.method;
  return method === 'card' || method === 'ach' || method === 'saved' ? method : 'unknown';
}

function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

/**
 * A bearer token compared in constant time; or, with none configured, a loopback peer that is not a
 * proxy relaying someone else (behind a trusted proxy `request.ip` comes from X-Forwarded-For, which
 * a client can write, so the socket and the absence of forwarding headers decide).
 */
function mayRead(request: FastifyRequest, token: string | undefined): boolean {
  if (token) {
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice(7) : '';
    const a = crypto.createHash('sha256').update(given).digest();
    const b = crypto.createHash('sha256').update(token).digest();
    return crypto.timingSafeEqual(a, b);
  }
  return (
    isLoopback(request.socket.remoteAddress) &&
    isLoopback(request.ip) &&
    request.headers['x-forwarded-for'] === undefined &&
    request.headers.forwarded === undefined
  );
}
