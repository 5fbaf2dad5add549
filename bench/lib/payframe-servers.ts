/**
 * Payframe servers for benchmarks, configured as `npm start` runs them (`payframe serve`, role all,
 * NODE_ENV=production, LOG_LEVEL=silent, TRUST_PROXY=true; a new DATA_DIR, and on PostgreSQL a
 * database of its own), with the demo merchant the first start creates as the merchant:
 *
 *   startChild      the compiled server, `node --enable-source-maps dist/server/payframe.js serve`
 *                   (what `npm start` runs; `npm run build` first), in a child process, so its CPU
 *                   time can be read from /proc apart from the load generator's;
 *   startInProcess  the same start (server/server.ts `startServer`, which `payframe serve` calls)
 *                   in this process, its database wrapped in a counting one (server/db/counting.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readDemoMerchant } from '../../test/system/crash/servers.ts';
import { loadConfig } from '../../server/config.ts';
import { type CountingDatabase, countingDatabase } from '../../server/db/counting.ts';
import { createLogger } from '../../server/logger.ts';
import { startServer } from '../../server/server.ts';
import { freePort } from '../../test/kit/net.ts';
import type { BenchMerchant, BenchServer } from './checkout-client.ts';
import { startPayframeServe } from './reference-servers.ts';

// Production makes no merchant by itself: the demo's is the one the benchmarks pay as.
const ENV = { NODE_ENV: 'production', LOG_LEVEL: 'silent', TRUST_PROXY: 'true', PAYFRAME_DEMO: '1' };

function demoMerchant(dataDir: string): BenchMerchant {
  const m = readDemoMerchant(dataDir);
  return { merchantId: m.merchantId, transactionKey: m.transactionKey, origin: new URL(m.returnUrl).origin };
}

export { freshDatabase } from '../../test/kit/databases.ts';

/**
 * The compiled server in a child process, started as `npm start` starts it (`node
 * --enable-source-maps dist/server/payframe.js serve`; `npm run build` first); ready when /readyz
 * answers.
 */
export async function startChild(databaseUrl: string | null) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payframe-bench-tx-'));
  const child = await startPayframeServe({ dataDir, databaseUrl, entry: 'dist', env: ENV });
  return {
    url: child.url,
    pid: child.pid,
    merchant: demoMerchant(dataDir),
    async stop() {
      await child.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  } satisfies BenchServer & { pid: number };
}

/** The same start in this process, its database work counted (statement texts kept). */
export async function startInProcess(databaseUrl: string | null) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payframe-bench-tx-'));
  const config = loadConfig({
    ...ENV,
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    DEMO_PORT: String(await freePort()),
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
  });
  let counting: CountingDatabase | undefined;
  const server = await startServer(config, createLogger({ level: 'silent' }), 'all', {
    wrapDatabase: (db) => (counting = countingDatabase(db, { sql: true })),
  });
  if (!counting) throw new Error('the server did not open its database through wrapDatabase');
  return {
    url: server.url,
    merchant: demoMerchant(dataDir),
    counting,
    async stop() {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  } satisfies BenchServer & { counting: CountingDatabase };
}

/** CPU seconds (user + system) the process has used so far, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 10 ms
}
