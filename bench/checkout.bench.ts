/**
 * Checkout API latency, embedded wiring (bench/README.md records the result): the real server
 * process (`payframe serve`, role all: gateway and checkout in one process, the checkout on the
 * in-process port) on a fresh PGlite directory, measured from this process over keep-alive HTTP.
 *
 *   load session  GET /api/checkout/sessions/:token (the widget opening a session), over a pool of
 *                 open sessions
 *   pay           POST /api/checkout/sessions/:token/pay with card 4242424242424242, one fresh
 *                 session per pay (created through the merchant REST, not timed)
 *
 * Each case runs at 1 shopper at a time (latency unloaded) and at CONCURRENCY shoppers (a bounded
 * loop: each worker sends its next request when its last one is answered), ROUNDS times; the table
 * shows the median of the rounds. Every answer is checked (200 and `open` / `succeeded`); any other
 * fails the run. Each request comes from its own shopper address (X-Forwarded-For, TRUST_PROXY on)
 * so the per-address rate limits, which still run, do not turn the measurement into 429s.
 *
 *   node --import tsx bench/checkout.bench.ts              measure, print, record in bench/README.md
 *   node --import tsx bench/checkout.bench.ts --no-record  measure and print only
 */
import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { markdownTable, recordSection } from './lib/readme.ts';
import { DEMO_SERVER_ENV } from '../test/kit/server-env.ts';

const DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(DIR, '..');
const README = path.join(DIR, 'README.md');
const SECTION = '## Checkout API latency: embedded wiring';

const CONCURRENCY = 10;
const DURATION_S = 5;
const WARMUP_S = 2;
const ROUNDS = 3;
const SESSION_POOL = 50;
const PAN = '4242424242424242';

const record = !process.argv.slice(2).includes('--no-record');

// ---- the server ------------------------------------------------------------------------------

interface Server {
  child: ChildProcess;
  url: string;
  merchant: { id: string; key: string; origin: string };
  dataDir: string;
}

let server: Server | undefined;

async function stopServer(): Promise<void> {
  const s = server;
  if (!s) return;
  server = undefined;
  if (s.child.exitCode === null && s.child.signalCode === null) {
    const exited = new Promise<void>((resolve) => s.child.once('exit', () => resolve()));
    s.child.kill('SIGTERM');
    const timer = setTimeout(() => s.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  fs.rmSync(s.dataDir, { recursive: true, force: true });
}
// Last resort: no server outlives the benchmark.
process.on('exit', () => server?.child.kill('SIGKILL'));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stopServer().finally(() => process.exit(130));
  });
}

