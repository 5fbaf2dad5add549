/**
 * Test support for the checkout tests: the real app on a test database with the checkout plugin
 * registered over the in-process gateway port, a merchant, and helpers that call the REST and
 * widget endpoints the way a merchant server and the widget do.
 */
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { TransactionService } from '../../../shared/contract/service.ts';
import type { Database } from '../../../server/db/database.ts';
import { futureExpiry } from '../gateway/gateway-kit.ts';
import type { CallContext } from '../../../server/gateway/port.ts';
import { buildTestApp, type TestApp } from '../app.ts';
import { databaseTargets } from '../databases.ts';
import type { Checkout } from '../../../server/checkout/checkout.ts';
import type { CheckoutOptions } from '../../../server/checkout/deps.ts';
import { remoteTransactionService } from '../../../server/checkout/remote-port.ts';

export const SERVICE_KEY = 'service-key-for-checkout-tests-0123456789';
export const SHOP_ORIGIN = 'https://shop.example';
export const PUBLIC_URL = 'https://pay.example';
export const CHECKOUT_SECRET = Buffer.alloc(32, 7);

export interface WorldMerchant {
  id: string;
  key: string;
  authorization: string;
}

export interface CheckoutWorld {
  db: Database;
  t: TestApp;
  app: FastifyInstance;
  checkout: Checkout;
  merchant: WorldMerchant;
  close(): Promise<void>;
}

export type WorldOptions = Partial<Omit<CheckoutOptions, 'db' | 'port' | 'signer' | 'log'>> & {
  env?: Record<string, string>;
  merchant?: { threeDsEnrolled?: boolean; paymentMethods?: ('card' | 'ach')[] };
  /** Wraps the in-process gateway port (to slow calls down, or lose their answers). */
  wrapPort?: (port: TransactionService<CallContext>) => TransactionService<CallContext>;
};

export function basicAuth(id: string, key: string): string {
  return `Basic ${Buffer.from(`${id}:${key}`).toString('base64')}`;
}

export async function addMerchant(
  t: TestApp,
  db: Database,
  name: string,
  options: WorldOptions['merchant'] = {},
): Promise<WorldMerchant> {
  const { merchant, transactionKey } = await t.gateway.deps.merchants.create(db, {
    name,
    origins: [SHOP_ORIGIN, 'http://localhost:4000'],
    threeDsEnrolled: options.threeDsEnrolled ?? false,
    paymentMethods: options.paymentMethods ?? ['card', 'ach'],
  });
  return { id: merchant.id, key: transactionKey, authorization: basicAuth(merchant.id, transactionKey) };
}

/** The app on `db` with the checkout registered (not yet listening; inject works). */
export async function buildCheckoutApp(db: Database, options: WorldOptions = {}) {
  const { env: _env, merchant: _merchant, wrapPort, ...rest } = options;
  // The app registers the checkout itself; the tests adjust its options.
  const t = await buildTestApp(
    db,
    { LOG_LEVEL: 'warn', GATEWAY_SERVICE_KEY: SERVICE_KEY, PUBLIC_URL, ...options.env },
    {
      closeDatabase: true,
      // One clock for both sides, as one process has.
      ...(options.now ? { now: options.now } : {}),
      checkoutOptions: (defaults) => ({
        ...defaults,
        port: wrapPort ? wrapPort(defaults.port) : defaults.port,
        secret: CHECKOUT_SECRET,
        ...rest,
      }),
    },
  );
  return { t, checkout: t.checkout };
}

export async function openCheckoutWorld(db: Database, options: WorldOptions = {}): Promise<CheckoutWorld> {
  const { t, checkout } = await buildCheckoutApp(db, options);
  const merchant = await addMerchant(t, db, 'Alpha Outfitters', options.merchant);
  return { db, t, app: t.app, checkout, merchant, close: () => t.close() };
}

export type Wiring = 'in process' | 'over SOAP';

/** Every database target in both wirings, for `describe.each`: `$name` reads "PGlite, over SOAP". */
export function wiringCases() {
  return databaseTargets().flatMap((target) =>
    (['in process', 'over SOAP'] as const).map((wiring: Wiring) => ({
      name: `${target.name}, ${wiring}`,
      target,
      wiring,
    })),
  );
}

/** The split wiring in one process: a checkout app reaching a gateway app of its own over real SOAP. */
export interface RemoteCheckoutWorld extends CheckoutWorld {
  /** The app that owns the gateway (and so its merchants), listening on a loopback port. */
  gateway: TestApp;
  /** The SOAP operations the gateway was asked, in order (its SOAPAction headers). */
  soapCalls: string[];
}

