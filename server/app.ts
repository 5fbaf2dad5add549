/**
 * The Payframe HTTP application, built as a Fastify instance from its parts. `server.ts` starts it;
 * tests build it and use `app.inject()`. One builder per role (config.ts `Role`): `buildApp` (all:
 * gateway and checkout in one process, the checkout on the in-process port), `buildGatewayApp` and
 * `buildCheckoutApp` (the split wiring, server/checkout/README.md).
 */
import crypto from 'node:crypto';
import path from 'node:path';
import type { Server } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyHttpOptions, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { specOperations } from '../shared/contract/operations.ts';
import type { TransactionService } from '../shared/contract/service.ts';
import { type Checkout, createCheckout } from './checkout/checkout.ts';
import type { CheckoutOptions } from './checkout/deps.ts';
import { checkoutPlugin } from './checkout/plugin.ts';
import { dashboardPlugin } from './dashboard/plugin.ts';
import { checkoutPort } from './checkout/service-mode.ts';
import { inProcessThreeDsResults, remoteThreeDsResults } from './checkout/three-ds-results.ts';
import { merchantKeySigner } from './checkout/signer.ts';
import { type Config, ConfigError, roleProblems } from './config.ts';
import type { Database } from './db/index.ts';
import { type Gateway, openGateway } from './gateway/index.ts';
import { reportReconciliation } from './gateway/payments/reconciliation-job.ts';
import { threeDsRoutes } from './gateway/three-ds/three-ds-routes.ts';
import { passwordResetRoutes } from './gateway/users/password-reset-routes.ts';
import { devOutboxRoutes } from './notify/dev-outbox-routes.ts';
import { createNotifier } from './notify/notifier.ts';
import { registerCompression } from './http/compression.ts';
import { registerErrorHandling } from './http/error-handler.ts';
import { type HealthState, registerHealthRoutes } from './http/health.ts';
import { metricsOf, registerMetrics } from './http/metrics.ts';
import { requestIdOf } from './http/request-id.ts';
import { OneLineRequestLog } from './http/request-log.ts';
import { lazyRequestLogger } from './http/request-logger.ts';
import { cspReportRoutes } from './http/csp-reports.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerPinnedLoader } from './http/pinned-loader.ts';
import { registerWidgetAssets, WIDGET_DIST } from './http/widget-assets.ts';
import type { CallContext } from './gateway/port.ts';
import { transactionServicePlugin } from './soap/plugin.ts';
import { authenticateBeforeReading } from './gateway/pre-auth.ts';

export interface AppOptions {
  config: Config;
  db: Database;
  logger: Logger;
  /** Replaces the gateway behind /TransactionService.asmx (binding and client tests). */
  transactionService?: TransactionService<CallContext>;
  /** Adjusts the checkout's options (tests: a port that fails on cue, a fixed secret). */
  checkoutOptions?: (defaults: CheckoutOptions) => CheckoutOptions;
  /** The clock of the gateway and the checkout (tests move it; the real one otherwise). */
  now?: () => Date;
  /** What this process writes on its payment claims and attempts (server/instance.ts `owner`). */
  instanceOwner?: string | null;
}

export interface GatewayAppOptions extends Omit<AppOptions, 'checkoutOptions'> {
  /**
   * `serve --role gateway --spec-only`: /TransactionService.asmx serves the spec's 21 operations
   * only (WSDL, help pages, bindings; soap/served-operations.ts), so that a checkout can be shown to
   * work in front of a service that speaks nothing else (issue 20). Everything else is unchanged.
   */
  specOnly?: boolean;
}

export interface PayframeApp {
  app: FastifyInstance;
  health: HealthState;
  gateway: Gateway;
  checkout: Checkout;
}

export type GatewayApp = Omit<PayframeApp, 'checkout'>;
export type CheckoutApp = Omit<PayframeApp, 'gateway'>;