/** `payframe serve --json` on a new PGlite directory; the demo merchant it creates is ours. */
function startServer(): Promise<Server> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payframe-bench-checkout-'));
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/payframe.js'), 'serve', '--json'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      TRUST_PROXY: 'true',
      // Production makes no merchant; the demo's is the one this benchmark pays as.
      ...DEMO_SERVER_ENV,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('the server did not start within 90 s')), 90_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code ?? signal}) before listening:\n${out}`));
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      let started: { url: string; demoMerchant: { merchantId: string } | null };
      try {
        started = JSON.parse(out);
      } catch {
        return; // not all of it yet
      }
      clearTimeout(timer);
      child.stdout?.removeAllListeners('data');
      child.stdout?.resume();
      // Production prints no credential: the key is in DATA_DIR/demo-merchant.json.
      if (!started.demoMerchant) return reject(new Error('no demo merchant was created'));
      const demo = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-merchant.json'), 'utf8')) as {
        merchantId: string;
        transactionKey: string;
        origins: string[];
      };
      resolve({
        child,
        url: started.url,
        dataDir,
        merchant: { id: demo.merchantId, key: demo.transactionKey, origin: demo.origins[0]! },
      });
    });
  });
}

// ---- HTTP ------------------------------------------------------------------------------------

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY + 2 });

interface Answer {
  status: number;
  body: string;
}

function request(method: 'GET' | 'POST', url: string, headers: Record<string, string>, body?: string) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(url, { method, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error(`${method} ${url}: no answer in 30 s`)));
    req.end(body);
  });
}

/** A shopper address of its own for each request, from the benchmarking range 198.18.0.0/15. */
function shopperAddress(): string {
  const n = crypto.randomInt(1, 2 ** 17 - 1);
  return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
}

const expiry = () => `12/${String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0')}`;

async function createSession(s: Server): Promise<string> {
  const r = await request(
    'POST',
    `${s.url}/v1/checkout-sessions`,
    {
      authorization: `Basic ${Buffer.from(`${s.merchant.id}:${s.merchant.key}`).toString('base64')}`,
      'content-type': 'application/json',
      'x-forwarded-for': shopperAddress(),
    },
    JSON.stringify({
      amount: '24.99',
      currency: 'USD',
      orderNumber: `B-${crypto.randomBytes(6).toString('hex')}`,
      shopper: { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' },
      returnUrl: `${s.merchant.origin}/thanks`,
    }),
  );
  if (r.status !== 201) throw new Error(`create session: HTTP ${r.status}: ${r.body}`);
  return (JSON.parse(r.body) as { token: string }).token;
}

// ---- the cases -------------------------------------------------------------------------------

interface Case {
  label: string;
  /** Work before the timed request (not timed), returning the timed request. */
  prepare(s: Server): Promise<() => Promise<void>>;
}

function expectAnswer(r: Answer, what: string, status: string): void {
  if (r.status !== 200) throw new Error(`${what}: HTTP ${r.status}: ${r.body}`);
  const got = (JSON.parse(r.body) as { status?: string }).status;
  if (got !== status) throw new Error(`${what}: status ${got}, expected ${status}`);
}

let pool: string[] = [];

const CASES: Case[] = [
  {
    label: 'load session',
    async prepare(s) {
      const token = pool[crypto.randomInt(pool.length)]!;
      return async () => {
        const r = await request('GET', `${s.url}/api/checkout/sessions/${token}`, {
          'x-forwarded-for': shopperAddress(),
        });
        expectAnswer(r, 'load session', 'open');
      };
    },
  },
  {
    label: 'pay',
    async prepare(s) {
      const token = await createSession(s);
      const body = JSON.stringify({
        method: 'card',
        card: { number: PAN, expiry: expiry(), cvv: '123', name: 'Ada Lovelace' },
      });
      return async () => {
        const r = await request(
          'POST',
          `${s.url}/api/checkout/sessions/${token}/pay`,
          {
            'x-payframe-client': 'widget',
            'content-type': 'application/json',
            'idempotency-key': crypto.randomUUID(),
            'x-forwarded-for': shopperAddress(),
          },
          body,
        );
        expectAnswer(r, 'pay', 'succeeded');
      };
    },
  },
];

// ---- measuring -------------------------------------------------------------------------------

interface Measurement {
  rps: number;
  count: number;
  p50: number;
  p99: number;
  serverCpu: number | undefined;
  /** Share of the time the server's event loop was ready to run but waited for a core. */
  serverWait: number | undefined;
  /** Server CPU milliseconds per timed request (pay: its session creation included). */
  cpuMsPerRequest: number | undefined;
}

/** CPU seconds (user + system) the process has used so far, from /proc; undefined elsewhere. */
function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * Seconds the process's main thread (the event loop) has spent waiting on a run queue, from
 * /proc/<pid>/schedstat; undefined where there is none. On a shared machine this is the part of
 * the latency that other processes caused.
 */
function runQueueWaitSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const waitNs = Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]);
    return Number.isFinite(waitNs) ? waitNs / 1e9 : undefined;
  } catch {
    return undefined;
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * `workers` loops, each preparing (untimed) then timing one request, until `seconds` have passed.
 * The server's CPU is read over the whole loop, preparation included (for pay that is the session
 * creation too, so "server CPU" there is the cost of both).
 */
