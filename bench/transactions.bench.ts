/**
 * Database transactions per checkout operation (issue 12; bench/README.md records the result), on
 * PostgreSQL and on PGlite, for BATCH of each: a merchant creates a session, a shopper loads one, a
 * shopper pays one by card. And the CPU one pay costs the Payframe process, over PAYS pays.
 *
 *   PostgreSQL, counted by the database: the compiled server as `npm start` runs it (`node
 *     --enable-source-maps dist/server/payframe.js serve`; `npm run build` first) in a child process
 *     on a database of its own; commits + rollbacks of that database in pg_stat_database, read before and after each
 *     batch from a connection to another database (so the reading costs the count nothing).
 *   Both databases, counted at the storage port: the same start in this process (server.ts
 *     `startServer` with `wrapDatabase`, server/db/counting.ts), which also counts statements.
 *     PGlite cannot be counted from outside: it lives in the server's process.
 *   CPU per pay: the same compiled server in a child process, its user + system time from /proc.
 *
 *   node --import tsx bench/transactions.bench.ts [options]
 *     --label=before|after   which column of the README's table this run fills (default after)
 *     --no-record            print only
 *     --only=pglite|postgres one database
 *     --sql                  print the statements of one operation of each kind
 *     --code=TEXT            what was measured (default: the commit, from git)
 *     --readme=PATH          the README to record in (default bench/README.md)
 *     --render               measure nothing: write the section again from the figures it holds
 * PostgreSQL: TEST_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type CountingDatabase, listStatements, type StatementRecord } from '../server/db/counting.ts';
import {
  type BenchServer,
  OPERATIONS,
  type Operation,
  payByCard,
  perform,
  prepare,
  runBatch,
  warmUp,
} from './lib/checkout-client.ts';
import { backendCpu, quietAutovacuum, readTransactions } from './lib/postgres-stats.ts';
import { cpuSeconds, freshDatabase, startChild, startInProcess } from './lib/payframe-servers.ts';
import { recordSection } from './lib/readme.ts';
import {
  type DatabaseResult,
  type Label,
  LABELS,
  type PortCounts,
  readmeSection,
  readRecorded,
  renderFigures,
  type Run,
  SECTION,
} from './lib/transactions-report.ts';

const BATCH = 20;
/** Port counts: batches per operation; the fewest statements wins (a background tick only adds). */
const PORT_BATCHES = 5;
/** Database counts: batches per operation; the median is recorded. */
const DATABASE_BATCHES = 3;
const PAYS = 200;
const WARMUP = 5;
/** The checkout's background work runs every 5 s (server.ts `startWorkers`). */
const TICK_MS = 5_000;
/**
 * Database windows span whole periods of all the background work: the checkout's 5 s, and the
 * gateway's payment-claim sweep every 10 s where the server runs one (the seam rewrite adds it).
 */
const PERIOD_MS = 10_000;
/** PostgreSQL 15 flushes a backend's counts at most once a second, an idle one within 10 s. */
const FLUSH_MS = 11_000;

const { values: args } = parseArgs({
  options: {
    label: { type: 'string', default: 'after' },
    'no-record': { type: 'boolean', default: false },
    only: { type: 'string' },
    sql: { type: 'boolean', default: false },
    code: { type: 'string' },
    readme: { type: 'string' },
    render: { type: 'boolean', default: false },
  },
});
const label = args.label as Label;
if (!LABELS.includes(label)) throw new Error(`--label must be before or after (got ${args.label})`);
if (args.only !== undefined && args.only !== 'pglite' && args.only !== 'postgres') {
  throw new Error(`--only must be pglite or postgres (got ${args.only})`);
}
const README = args.readme ?? path.join(path.dirname(fileURLToPath(import.meta.url)), 'README.md');
const ADMIN_URL =
  process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Rounded for the record (the README keeps the figures as JSON). */
const round = (n: number, digits: number) => Number(n.toFixed(digits));
const say = (line: string) => process.stdout.write(`${line}\n`);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

// ---- counted at the port (in-process) ----------------------------------------------------------

/**
 * Waits for the server's next background run (any statement while the benchmark sends nothing) to
 * start and finish, so the batch after it has most of a period to itself.
 */
