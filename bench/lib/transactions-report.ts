/**
 * The README section of bench/transactions.bench.ts: each run is recorded as `before` or `after`
 * (issue 12: the checkout seam rewrite), and the section shows both side by side. The figures of
 * each run are kept in the section itself, as JSON in an HTML comment, so recording `after` later
 * keeps `before` as it was measured.
 */
import fs from 'node:fs';
import { OPERATIONS, type Operation } from './checkout-client.ts';
import { markdownTable } from './readme.ts';

export const LABELS = ['before', 'after'] as const;
export type Label = (typeof LABELS)[number];

export const OPERATION_NAMES: Record<Operation, string> = {
  create: 'merchant creates a session (`POST /v1/checkout-sessions`)',
  load: 'shopper loads it (`GET /api/checkout/sessions/:token`)',
  pay: 'shopper pays by card (`POST …/pay`)',
};

/** Issue 12's goals: transactions per operation, CPU milliseconds per pay. */
export const GOALS = {
  transactions: { create: 2, load: 2, pay: 5 } satisfies Record<Operation, number>,
  cpuMsPerPay: { postgres: 3, pglite: 8 },
};

/** Per operation, averaged over a batch. */
export interface PortCounts {
  transactions: number;
  statements: number;
  rollbacks: number;
}

export interface DatabaseResult {
  /** Counted at the storage port in-process (server/db/counting.ts). */
  port?: Record<Operation, PortCounts>;
  /** PostgreSQL only: commits + rollbacks per operation in pg_stat_database, median of the batches. */
  database?: Record<Operation, number>;
  /** Each batch's figure, to show how stable it is. */
  databaseBatches?: Record<Operation, number[]>;
  cpuMsPerPay?: number;
  /** PostgreSQL only: CPU of the server's backends per pay. */
  backendCpuMsPerPay?: number;
  payP50Ms?: number;
  pays?: number;
}

export interface Run {
  date: string;
  /** Which code was measured (a commit). */
  code: string;
  node: string;
  loadAverage: { before: string; after: string };
  /** PostgreSQL windows last whole periods of this length (background work). */
  windowPeriodS?: number;
  pglite?: DatabaseResult;
  postgres?: DatabaseResult;
}

export type Recorded = Partial<Record<Label, Run>>;

const DATA_OPEN = '<!-- transactions.bench.ts figures: ';
const DATA_CLOSE = ' -->';

/** The runs recorded in the README's section so far. */
export function readRecorded(readme: string, heading: string): Recorded {
  const text = fs.readFileSync(readme, 'utf8');
  const start = text.indexOf(heading);
  if (start < 0) return {};
  const open = text.indexOf(DATA_OPEN, start);
  const next = text.indexOf('\n## ', start + heading.length);
  if (open < 0 || (next >= 0 && open > next)) return {};
  const close = text.indexOf(DATA_CLOSE, open);
  return JSON.parse(text.slice(open + DATA_OPEN.length, close)) as Recorded;
}

const fmt = (n: number | undefined, digits = 1) =>
  n === undefined
    ? '—'
    : n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function countsTable(recorded: Recorded): string {
  const header = ['Operation', 'Database, counted by', 'Goal'];
  for (const what of ['Transactions', 'Statements']) {
    for (const label of LABELS) header.push(`${what} ${label}`);
  }
  const rows: string[][] = [];
  const sources: { name: string; get: (r: Run | undefined, op: Operation) => [number?, number?] }[] = [
    {
      name: 'PostgreSQL, pg_stat_database',
      get: (r, op) => [r?.postgres?.database?.[op], undefined],
    },
    {
      name: 'PostgreSQL, the port',
      get: (r, op) => [r?.postgres?.port?.[op].transactions, r?.postgres?.port?.[op].statements],
    },
    {
      name: 'PGlite, the port',
      get: (r, op) => [r?.pglite?.port?.[op].transactions, r?.pglite?.port?.[op].statements],
    },
  ];
  for (const op of OPERATIONS) {
    for (const source of sources) {
      const [tb, sb] = source.get(recorded.before, op);
      const [ta, sa] = source.get(recorded.after, op);
      const statements = source.name.endsWith('pg_stat_database') ? ['n/a', 'n/a'] : [fmt(sb), fmt(sa)];
      rows.push([
        OPERATION_NAMES[op],
        source.name,
        `≤ ${GOALS.transactions[op]}`,
        fmt(tb),
        fmt(ta),
        ...statements,
      ]);
    }
  }
  return markdownTable(header, [false, false, true, true, true, true, true], rows);
}