/** Fastify with what every role has: security headers, error handling, health. */
async function baseApp(
  config: Config,
  db: Database,
  logger: Logger,
): Promise<{ app: FastifyInstance; health: HealthState }> {
  const options: FastifyHttpOptions<Server, FastifyBaseLogger> = {
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    // X-Request-Id is kept only when it looks like an id (http/request-id.ts).
    requestIdHeader: false,
    genReqId: requestIdOf,
    // A request's child logger is made only when it logs (http/request-logger.ts).
    childLoggerFactory: lazyRequestLogger,
    // One line per request, written with its answer (http/request-log.ts).
    logController: new OneLineRequestLog(),
    // Slow clients cannot hold a connection open for ever (slow-loris).
    connectionTimeout: 30_000,
    requestTimeout: 30_000,
    return503OnClosing: true,
  };
  const app: FastifyInstance = Fastify(options);
  const health: HealthState = { shuttingDown: false };
  // First, so that every route registered after it answers compressed when the client accepts it.
  await registerCompression(app);
  registerSecurityHeaders(app);
  registerErrorHandling(app);
  registerHealthRoutes(app, db, health);
  const metrics = registerMetrics(app, { db, token: config.metricsToken });
  // Every role serves pages whose CSP reports here (the hosted page; the 3-D Secure challenge).
  void app.register(cspReportRoutes, { registry: metrics.registry });
  return { app, health };
}

/** The gateway's routes: users and password reset, dev outbox, 3-D Secure pages, the SOAP service. */
async function registerGateway(
  app: FastifyInstance,
  health: HealthState,
  {
    config,
    db,
    transactionService,
    now,
    instanceOwner,
    specOnly,
  }: Pick<GatewayAppOptions, 'config' | 'db' | 'transactionService' | 'now' | 'instanceOwner' | 'specOnly'>,
): Promise<Gateway> {
  const gateway = await openGateway(config, db, now, instanceOwner ?? null);
  reportReconciliation(app, health, gateway.reconciliation);
  app.addHook('onClose', () => gateway.deps.notifier.close()); // waits for background sends
  await app.register(passwordResetRoutes, {
    db,
    now: gateway.deps.now,
    // The dashboard is served where the checkout is (the same server, or the checkout role's).
    signInUrl: `${config.checkoutPublicUrl}/dashboard`,
  });
  if (config.env !== 'production') await app.register(devOutboxRoutes, { db, env: config.env });
  // The challenge pages are framed by the checkout's page: in the split wiring that is another origin.
  const checkoutOrigin = new URL(config.checkoutPublicUrl).origin;
  const frameAncestors =
    checkoutOrigin === new URL(config.publicUrl).origin ? ["'self'"] : ["'self'", checkoutOrigin];
  await app.register(threeDsRoutes, { db, service: gateway.deps.threeDs, frameAncestors });
  await app.register(transactionServicePlugin, {
    service: metricsOf(app).instrumentService(transactionService ?? gateway.service),
    namespace: config.soapNamespace,
    httpBindings: config.soapHttpBindings,
    httpGetChanges: config.soapHttpGetChanges,
    ...(specOnly ? { operations: specOperations } : {}),
    // The credential is checked before the body is read (the gateway's own service only: a stand-in
    // service given by a test checks nothing).
    ...(transactionService
      ? {}
      : {
          authenticate: (operation: string | undefined, context: CallContext) =>
            authenticateBeforeReading(gateway.deps, operation, context),
        }),
  });
  return gateway;
}

