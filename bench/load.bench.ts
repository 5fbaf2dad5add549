/**
 * Pays end to end (bench/README.md, "Load: pays end to end"): a merchant creates a checkout session
 * (POST /v1/checkout-sessions) and a shopper pays it (POST /api/checkout/sessions/:token/pay), over
 * loopback against real `payframe serve` processes, in three set-ups:
 *   (a) one instance on PGlite, (b) one instance on PostgreSQL, (c) two instances on PostgreSQL,
 *       the clients split across both.
 * This process is the load generator: CONNECTIONS concurrent loops, each creating a session and
 * paying it, then the next. Every pay must answer 200 `succeeded`; anything else fails the run.
 * Each set-up is measured ROUNDS times (DURATION_S after WARMUP_S); the table shows medians.
 *
 *   node --import tsx bench/load.bench.ts        (PostgreSQL: TEST_DATABASE_URL, DATABASE_URL or
 *                                                 postgres://postgres@127.0.0.1:5432/test; a fresh
 *                                                 database per set-up, dropped afterwards)
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createSession, payRequest, randomIp } from '../test/system/crash/harness.ts';
import {
  type Merchant,
  randomKey,
  readDemoMerchant,
  type ServerProcess,
  startPayframe,
} from '../test/system/crash/servers.ts';

const CONNECTIONS = 16;
const DURATION_S = 8;
const WARMUP_S = 2;
const ROUNDS = 3;
const ADMIN_URL =
  process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

interface Sample {
  pays: number;
  seconds: number;
  payMs: number[];
  sessionMs: number[];
  serverCpu: number[];
  clientCpu: number;
  /** CPU of the PostgreSQL backends serving this database (0 on PGlite), in cores. */
  postgresCpu: number;
  /** The whole machine's busy CPU (every process, the other work on it included), in cores. */
  machineCpu: number;
}

/** Busy and total jiffies of the whole machine (/proc/stat). */
function machineTicks(): { busy: number; total: number } {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number);
  const idle = f[3]! + f[4]!;
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/** CPU seconds so far of each backend connected to `dbName`, by pid. */
async function backendCpu(dbName: string | null): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (!dbName) return out;
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    const { rows } = await c.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [
      dbName,
    ]);
    for (const { pid } of rows) {
      try {
        out.set(pid, cpuSeconds(pid));
      } catch {
        // gone, or not on this machine
      }
    }
  } finally {
    await c.end();
  }
  return out;
}

function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Runs the loops for `seconds`; only what completes inside the window counts. */
async function load(
  targets: string[],
  merchant: Merchant,
  seconds: number,
  servers: ServerProcess[],
  dbName: string | null,
) {
  const sample: Sample = {
    pays: 0,
    seconds,
    payMs: [],
    sessionMs: [],
    serverCpu: [],
    clientCpu: 0,
    postgresCpu: 0,
    machineCpu: 0,
  };
  const pg0 = await backendCpu(dbName);
  const m0 = machineTicks();
  const cpu0 = servers.map((s) => cpuSeconds(s.child.pid!));
  const client0 = process.cpuUsage();
  const start = performance.now();
  const end = start + seconds * 1000;
  let n = 0;
  const loop = async (i: number) => {
    const base = targets[i % targets.length]!;
    while (performance.now() < end) {
      const ip = randomIp();
      const t0 = performance.now();
      const token = await createSession(base, merchant, `load-${n++}`, ip);
      const t1 = performance.now();
      const r = await payRequest(base, token, crypto.randomUUID(), ip);
      const t2 = performance.now();
      if (r.kind !== 'answer' || r.status !== 200 || !r.body.startsWith('{"status":"succeeded"')) {
        throw new Error(`pay failed: ${JSON.stringify(r).slice(0, 300)}`);
      }
      if (t2 <= end) {
        sample.pays++;
        sample.sessionMs.push(t1 - t0);
        sample.payMs.push(t2 - t1);
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => loop(i)));
  const wall = (performance.now() - start) / 1000;
  sample.serverCpu = servers.map((s, i) => (cpuSeconds(s.child.pid!) - cpu0[i]!) / wall);
  const c = process.cpuUsage(client0);
  sample.clientCpu = (c.user + c.system) / 1e6 / wall;
  const m1 = machineTicks();
  sample.machineCpu = ((m1.busy - m0.busy) / (m1.total - m0.total)) * os.cpus().length;
  let pgSeconds = 0;
  for (const [pid, t] of await backendCpu(dbName)) pgSeconds += t - (pg0.get(pid) ?? 0);
  sample.postgresCpu = pgSeconds / wall;
  return sample;
}

interface Setup {
  label: string;
  instances: number;
  postgres: boolean;
}

const SETUPS: Setup[] = [
  { label: '(a) 1 instance, PGlite', instances: 1, postgres: false },
  { label: '(b) 1 instance, PostgreSQL', instances: 1, postgres: true },
  { label: '(c) 2 instances, PostgreSQL', instances: 2, postgres: true },
];

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

async function measure(setup: Setup) {
  const dirs: string[] = [];
  const dbName = `payframe_load_${crypto.randomBytes(6).toString('hex')}`;
  let servers: ServerProcess[] = [];
  try {
    let url: string | undefined;
    if (setup.postgres) {
      await admin(`create database ${dbName}`);
      const u = new URL(ADMIN_URL);
      u.pathname = `/${dbName}`;
      url = u.toString();
    }
    const key = randomKey();
    const envs = Array.from({ length: setup.instances }, () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payframe-load-'));
      dirs.push(dir);
      return {
        DATA_DIR: dir,
        CARD_ENCRYPTION_KEY: key,
        LOG_LEVEL: 'silent',
        ...(url ? { DATABASE_URL: url, DATABASE_POOL_SIZE: '10' } : {}),
      };
    });
    // One after the other: the first migrates and creates the demo merchant.
    for (const env of envs) servers.push(await startPayframe(env));
    const merchant = readDemoMerchant(envs[0]!.DATA_DIR);
    const targets = servers.map((s) => s.url);
    const rounds: Sample[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const db = setup.postgres ? dbName : null;
      await load(targets, merchant, WARMUP_S, servers, db);
      rounds.push(await load(targets, merchant, DURATION_S, servers, db));
      const last = rounds.at(-1)!;
      process.stdout.write(
        `${setup.label} round ${r + 1}: ${(last.pays / last.seconds).toFixed(1)} pays/s, server CPU ${last.serverCpu.map((c) => `${Math.round(c * 100)}%`).join(' + ')}, client CPU ${Math.round(last.clientCpu * 100)}%, PostgreSQL CPU ${Math.round(last.postgresCpu * 100)}%, machine ${Math.round(last.machineCpu * 100)}% of ${os.cpus().length * 100}%\n`,
      );
    }
    return rounds;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    servers = [];
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    if (setup.postgres) await admin(`drop database if exists ${dbName} with (force)`).catch(() => {});
  }
}

