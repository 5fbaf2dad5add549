/**
 * `payframe backup` on the running server (issue 19 §4; bench/README.md "Backups of the embedded
 * database"): how long payments wait for the snapshot while a shopper keeps paying.
 *
 *   node --import tsx bench/backup.bench.ts [--pays=1000]
 *
 * Starts `payframe serve` on a new PGlite DATA_DIR, makes PAYS card payments (so the database has
 * something in it), then runs `payframe backup` (handed to the server over its command channel)
 * while one shopper pays sessions one after another; prints the command's report, how many payments
 * completed while it ran and the slowest of them.
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runPayframe } from '../test/kit/cli/run-payframe.ts';
import { readDemoMerchant, startPayframe } from '../test/system/crash/servers.ts';
import { createSession, payByCard } from './lib/checkout-client.ts';

const { values } = parseArgs({ options: { pays: { type: 'string', default: '1000' } } });
const PAYS = Number(values.pays);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payframe-bench-backup-'));
const file = `${dataDir}.backup`;
const server = await startPayframe({ DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' });
try {
  const m = readDemoMerchant(dataDir);
  const merchant = {
    merchantId: m.merchantId,
    transactionKey: m.transactionKey,
    origin: new URL(m.returnUrl).origin,
  };
  for (let i = 0; i < PAYS; i++) await payByCard(server.url, await createSession(server.url, merchant));
  let paying = true;
  let during = 0;
  let slowest = 0;
  const shopper = (async () => {
    while (paying) {
      const token = await createSession(server.url, merchant);
      const started = performance.now();
      await payByCard(server.url, token);
      slowest = Math.max(slowest, performance.now() - started);
      during++;
    }
  })();
  const started = performance.now();
  const run = await runPayframe(['backup', '--to', file, '--json'], { DATA_DIR: dataDir });
  const commandMs = Math.round(performance.now() - started);
  paying = false;
  await shopper;
  if (run.code !== 0) throw new Error(`payframe backup failed: ${run.stdout}${run.stderr}`);
  const report = JSON.parse(run.stdout) as { bytes: number; snapshotMs: number };
  const dataBytes = Number(
    execSync(`du -sb ${path.join(dataDir, 'pglite')}`)
      .toString()
      .split('\t')[0],
  );
  process.stdout.write(
    `${JSON.stringify({
      pays: PAYS,
      dataDirMB: Number((dataBytes / 1e6).toFixed(1)),
      backupMB: Number((report.bytes / 1e6).toFixed(1)),
      statementsWaitedMs: report.snapshotMs,
      commandMs,
      paysWhileBackingUp: during,
      slowestPayMs: Math.round(slowest),
      loadAverage: os.loadavg()[0]!.toFixed(1),
    })}\n`,
  );
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(file, { force: true });
}