/** Role all: the gateway and the checkout in one process, the checkout on the in-process port. */
export async function buildApp({
  config,
  db,
  logger,
  transactionService,
  checkoutOptions,
  now,
  instanceOwner,
}: AppOptions): Promise<PayframeApp> {
  const { app, health } = await baseApp(config, db, logger);
  const gateway = await registerGateway(app, health, { config, db, transactionService, now, instanceOwner });
  const defaults: CheckoutOptions = {
    db,
    port: gateway.service,
    // Keys the idempotency fingerprints; derived from the vault key, which every instance shares.
    secret: crypto
      .createHash('sha256')
      .update(gateway.keys.fingerprintPan('payframe/checkout-idempotency'))
      .digest(),
    signer: merchantKeySigner(gateway.deps.merchants, db, gateway.deps.now),
    publicUrl: config.publicUrl,
    log: app.log,
    webhooks: { allowPrivateNetworks: config.env !== 'production' },
    staleAttemptMs: config.stalePaymentMs,
    limits: { payPerIp: { limit: config.paysPerMinutePerIp, windowMs: 60_000 } },
    threeDs: inProcessThreeDsResults(gateway.deps.threeDs, db),
    instanceOwner: instanceOwner ?? null,
    notifier: gateway.deps.notifier,
    ...(now ? { now } : {}),
  };
  const checkout = createCheckout(checkoutOptions ? checkoutOptions(defaults) : defaults);
  await app.register(checkoutPlugin, { checkout, notifier: gateway.deps.notifier });
  await app.register(dashboardPlugin, { checkout, notifier: gateway.deps.notifier });
  await registerWidgetAssets(app);
  await registerPinnedLoader(app, db, path.join(WIDGET_DIST, 'checkout.js'));
  return { app, health, gateway, checkout };
}

/** Role gateway: the Transaction Service and its pages; no checkout routes, pages or workers. */
export async function buildGatewayApp({
  config,
  db,
  logger,
  transactionService,
  instanceOwner,
  specOnly,
}: GatewayAppOptions): Promise<GatewayApp> {
  const { app, health } = await baseApp(config, db, logger);
  const gateway = await registerGateway(app, health, {
    config,
    db,
    transactionService,
    instanceOwner,
    specOnly,
  });
  return { app, health, gateway };
}

/**
 * Role checkout: merchant REST, the widget's API and pages, over SOAP to the gateway at
 * TRANSACTION_SERVICE_URL with the service credential. It opens no vault and holds no merchant key:
 * the gateway signs redirects and webhooks for it (SignForMerchant). Its own database holds the
 * checkout tables and the outbox of the one-time codes it sends.
 */
export async function buildCheckoutApp({
  config,
  db,
  logger,
  checkoutOptions,
  instanceOwner,
}: Omit<AppOptions, 'transactionService'>): Promise<CheckoutApp> {
  const problems = roleProblems(config, 'checkout');
  if (problems.length > 0 || !config.transactionServiceUrl || !config.checkoutSecret) {
    throw new ConfigError(problems);
  }
  const { app, health } = await baseApp(config, db, logger);
  const notifier = createNotifier(config, db);
  app.addHook('onClose', () => notifier.close());
  // One-time codes land in this database's outbox when no SMTP/SMS is configured.
  if (config.env !== 'production') await app.register(devOutboxRoutes, { db, env: config.env });
  // Payframe's gateway, or a service that speaks only the spec (TRANSACTION_SERVICE_MODE).
  const { mode, port, signer, callLimitMs } = await checkoutPort(config, db, app.log);
  const defaults: CheckoutOptions = {
    db,
    port,
    serviceMode: mode,
    secret: config.checkoutSecret,
    signer,
    publicUrl: config.publicUrl,
    log: app.log,
    webhooks: { allowPrivateNetworks: config.env !== 'production' },
    staleAttemptMs: config.stalePaymentMs,
    limits: { payPerIp: { limit: config.paysPerMinutePerIp, windowMs: 60_000 } },
    instanceOwner: instanceOwner ?? null,
    callLimitMs,
    notifier,
    // A challenge's result is read from Payframe's gateway; the spec carries no challenge step.
    threeDs:
      mode === 'payframe'
        ? remoteThreeDsResults({
            baseUrl: config.transactionServiceUrl,
            publicUrl: config.gatewayPublicUrl ?? config.transactionServiceUrl,
          })
        : undefined,
  };
  const checkout = createCheckout(checkoutOptions ? checkoutOptions(defaults) : defaults);
  await app.register(checkoutPlugin, { checkout, notifier });
  // The dashboard signs in with Payframe's extensions (GetUserSession…): not in front of a spec-only service.
  if (mode === 'payframe') await app.register(dashboardPlugin, { checkout, notifier });
  await registerWidgetAssets(app);
  await registerPinnedLoader(app, db, path.join(WIDGET_DIST, 'checkout.js'));
  return { app, health, checkout };
}
