/** Builds the real app on a test database, with its log lines collected for inspection. */
import type { FastifyInstance } from 'fastify';
import type { TransactionService } from '../../shared/contract/service.ts';
import { buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { Gateway } from '../gateway/index.ts';
import type { HealthState } from '../http/health.ts';
import { createLogger } from '../logger.ts';
import type { CallContext } from '../soap/call-context.ts';
import { tempDir } from './databases.ts';

export interface TestApp {
  app: FastifyInstance;
  gateway: Gateway;
  health: HealthState;
  config: Config;
  /** Every line the app logged, as written (after redaction and scrubbing). */
  logLines: string[];
  close(): Promise<void>;
}

export async function buildTestApp(
  db: Database,
  env: Record<string, string> = {},
  options: { closeDatabase?: boolean; transactionService?: TransactionService<CallContext> } = {},
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
  const { app, health, gateway } = await buildApp({
    config,
    db,
    logger,
    transactionService: options.transactionService,
  });
  return {
    app,
    health,
    gateway,
    config,
    logLines,
    async close() {
      await app.close();
      if (options.closeDatabase) await db.close();
    },
  };
}