async function afterBackgroundWork(db: CountingDatabase): Promise<void> {
  const seen = db.snapshot().statements;
  const deadline = performance.now() + TICK_MS + 1_000;
  while (db.snapshot().statements === seen && performance.now() < deadline) await sleep(10);
  for (let last = -1; ;) {
    const now = db.snapshot().statements;
    if (now === last) return;
    last = now;
    await sleep(100);
  }
}

async function countAtPort(databaseUrl: string | null) {
  const s = await startInProcess(databaseUrl);
  try {
    await warmUp(s, WARMUP);
    const counts = {} as Record<Operation, PortCounts>;
    const sql = {} as Record<Operation, StatementRecord[]>;
    for (const op of OPERATIONS) {
      const batches: PortCounts[] = [];
      for (let b = 0; b < PORT_BATCHES; b++) {
        const tokens = await prepare(s, op, BATCH);
        await afterBackgroundWork(s.counting);
        s.counting.reset();
        await runBatch(s, op, tokens);
        const w = s.counting.snapshot();
        batches.push({
          transactions: w.transactions / BATCH,
          statements: w.statements / BATCH,
          rollbacks: w.rollbacks / BATCH,
        });
      }
      counts[op] = batches.reduce((a, b) => (b.statements < a.statements ? b : a));
      say(
        `  ${op}: ${batches.map((c) => `${c.transactions}/${c.statements}`).join(', ')} (transactions/statements per batch)`,
      );
      const [token] = await prepare(s, op, 1);
      s.counting.reset();
      await perform(s, op, token!);
      sql[op] = s.counting.snapshot().sql;
    }
    return { counts, sql };
  } finally {
    await s.stop();
  }
}

function printStatements(sql: Record<Operation, StatementRecord[]>): void {
  for (const op of OPERATIONS) {
    say(`\n  one ${op}: ${sql[op].length} statements`);
    say(listStatements(sql[op]).replace(/^/gm, '    '));
  }
}

// ---- counted by PostgreSQL, and the CPU of a pay -----------------------------------------------

/** A window of whole background periods, closing FLUSH_MS or more after `busyMs` of work in it. */
const windowMs = (busyMs: number) => Math.ceil((busyMs + FLUSH_MS) / PERIOD_MS) * PERIOD_MS;

/**
 * Transactions per operation as pg_stat_database counts them. Each batch's window spans whole
 * periods of the server's background work (PERIOD_MS) and closes FLUSH_MS or more after the batch, so
 * every count of the batch is in; an idle window of the same length just before it measures the
 * background, whose rate over all idle windows is subtracted.
 */
async function countInDatabase(s: BenchServer, admin: pg.Client, dbName: string) {
  const windows = {} as Record<Operation, { counted: number; ms: number }[]>;
  let idleCount = 0;
  let idleMs = 0;
  /** Transactions in [now, now + ms), `work` run at its start. */
  const countWindow = async (ms: (busyMs: number) => number, work: () => Promise<void>) => {
    const start = performance.now();
    const before = await readTransactions(admin, dbName);
    await work();
    await sleep(start + ms(performance.now() - start) - performance.now());
    return { counted: (await readTransactions(admin, dbName)) - before, ms: performance.now() - start };
  };
  for (const op of OPERATIONS) {
    windows[op] = [];
    for (let b = 0; b < DATABASE_BATCHES; b++) {
      const tokens = await prepare(s, op, BATCH);
      await sleep(FLUSH_MS); // the preparation's counts land before the windows open
      const idle = await countWindow(
        () => windowMs(0),
        async () => {},
      );
      idleCount += idle.counted;
      idleMs += idle.ms;
      windows[op].push(await countWindow(windowMs, () => runBatch(s, op, tokens)));
    }
  }
  const idlePerMs = idleCount / idleMs;
  say(`  idle: ${(idlePerMs * TICK_MS).toFixed(2)} transactions per ${TICK_MS / 1000} s`);
  const perOp = {} as Record<Operation, number>;
  const batches = {} as Record<Operation, number[]>;
  for (const op of OPERATIONS) {
    batches[op] = windows[op].map((w) => round((w.counted - idlePerMs * w.ms) / BATCH, 3));
    perOp[op] = median(batches[op]);
    say(`  ${op}: ${batches[op].map((n) => n.toFixed(2)).join(', ')} transactions per operation`);
  }
  return { perOp, batches };
}

