/**
 * Starts Payframe: opens and migrates the database, builds the app, listens, and shuts down
 * gracefully on SIGTERM/SIGINT (in-flight requests finish, then the database closes).
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { describeDatabase, openDatabase } from './db/index.ts';
import { type DemoMerchant, ensureDemoMerchant } from './gateway/demo-merchant.ts';
import { startRecurringRunner } from './gateway/index.ts';
import { createLogger } from './logger.ts';

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  /** Set on the first start with an empty database. */
  demo: DemoMerchant | null;
  close(): Promise<void>;
}

export async function startServer(config: Config, logger: Logger = createLogger({ level: config.logLevel })) {
  const db = await openDatabase(config);
  logger.info({ database: describeDatabase(config) }, 'database ready');
  const { app, health, gateway, checkout } = await buildApp({ config, db, logger });
  const demo = await ensureDemoMerchant(config, db, gateway.deps.merchants);
  if (demo) {
    logger.info(
      { merchantId: demo.merchantId },
      'demo merchant created (key in DATA_DIR/demo-merchant.json)',
    );
  }
  // Checkout recovery, expiry announcements, webhook delivery, pruning: every 5 s, on every instance.
  const stopCheckout = checkout.startWorkers(5_000);
  const stopRecurring = startRecurringRunner(gateway.deps, 60_000, (err) =>
    logger.error({ err }, 'recurring runner failed'),
  );
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await app.close();
    await db.close();
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      health.shuttingDown = true;
      stopRecurring();
      stopCheckout();
      await app.close();
      await db.close();
    })();
    return closing;
  };
  return { app, url, close, demo } satisfies RunningServer;
}

/** Closes the server on the first SIGTERM/SIGINT; a second signal exits at once. */
export function closeOnSignals(server: RunningServer, logger: Logger): void {
  let received = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (received) process.exit(1);
    received = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