function cpuTable(recorded: Recorded): string {
  const header = ['Database', 'Goal', 'CPU ms per pay before', 'CPU ms per pay after'];
  header.push('backends ms/pay before', 'backends ms/pay after', 'pay p50 ms before', 'pay p50 ms after');
  const rows = (['postgres', 'pglite'] as const).map((db) => {
    const b = recorded.before?.[db];
    const a = recorded.after?.[db];
    const backends = (r: DatabaseResult | undefined) =>
      db === 'pglite' ? 'in Payframe' : fmt(r?.backendCpuMsPerPay);
    return [
      db === 'postgres' ? 'PostgreSQL' : 'PGlite',
      `≤ ${GOALS.cpuMsPerPay[db]}`,
      fmt(b?.cpuMsPerPay),
      fmt(a?.cpuMsPerPay),
      backends(b),
      backends(a),
      fmt(b?.payP50Ms),
      fmt(a?.payP50Ms),
    ];
  });
  return markdownTable(header, [false, true, true, true, true, true, true, true], rows);
}

function runLine(label: Label, r: Run | undefined): string {
  if (!r) return `- ${label}: not measured yet.`;
  const batches = OPERATIONS.map((op) => {
    const b = r.postgres?.databaseBatches?.[op];
    return b ? `${op} ${b.map((n) => fmt(n, 2)).join(', ')}` : null;
  }).filter(Boolean);
  return (
    `- ${label}: recorded ${r.date} on ${r.code}; Node ${r.node}; 1-minute load average ${r.loadAverage.before} ` +
    `before the run, ${r.loadAverage.after} after.` +
    (batches.length
      ? ` PostgreSQL transactions per operation in each batch: ${batches.join('; ')}` +
        ` (windows of whole ${r.windowPeriodS ?? 5} s periods).`
      : '')
  );
}

/** The section's tables, run lines and data comment; the bench adds the prose around them. */
export function renderFigures(recorded: Recorded): {
  counts: string;
  cpu: string;
  runs: string;
  data: string;
} {
  return {
    counts: countsTable(recorded),
    cpu: cpuTable(recorded),
    runs: LABELS.map((l) => runLine(l, recorded[l])).join('\n'),
    data: `${DATA_OPEN}${JSON.stringify(recorded)}${DATA_CLOSE}`,
  };
}

export const SECTION = '## Database transactions per checkout operation';