async function cpuPerPay(s: BenchServer & { pid: number }, backends?: () => Promise<Map<number, number>>) {
  await runBatch(s, 'pay', await prepare(s, 'pay', WARMUP * 4));
  const tokens = await prepare(s, 'pay', PAYS);
  const latencies: number[] = [];
  const b0 = (await backends?.()) ?? new Map<number, number>();
  const cpu0 = cpuSeconds(s.pid);
  for (const token of tokens) {
    const t = performance.now();
    await payByCard(s.url, token);
    latencies.push(performance.now() - t);
  }
  const cpu = cpuSeconds(s.pid) - cpu0;
  let backendSeconds = 0;
  if (backends) for (const [pid, t] of await backends()) backendSeconds += t - (b0.get(pid) ?? 0);
  const result = {
    cpuMsPerPay: round((cpu * 1000) / PAYS, 2),
    payP50Ms: round(median(latencies), 1),
    pays: PAYS,
  };
  return backends ? { ...result, backendCpuMsPerPay: round((backendSeconds * 1000) / PAYS, 2) } : result;
}

// ---- main --------------------------------------------------------------------------------------

async function measurePglite(): Promise<DatabaseResult> {
  say('PGlite, counted at the port (in-process):');
  const { counts, sql } = await countAtPort(null);
  if (args.sql) printStatements(sql);
  say('PGlite, CPU per pay (child process):');
  const child = await startChild(null);
  try {
    return { port: counts, ...(await cpuPerPay(child)) };
  } finally {
    await child.stop();
  }
}

async function measurePostgres(): Promise<DatabaseResult> {
  say('PostgreSQL, counted at the port (in-process):');
  const portDb = await freshDatabase(ADMIN_URL, 'payframe_bench_tx');
  let port: Awaited<ReturnType<typeof countAtPort>>;
  try {
    port = await countAtPort(portDb.url);
  } finally {
    await portDb.drop();
  }
  if (args.sql) printStatements(port.sql);
  say('PostgreSQL, counted by the database (child process), then CPU per pay:');
  const db = await freshDatabase(ADMIN_URL, 'payframe_bench_tx');
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    const child = await startChild(db.url);
    try {
      await quietAutovacuum(db.url);
      await warmUp(child, WARMUP);
      const counted = await countInDatabase(child, admin, db.name);
      const cpu = await cpuPerPay(child, () => backendCpu(admin, db.name));
      return { port: port.counts, database: counted.perOp, databaseBatches: counted.batches, ...cpu };
    } finally {
      await child.stop();
    }
  } finally {
    await admin.end();
    await db.drop();
  }
}

/** Standard output as text; git's complaints (not a checkout) stay off the terminal. */
const git = (...args: string[]) =>
  execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

function codeMeasured(): string {
  if (args.code) return args.code;
  try {
    const commit = git('rev-parse', '--short', 'HEAD');
    const dirty = git('status', '--porcelain', '--', 'server', 'shared');
    return dirty ? `${commit} with uncommitted changes` : commit;
  } catch {
    return 'unknown code (not a git checkout; pass --code)';
  }
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg()[0]!.toFixed(1);
  const run: Run = {
    date: new Date().toISOString().slice(0, 10),
    code: codeMeasured(),
    node: process.version,
    loadAverage: { before: loadBefore, after: '' },
    windowPeriodS: PERIOD_MS / 1000,
  };
  const recorded = readRecorded(README, SECTION);
  if (!args.render) {
    if (args.only !== 'postgres') run.pglite = await measurePglite();
    if (args.only !== 'pglite') run.postgres = await measurePostgres();
    run.loadAverage.after = os.loadavg()[0]!.toFixed(1);
    // A run of one database keeps the other's figures of the same label.
    recorded[label] = { ...recorded[label], ...run };
    say(`\n${JSON.stringify(run, null, 2)}`);
  }
  const figures = renderFigures(recorded);
  say(`\n${figures.counts}\n\n${figures.cpu}`);
  if (!args['no-record']) {
    recordSection(
      README,
      SECTION,
      readmeSection(figures, {
        batch: BATCH,
        pays: PAYS,
        portBatches: PORT_BATCHES,
        databaseBatches: DATABASE_BATCHES,
      }),
    );
    say(args.render ? `\nRendered ${README} again.` : `\nRecorded as "${label}" in ${README}.`);
  }
}

main().then(
  () => process.exit(0), // the in-process server's demo store and pools must not keep it alive
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
