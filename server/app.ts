/**
 * The Payframe HTTP application, built as a Fastify instance from its parts. `server.ts` starts it;
 * tests build it and use `app.inject()`.
 */
import crypto from 'node:crypto';
import type { Server } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyHttpOptions, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { TransactionService } from '../shared/contract/service.ts';
import { type Checkout, createCheckout } from './checkout/checkout.ts';
import type { CheckoutOptions } from './checkout/deps.ts';
import { checkoutPlugin } from './checkout/plugin.ts';
import { merchantKeySigner } from './checkout/signer.ts';
import type { Config } from './config.ts';
import type { Database } from './db/index.ts';
import { type Gateway, openGateway } from './gateway/index.ts';
import { threeDsRoutes } from './gateway/three-ds/three-ds-routes.ts';
import { passwordResetRoutes } from './gateway/users/password-reset-routes.ts';
import { devOutboxRoutes } from './notify/dev-outbox-routes.ts';
import { registerErrorHandling } from './http/error-handler.ts';
import { type HealthState, registerHealthRoutes } from './http/health.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerWidgetAssets } from './http/widget-assets.ts';
import type { CallContext } from './soap/call-context.ts';
import { transactionServicePlugin } from './soap/plugin.ts';

export interface AppOptions {
  config: Config;
  db: Database;
  logger: Logger;
  /** Replaces the gateway behind /TransactionService.asmx (binding and client tests). */
  transactionService?: TransactionService<CallContext>;
  /** Adjusts the checkout's options (tests: a port that fails on cue, a fixed secret). */
  checkoutOptions?: (defaults: CheckoutOptions) => CheckoutOptions;
}

export interface PayframeApp {
  app: FastifyInstance;
  health: HealthState;
  gateway: Gateway;
  checkout: Checkout;
}

export async function buildApp({
  config,
  db,
  logger,
  transactionService,
  checkoutOptions,
}: AppOptions): Promise<PayframeApp> {
  const options: FastifyHttpOptions<Server, FastifyBaseLogger> = {
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    requestIdHeader: 'x-request-id',
    // Slow clients cannot hold a connection open for ever (slow-loris).
    connectionTimeout: 30_000,
    requestTimeout: 30_000,
    return503OnClosing: true,
  };
  const app: FastifyInstance = Fastify(options);
  const health: HealthState = { shuttingDown: false };

  registerSecurityHeaders(app);
  registerErrorHandling(app);
  registerHealthRoutes(app, db, health);
  const gateway = openGateway(config, db);
  app.addHook('onClose', () => gateway.deps.notifier.close()); // waits for background sends
  await app.register(passwordResetRoutes, { db, now: gateway.deps.now });
  if (config.env !== 'production') await app.register(devOutboxRoutes, { db, env: config.env });
  await app.register(threeDsRoutes, { db, service: gateway.deps.threeDs });
  await app.register(transactionServicePlugin, {
    service: transactionService ?? gateway.service,
    namespace: config.soapNamespace,
    httpBindings: config.soapHttpBindings,
  });
  const defaults: CheckoutOptions = {
    db,
    port: gateway.service,
    // Keys the idempotency fingerprints; derived from the vault key, which every instance shares.
    secret: crypto
      .createHash('sha256')
      .update(gateway.keys.fingerprintPan('payframe/checkout-idempotency'))
      .digest(),
    signer: merchantKeySigner(gateway.deps.merchants, db),
    publicUrl: config.publicUrl,
    log: app.log,
    webhooks: { allowPrivateNetworks: config.env !== 'production' },
  };
  const checkout = createCheckout(checkoutOptions ? checkoutOptions(defaults) : defaults);
  await app.register(checkoutPlugin, { checkout, notifier: gateway.deps.notifier });
  await registerWidgetAssets(app);
  return { app, health, gateway, checkout };
}
