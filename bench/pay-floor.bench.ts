/**
 * How far Payframe's CPU per card pay on PostgreSQL is above the floor of its own database shape
 * (issue 12; bench/README.md "CPU per pay: the floor under it"): the compiled server `npm start`
 * runs, and bench/servers/pay-floor-server.ts in each of its shapes (bare node:http making a pay's
 * 5 transactions, 13 statements and 10 round trips through Payframe's PostgreSQL driver and nothing
 * else; 5 single-statement transactions; no database), take turns with the same requests, one at
 * a time; each process's user + system CPU over its own requests is divided by their number.
 *
 *   node --import tsx bench/pay-floor.bench.ts [--rounds=8] [--batch=25] [--shapes=pay,five,http]
 *
 * `npm run build` first. PostgreSQL: TEST_DATABASE_URL, else DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/test; each server gets a database of its own, dropped after.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readDemoMerchant } from '../test/system/crash/servers.ts';
import { type BenchMerchant, createSession, payByCard } from './lib/checkout-client.ts';
import { cpuSeconds, freshDatabase } from './lib/payframe-servers.ts';
import { startPayframeServe, startReference } from './lib/reference-servers.ts';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '8' },
    batch: { type: 'string', default: '25' },
    shapes: { type: 'string', default: 'pay,five,http' },
  },
});
const ROUNDS = Number(args.rounds);
const BATCH = Number(args.batch);
const WARMUP = 30;
const ADMIN_URL =
  process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

interface Side {
  name: string;
  pid: number;
  /** BATCH requests, one at a time (what is made for them beforehand is not counted). */
  prepare(n: number): Promise<() => Promise<void>>;
  cpuSeconds: number;
  pays: number;
}

async function main(): Promise<void> {
  const stops: (() => Promise<unknown>)[] = [];
  try {
    const payframeDb = await freshDatabase(ADMIN_URL, 'payframe_bench_floor_pf');
    stops.push(() => payframeDb.drop());
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payframe-bench-floor-'));
    stops.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const payframe = await startPayframeServe({
      dataDir,
      databaseUrl: payframeDb.url,
      entry: 'dist',
      env: { LOG_LEVEL: 'silent', TRUST_PROXY: 'true' },
    });
    stops.unshift(() => payframe.stop());
    const m = readDemoMerchant(dataDir);
    const merchant: BenchMerchant = {
      merchantId: m.merchantId,
      transactionKey: m.transactionKey,
      origin: new URL(m.returnUrl).origin,
    };
    const sides: Side[] = [
      {
        name: 'Payframe (npm start)',
        pid: payframe.pid,
        async prepare(n) {
          const tokens: string[] = [];
          for (let i = 0; i < n; i++) tokens.push(await createSession(payframe.url, merchant));
          return async () => {
            for (const token of tokens) await payByCard(payframe.url, token);
          };
        },
        cpuSeconds: 0,
        pays: 0,
      },
    ];
    for (const shape of args.shapes.split(',')) {
      const floorDb = await freshDatabase(ADMIN_URL, 'payframe_bench_floor');
      stops.push(() => floorDb.drop());
      const floor = await startReference('pay-floor-server.ts', [], {
        BENCH_DATABASE_URL: floorDb.url,
        FLOOR_SHAPE: shape,
      });
      stops.unshift(() => floor.stop());
      sides.push({
        name: `floor, shape ${shape}`,
        pid: floor.pid,
        async prepare(n) {
          return async () => {
            for (let i = 0; i < n; i++) await payByCard(floor.url, 'floor');
          };
        },
        cpuSeconds: 0,
        pays: 0,
      });
    }
    for (const s of sides) await (await s.prepare(WARMUP))();
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of round % 2 ? [...sides].reverse() : sides) {
        const run = await s.prepare(BATCH);
        const before = cpuSeconds(s.pid);
        await run();
        s.cpuSeconds += cpuSeconds(s.pid) - before;
        s.pays += BATCH;
      }
    }
    const load = os.loadavg()[0]!.toFixed(1);
    process.stdout.write(`PostgreSQL, ${ROUNDS} rounds of ${BATCH} pays, 1-minute load average ${load}:\n`);
    const msOf = (s: Side) => (s.cpuSeconds * 1000) / s.pays;
    for (const s of sides) {
      process.stdout.write(
        `  ${s.name}: ${msOf(s).toFixed(2)} ms CPU per pay (${(msOf(s) / msOf(sides[0]!)).toFixed(2)}×, ${s.pays} pays)\n`,
      );
    }
  } finally {
    for (const stop of stops) await stop().catch(() => {});
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