export function readmeSection(
  f: ReturnType<typeof renderFigures>,
  n: { batch: number; pays: number; portBatches: number; databaseBatches: number },
): string {
  return `${SECTION}

Issue 12: what one checkout operation costs the database (transactions, read-only ones included, and
statements) and what one pay costs the Payframe process in CPU, before and after the checkout seam
is rewritten. Goals: a session created in ≤ 2 transactions, loaded in ≤ 2, paid by card in ≤ 5; ≤ 3
ms of Payframe CPU per pay on PostgreSQL, ≤ 8 ms on PGlite.

Command: \`node --import tsx bench/transactions.bench.ts --label=after\` (\`--label=before\` filled the
"before" columns; \`--no-record\` prints only; \`--sql\` lists the statements of one operation of
each kind; \`--only=pglite\` or \`--only=postgres\`). \`npm run bench\` runs it as "after". PostgreSQL:
\`TEST_DATABASE_URL\`, else \`DATABASE_URL\`, else \`postgres://postgres@127.0.0.1:5432/test\`; each
server gets a database of its own, dropped afterwards. About ten minutes.

${f.runs}

Per operation, averaged over ${n.batch} operations:

${f.counts}

CPU per pay (${n.pays} pays, one at a time):

${f.cpu}

Reading it: the port's counts are exact and the same on both databases (the same SQL reaches either
driver); PostgreSQL's own count agrees with them to within the noise of subtracting the background
work (up to about two tenths per operation). \`--sql\` shows where each operation's statements go.
The CPU figures move with what else runs on the machine (this one is shared and often loaded):
compare "before" and "after" as a ratio, and trust the transaction counts more than any single CPU
figure.

Method:

- The servers run as \`npm start\` runs them: the compiled server (\`node --enable-source-maps
  dist/server/payframe.js serve\`, role all; \`npm run build\` first), \`NODE_ENV=production\`,
  \`LOG_LEVEL=silent\`, \`TRUST_PROXY=true\`, a new \`DATA_DIR\`, and on PostgreSQL \`DATABASE_URL\` naming
  a new database. The merchant is the demo merchant the first start writes to
  \`DATA_DIR/demo-merchant.json\`. (Runs recorded before dd4941b started \`bin/payframe.js serve\`,
  which in a development checkout runs the TypeScript source through tsx.)
- The operations (\`bench/lib/checkout-client.ts\`), ${n.batch} of each one after another, after 5 of each
  as a warm-up: create is \`POST /v1/checkout-sessions\` with HTTP Basic; load is
  \`GET /api/checkout/sessions/:token\` and pay is \`POST …/pay\` with card 4242 4242 4242 4242, a fresh
  \`Idempotency-Key\` and the widget's headers (\`X-Payframe-Client: widget\`, \`Content-Type:
  application/json\`, \`Origin\` the server's own, \`Sec-Fetch-Site: same-origin\`), each on a session
  created before it and not counted. Every answer is checked (201; 200 \`open\`; 200 \`succeeded\`).
  Each request comes from its own \`X-Forwarded-For\` address, so the per-address rate limits run (and
  count) but never refuse.
- "PostgreSQL, pg_stat_database": the real server in a child process. Its database's
  \`xact_commit + xact_rollback\`, read after \`pg_stat_clear_snapshot()\` from a connection to another
  database (the reading adds nothing to the count). PostgreSQL 15 flushes a backend's counters at most
  once a second, an idle one's within 10 s, so a batch's window closes 11 s or more after the batch.
  The server's background work (the checkout's workers every 5 s: recovery, expiry, webhooks,
  pruning, at e7eff62 7 autocommit statements when there is nothing to do; the gateway's claim sweep
  every 10 s where there is one; the recurring runner every minute) runs all along: each window
  lasts whole periods of it (the run lines say how long), an idle window of the same length just before
  each batch measures that work, and its rate over all the idle windows is subtracted. Autovacuum is
  off on the throwaway database's tables (its transactions would count). ${n.databaseBatches} batches per
  operation; the table shows the median, the run lines each batch.
- "the port": the same start (\`startServer\` in \`server/server.ts\`, which \`payframe serve\` calls) in
  the benchmark's process, its database wrapped by \`server/db/counting.ts\` (\`startServer(config,
  logger, 'all', { wrapDatabase })\`): every statement, inside transactions too; a transaction is a
  \`transaction()\` that committed or a statement outside one (autocommit), as PostgreSQL counts them.
  Each batch starts just after a background run (the benchmark waits for one), and of ${n.portBatches}
  batches per operation the one with the fewest statements counts (background work can only add to a
  batch). PGlite lives in the server's process, so this is how it is counted. On PostgreSQL both
  counts should agree.
- CPU per pay: the real server in a child process; ${n.pays} sessions created first, 20 pays as a warm-up,
  then ${n.pays} pays one at a time. The server process's user + system time (\`/proc/<pid>/stat\`) over
  the pays, per pay (its background work during them included); on PostgreSQL also the backends
  serving its database. "pay p50" is the median time of one pay, request sent to answer read.
- \`server/checkout/budgets.test.ts\` counts one create, load and pay through the app
  (\`app.inject\`, no background work) on both databases and fails above its budget table.

${f.data}
`;
}