/**
 * Both apps on one database, as two roles share one in production; the checkout reads the gateway
 * only through `remoteTransactionService` with the service key. Closing closes both and the database.
 */
export async function openRemoteCheckoutWorld(
  db: Database,
  merchantName: string,
): Promise<RemoteCheckoutWorld> {
  // The in-process signer of the checkout app reads TransactionKeys under the same vault key.
  const env = { CARD_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex') };
  const gateway = await buildTestApp(db, { LOG_LEVEL: 'warn', GATEWAY_SERVICE_KEY: SERVICE_KEY, ...env });
  const soapCalls: string[] = [];
  gateway.app.addHook('onRequest', async (request) => {
    const action = request.headers.soapaction;
    if (typeof action === 'string') soapCalls.push(action.replace(/^"?.*\//, '').replace(/"$/, ''));
  });
  await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(gateway.app.server.address() as AddressInfo).port}`;
  const { t, checkout } = await buildCheckoutApp(db, {
    env,
    wrapPort: () =>
      remoteTransactionService({ baseUrl, namespace: gateway.config.soapNamespace, serviceKey: SERVICE_KEY }),
  });
  const merchant = await addMerchant(gateway, db, merchantName);
  return {
    db,
    t,
    app: t.app,
    checkout,
    merchant,
    gateway,
    soapCalls,
    close: async () => {
      await t.close(); // closes the database too
      await gateway.app.close();
    },
  };
}

export function sessionBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: '24.99',
    currency: 'USD',
    orderNumber: 'A-1001',
    shopper: {
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      address: { zipCode: '94105' },
    },
    returnUrl: `${SHOP_ORIGIN}/thanks?cart=7`,
    ...overrides,
  };
}

export async function createSession(
  w: CheckoutWorld,
  overrides: Record<string, unknown> = {},
  merchant: WorldMerchant = w.merchant,
): Promise<string> {
  const res = await w.app.inject({
    method: 'POST',
    url: '/v1/checkout-sessions',
    headers: { authorization: merchant.authorization },
    payload: sessionBody(overrides),
  });
  if (res.statusCode !== 201) throw new Error(`create session answered ${res.statusCode}: ${res.body}`);
  return res.json().token;
}

export function cardBody(number = '4242424242424242', extra: Record<string, unknown> = {}) {
  return {
    method: 'card',
    card: { number, expiry: futureExpiry(), cvv: '123', name: 'Ada Lovelace' },
    ...extra,
  };
}

export function achBody(accountNumber = '000123456789') {
  return {
    method: 'ach',
    ach: {
      routingNumber: '011000015',
      accountNumber,
      accountType: 'checking',
      nameOnAccount: 'Ada Lovelace',
      authorized: true,
    },
  };
}

export const WIDGET_HEADERS = { 'x-payframe-client': 'widget', 'content-type': 'application/json' };

export function newKey(): string {
  return crypto.randomUUID();
}

export function pay(
  app: FastifyInstance,
  token: string,
  body: unknown,
  options: { key?: string | null; headers?: Record<string, string>; remoteAddress?: string } = {},
): Promise<LightMyRequestResponse> {
  const key = options.key === undefined ? newKey() : options.key;
  return app.inject({
    method: 'POST',
    url: `/api/checkout/sessions/${token}/pay`,
    remoteAddress: options.remoteAddress ?? '203.0.113.9',
    headers: { ...WIDGET_HEADERS, ...(key === null ? {} : { 'idempotency-key': key }), ...options.headers },
    payload: JSON.stringify(body),
  });
}

/** Approved transactions the gateway recorded for the session. */
export async function approvedTransactions(db: Database, token: string): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    `select count(*) as n from transactions t join checkout_sessions s on s.id = t.checkout_session_id
     where s.token = $1 and t.status = 'approved'`,
    [token],
  );
  return Number(rows[0]?.n ?? 0);
}

/** A clock tests move by hand. */
export function manualClock(start = new Date()) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}

/** The port with ProcessTransaction replaced by `fn(real, params, context)`. */
/** The port with the checkout's pay call (PayCheckoutSession) wrapped, e.g. to lose its answer. */
export function withPayCheckoutSession(
  fn: (
    real: TransactionService<CallContext>['PayCheckoutSession'],
    ...args: Parameters<TransactionService<CallContext>['PayCheckoutSession']>
  ) => ReturnType<TransactionService<CallContext>['PayCheckoutSession']>,
) {
  return (port: TransactionService<CallContext>): TransactionService<CallContext> => ({
    ...port,
    PayCheckoutSession: (params, context) => fn(port.PayCheckoutSession, params, context),
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
