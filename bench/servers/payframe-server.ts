/**
 * The Payframe side of the SOAP benchmark: the real app (`buildApp`) on a PGlite database, with a
 * Transaction Service answering GetTransactionHistories with the 50 fixture items and
 * Verify3DSecureMerchant with true. Listens on 127.0.0.1, a random port, and prints `{"port":n}`.
 */
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { createLogger } from '../../server/logger.ts';
import type { CallContext } from '../../server/gateway/port.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { operations } from '../../shared/contract/index.ts';
import type { TransactionService } from '../../shared/contract/service.ts';
import { announce, exitWithParent, profileWhileServing, transactionHistories } from './fixture.ts';

function benchService(): TransactionService<CallContext> {
  const service: Record<string, () => Promise<unknown>> = {};
  for (const op of operations) {
    service[op.name] = async () => {
      throw new Error(`${op.name} is not part of the benchmark`);
    };
  }
  service.GetTransactionHistories = async () => transactionHistories;
  service.Verify3DSecureMerchant = async () => true;
  return service as unknown as TransactionService<CallContext>;
}

const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent' });
const db = await databaseTargets()[0]!.open();
const logger = createLogger({ level: 'silent' });
const { app } = await buildApp({ config, db, logger, transactionService: benchService() });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (typeof address !== 'object' || address === null) throw new Error('no address');
const stopProfiling = await profileWhileServing('payframe');
exitWithParent(async () => {
  await stopProfiling();
  await app.close();
  await db.close();
});
announce(address.port);