const results: { setup: Setup; rounds: Sample[] }[] = [];
for (const setup of SETUPS) results.push({ setup, rounds: await measure(setup) });

const ms = (x: number) => (x < 10 ? x.toFixed(1) : Math.round(x).toString());
const lines = [
  '| Set-up | pays/s (median) | pays/s per round | pay p50 ms | pay p99 ms | session p50 ms | Payframe CPU | PostgreSQL CPU | CPU ms per pay (Payframe + PostgreSQL) | load generator CPU | machine CPU (all processes) |',
  '| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
];
const base = median(results[1]!.rounds.map((s) => s.pays / s.seconds));
for (const { setup, rounds } of results) {
  const rates = rounds.map((s) => s.pays / s.seconds);
  const p50 = median(
    rounds.map((s) =>
      percentile(
        [...s.payMs].sort((a, b) => a - b),
        50,
      ),
    ),
  );
  const p99 = median(
    rounds.map((s) =>
      percentile(
        [...s.payMs].sort((a, b) => a - b),
        99,
      ),
    ),
  );
  const sp50 = median(
    rounds.map((s) =>
      percentile(
        [...s.sessionMs].sort((a, b) => a - b),
        50,
      ),
    ),
  );
  const serverCpu = rounds[0]!.serverCpu.map((_, i) => median(rounds.map((s) => s.serverCpu[i]!)));
  // CPU per pay: the cost of one pay with the machine's other work mostly taken out.
  const perPay = (cores: (s: Sample) => number) =>
    median(rounds.map((s) => (cores(s) / (s.pays / s.seconds)) * 1000));
  const payframeMs = perPay((s) => s.serverCpu.reduce((a, b) => a + b, 0));
  const postgresMs = perPay((s) => s.postgresCpu);
  lines.push(
    `| ${setup.label} | ${median(rates).toFixed(1)} | ${rates.map((r) => r.toFixed(1)).join(', ')} | ${ms(p50)} | ${ms(p99)} | ${ms(sp50)} | ${serverCpu.map((c) => `${Math.round(c * 100)}%`).join(' + ')} | ${setup.postgres ? `${Math.round(median(rounds.map((s) => s.postgresCpu)) * 100)}%` : 'in Payframe'} | ${setup.postgres ? `${ms(payframeMs)} + ${ms(postgresMs)}` : ms(payframeMs)} | ${Math.round(median(rounds.map((s) => s.clientCpu)) * 100)}% | ${Math.round(median(rounds.map((s) => s.machineCpu)) * 100)}% of ${os.cpus().length * 100}% |`,
  );
}
const two = median(results[2]!.rounds.map((s) => s.pays / s.seconds));
process.stdout.write(
  `\nNode ${process.version}, ${os.cpus().length} CPUs, ${CONNECTIONS} connections, ${DURATION_S} s per round after ${WARMUP_S} s warm-up, ${ROUNDS} rounds\n\n${lines.join('\n')}\n\nTwo instances / one (PostgreSQL): ${(two / base).toFixed(2)}×\n`,
);
