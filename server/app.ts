/**
 * The Payframe HTTP application, built as a Fastify instance from its parts. `server.ts` starts it;
 * tests build it and use `app.inject()`.
 */
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Database } from './db/index.ts';
import { registerErrorHandling } from './http/error-handler.ts';
import { type HealthState, registerHealthRoutes } from './http/health.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerWidgetAssets } from './http/widget-assets.ts';
import type { CallContext } from './soap/call-context.ts';
import { notImplementedService } from './soap/not-implemented.ts';
import { transactionServicePlugin } from './soap/plugin.ts';
import type { TransactionService } from '../shared/contract/service.ts';

export interface AppOptions {
  config: Config;
  db: Database;
  logger: Logger;
  /** The Transaction Service implementation behind /TransactionService.asmx. */
  transactionService?: TransactionService<CallContext>;
}

export interface PayframeApp {
  app: FastifyInstance;
  health: HealthState;
}

export async function buildApp({ config, db, logger, transactionService }: AppOptions): Promise<PayframeApp> {
  const app: FastifyInstance = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: config.bodyLimit,
    requestIdHeader: 'x-request-id',
    // Slow clients cannot hold a connection open for ever (slow-loris).
    connectionTimeout: 30_000,
    requestTimeout: 30_000,
    return503OnClosing: true,
  });
  const health: HealthState = { shuttingDown: false };

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerSecurityHeaders(app);
  registerErrorHandling(app);
  registerHealthRoutes(app, db, health);
  await app.register(transactionServicePlugin, {
    service: transactionService ?? notImplementedService(),
    namespace: config.soapNamespace,
    httpBindings: config.soapHttpBindings,
  });
  await registerWidgetAssets(app);
  return { app, health };
}