async function measure(s: Server, c: Case, workers: number, seconds: number): Promise<Measurement> {
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  const cpuBefore = cpuSeconds(s.child.pid);
  const waitBefore = runQueueWaitSeconds(s.child.pid);
  const started = performance.now();
  let timedMs = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < deadline) {
        const send = await c.prepare(s);
        const t0 = performance.now();
        await send();
        const ms = performance.now() - t0;
        latencies.push(ms);
        timedMs += ms;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = cpuSeconds(s.child.pid);
  const waitAfter = runQueueWaitSeconds(s.child.pid);
  latencies.sort((a, b) => a - b);
  return {
    // Requests per second of timed work per worker, times the workers: the rate the endpoint
    // sustains without the untimed preparation between requests.
    rps: (latencies.length / (timedMs / 1000)) * workers,
    count: latencies.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    serverCpu:
      cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / elapsed,
    serverWait:
      waitBefore === undefined || waitAfter === undefined ? undefined : (waitAfter - waitBefore) / elapsed,
    cpuMsPerRequest:
      cpuBefore === undefined || cpuAfter === undefined || latencies.length === 0
        ? undefined
        : ((cpuAfter - cpuBefore) * 1000) / latencies.length,
  };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

// ---- output ----------------------------------------------------------------------------------

interface Row {
  c: Case;
  workers: number;
  runs: Measurement[];
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function table(rows: Row[]): string {
  const header = [
    'Endpoint',
    'Concurrent shoppers',
    'req/s',
    'p50 ms',
    'p99 ms',
    'requests',
    'server CPU',
    'server waiting for a core',
    'server CPU ms/req',
  ];
  const body = rows.map((row) => {
    const cpus = row.runs.map((m) => m.serverCpu).filter((v): v is number => v !== undefined);
    const waits = row.runs.map((m) => m.serverWait).filter((v): v is number => v !== undefined);
    const perRequest = row.runs.map((m) => m.cpuMsPerRequest).filter((v): v is number => v !== undefined);
    return [
      row.c.label,
      String(row.workers),
      fmt(median(row.runs.map((m) => m.rps))),
      fmt(median(row.runs.map((m) => m.p50)), 1),
      fmt(median(row.runs.map((m) => m.p99)), 1),
      fmt(row.runs.reduce((n, m) => n + m.count, 0)),
      cpus.length ? `${Math.round(median(cpus) * 100)}%` : 'n/a',
      waits.length ? `${Math.round(median(waits) * 100)}%` : 'n/a',
      perRequest.length ? fmt(median(perRequest), 1) : 'n/a',
    ];
  });
  return markdownTable(header, [false, true, true, true, true, true, true, true, true], body);
}

function perRound(rows: Row[]): string {
  return rows
    .map(
      (row) =>
        `${row.c.label} ×${row.workers}: ${row.runs.map((m) => `${fmt(m.p50, 1)}/${fmt(m.p99, 1)}`).join(', ')}`,
    )
    .join('; ');
}

const loadAverage = () => os.loadavg()[0]!.toFixed(1);

function readmeSection(rows: Row[], date: string, load: { before: string; after: string }): string {
  return `${SECTION}

Issue: how long the widget's two calls take on the embedded wiring (one process, PGlite, the
checkout on the in-process port): loading a session and paying it.

Recorded ${date}: Node ${process.version}, ${process.platform}/${process.arch}, the shared 2-core machine
(load generator on the same cores, other work running beside it: 1-minute load average ${load.before}
before the run, ${load.after} after).
Command: \`node --import tsx bench/checkout.bench.ts\` (also run by \`npm run bench\`; \`--no-record\`
prints only).

${table(rows)}

p50/p99 ms per round: ${perRound(rows)}.

Reading it: one Payframe process is one event loop on one core, and the embedded database runs
inside it, one transaction at a time (\`server/db/pglite.ts\`; a pay is several: key claim,
attempt, the gateway's claim and sale, payment record). With "server CPU" near 100% that core is
the limit: at ${CONCURRENCY} shoppers throughput grows far less than the concurrency, CPU per
request stays about the same, and the added latency is queueing, not work. "server waiting for a
core" shows how much of the rest other work on this machine took. More throughput is what several
instances on PostgreSQL (\`DATABASE_URL\`) are for; these figures are the one-machine setup
\`npm start\` runs.

Method:

- The server is the real command, \`payframe serve\` (role all), started by the benchmark on a new
  PGlite directory with \`NODE_ENV=production\`, \`LOG_LEVEL=silent\` and \`TRUST_PROXY=true\`; its demo
  merchant is the merchant. It runs in its own process; this process generates the load over
  keep-alive \`node:http\`.
- load session: \`GET /api/checkout/sessions/:token\` on a pool of ${SESSION_POOL} open sessions (each call asks
  the gateway for the session and the merchant's branding). pay: \`POST …/pay\` with card ${PAN},
  an idempotency key of its own, on a session created just before through \`POST /v1/checkout-sessions\`
  (not timed): key claim, attempt row, ProcessTransaction (processor simulator), payment record,
  webhook row, signed redirect.
- A bounded loop: ${CONCURRENCY} (or 1) workers, each sending its next request when its last is answered,
  ${DURATION_S} s per measurement after a ${WARMUP_S} s warm-up per case; ${ROUNDS} rounds, the table shows the
  medians. Latency is from the first byte sent to the last byte read, per request (exact
  percentiles of all requests of the round). req/s is requests over the time spent in them, times
  the workers (the untimed session creation of pay left out). "requests" sums the rounds.
- Every answer is checked: HTTP 200 with \`status: "open"\` or \`"succeeded"\`; any other fails the run.
  Each request carries its own X-Forwarded-For address, so the per-address rate limits still run
  (one database upsert each) but do not refuse the load.
- "server CPU" is the server process's user + system CPU over the measurement, preparation included
  (100% = one core). "server waiting for a core" is the time its event loop was ready to run but
  waited for a CPU (\`/proc/<pid>/schedstat\`), over the same wall time: latency other processes
  caused. "server CPU ms/req" is the server's CPU time over the timed requests (for pay, the session
  created before each pay included): the cost of one request with most of the machine's noise
  taken out. Absolute figures depend on the machine and on what else runs on it.
`;
}

// ---- main ------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const loadBefore = loadAverage();
  server = await startServer();
  const s = server;
  process.stdout.write(`server ${s.url} (pid ${s.child.pid}), merchant ${s.merchant.id}\n`);
  pool = [];
  for (let i = 0; i < SESSION_POOL; i++) pool.push(await createSession(s));

  const rows: Row[] = [];
  for (const c of CASES) {
    await measure(s, c, CONCURRENCY, WARMUP_S);
    for (const workers of [1, CONCURRENCY]) rows.push({ c, workers, runs: [] });
  }
  for (let round = 1; round <= ROUNDS; round++) {
    for (const row of rows) {
      const m = await measure(s, row.c, row.workers, DURATION_S);
      row.runs.push(m);
      process.stdout.write(
        `round ${round} ${row.c.label} ×${row.workers}: ${fmt(m.rps)} req/s, p50 ${fmt(m.p50, 1)} ms, p99 ${fmt(m.p99, 1)} ms (${m.count} requests)\n`,
      );
    }
  }
  await stopServer();
  agent.destroy();
  process.stdout.write(`\n${table(rows)}\n`);
  if (record) {
    const load = { before: loadBefore, after: loadAverage() };
    recordSection(README, SECTION, readmeSection(rows, new Date().toISOString().slice(0, 10), load));
    process.stdout.write(`\nRecorded in ${path.relative(process.cwd(), README)}.\n`);
  }
}

main().catch(async (err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  await stopServer();
  process.exit(1);
});
