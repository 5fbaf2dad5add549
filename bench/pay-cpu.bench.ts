/**
 * CPU per pay of compiled Payframe servers from several checkouts, measured in one run (issue 12;
 * bench/README.md "Database transactions per checkout operation"): on this shared, noisy machine
 * only a ratio within one run means anything, so the servers run side by side and take turns.
 *
 *   node --import tsx bench/pay-cpu.bench.ts --db=pglite|postgres ROOT [ROOT…] [--rounds=8] [--batch=25]
 *
 * Each ROOT is a checkout (an export of a commit, say) with its dependencies and `npm run build`
 * done; its server starts as `npm start` starts it (`node --enable-source-maps
 * dist/server/payframe.js serve`, NODE_ENV=production, LOG_LEVEL=silent, TRUST_PROXY=true, a new
 * DATA_DIR, and on PostgreSQL a new database). After 30 pays each as a warm-up, every round gives
 * each server BATCH pays by card, one at a time (bench/lib/checkout-client.ts, the widget's
 * requests), in alternating order; the server process's user + system time over its pays is
 * divided by their number. PostgreSQL: TEST_DATABASE_URL, else DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/test.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readDemoMerchant } from '../test/system/crash/servers.ts';
import { type BenchMerchant, createSession, payByCard } from './lib/checkout-client.ts';
import { cpuSeconds, freshDatabase } from './lib/payframe-servers.ts';
import { startPayframeServe } from './lib/reference-servers.ts';

const { values: args, positionals: roots } = parseArgs({
  allowPositionals: true,
  options: {
    db: { type: 'string', default: 'pglite' },
    rounds: { type: 'string', default: '8' },
    batch: { type: 'string', default: '25' },
  },
});
if (args.db !== 'pglite' && args.db !== 'postgres') throw new Error(`--db must be pglite or postgres`);
if (roots.length === 0) throw new Error('name at least one checkout to measure');
const ROUNDS = Number(args.rounds);
const BATCH = Number(args.batch);
const WARMUP = 30;
const ADMIN_URL =
  process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

interface Measured {
  root: string;
  url: string;
  pid: number;
  merchant: BenchMerchant;
  cpuSeconds: number;
  pays: number;
  stop(): Promise<void>;
}

async function start(root: string): Promise<Measured> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payframe-bench-pay-'));
  const db = args.db === 'postgres' ? await freshDatabase(ADMIN_URL, 'payframe_bench_pay') : null;
  const server = await startPayframeServe({
    root,
    dataDir,
    databaseUrl: db?.url ?? null,
    entry: 'dist',
    env: { LOG_LEVEL: 'silent', TRUST_PROXY: 'true' },
  });
  const m = readDemoMerchant(dataDir);
  return {
    root,
    url: server.url,
    pid: server.pid,
    merchant: {
      merchantId: m.merchantId,
      transactionKey: m.transactionKey,
      origin: new URL(m.returnUrl).origin,
    },
    cpuSeconds: 0,
    pays: 0,
    async stop() {
      await server.stop();
      await db?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function sessions(s: Measured, n: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < n; i++) tokens.push(await createSession(s.url, s.merchant));
  return tokens;
}

async function main(): Promise<void> {
  const servers: Measured[] = [];
  try {
    for (const root of roots) servers.push(await start(path.resolve(root)));
    for (const s of servers) for (const token of await sessions(s, WARMUP)) await payByCard(s.url, token);
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of round % 2 ? [...servers].reverse() : servers) {
        const tokens = await sessions(s, BATCH); // not counted
        const before = cpuSeconds(s.pid);
        for (const token of tokens) await payByCard(s.url, token);
        s.cpuSeconds += cpuSeconds(s.pid) - before;
        s.pays += BATCH;
      }
    }
    const load = os.loadavg()[0]!.toFixed(1);
    process.stdout.write(`${args.db}, ${ROUNDS} rounds of ${BATCH} pays, 1-minute load average ${load}:\n`);
    for (const s of servers) {
      const ms = (s.cpuSeconds * 1000) / s.pays;
      const ratio = ms / ((servers[0]!.cpuSeconds * 1000) / servers[0]!.pays);
      process.stdout.write(
        `  ${s.root}: ${ms.toFixed(2)} ms CPU per pay (${ratio.toFixed(2)}×, ${s.pays} pays)\n`,
      );
    }
  } finally {
    for (const s of servers) await s.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
