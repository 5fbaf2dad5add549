/** Builds the real app on a test database, with its log lines collected for inspection. */
import type { FastifyInstance } from 'fastify';
import type { TransactionService } from '../../shared/contract/service.ts';
import { type AppOptions, buildApp } from '../../server/app.ts';
import { type Config, loadConfig } from '../../server/config.ts';
import type { Database } from '../../server/db/database.ts';
import type { Checkout } from '../../server/checkout/checkout.ts';
import type { Gateway } from '../../server/gateway/index.ts';
import type { HealthState } from '../../server/http/health.ts';
import { createLogger } from '../../server/logger.ts';
import type { CallContext } from '../../server/gateway/port.ts';
import { tempDir } from './databases.ts';

export interface TestApp {
  app: FastifyInstance;
  gateway: Gateway;
  checkout: Checkout;
  health: HealthState;
  config: Config;
  /** Every line the app logged, as written (after redaction and scrubbing). */
  logLines: string[];
  close(): Promise<void>;
}

export async function buildTestApp(
  db: Database,
  env: Record<string, string> = {},
  options: {
    closeDatabase?: boolean;
    transactionService?: TransactionService<CallContext>;
    checkoutOptions?: AppOptions['checkoutOptions'];
    now?: AppOptions['now'];
  } = {},
): Promise<TestApp> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'trace',
    DATA_DIR: tempDir('payframe-app-'),
    ...env,
  });
  const logLines: string[] = [];
  const logger = createLogger({
    level: config.logLevel,
    destination: { write: (l: string) => logLines.push(l) },
  });
  const { app, health, gateway, checkout } = await buildApp({
    config,
    db,
    logger,
    transactionService: options.transactionService,
    checkoutOptions: options.checkoutOptions,
    now: options.now,
  });
  return {
    app,
    health,
    gateway,
    checkout,
    config,
    logLines,
    async close() {
      await app.close();
      if (options.closeDatabase) await db.close();
    },
  };
}
