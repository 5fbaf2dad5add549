/**
 * `payframe backup` while the server runs on the embedded database, under a stream of payments, and
 * `payframe restore` into an empty DATA_DIR (issue 19 §4): every payment acknowledged before the
 * backup began is in the restored database, as the gateway and the checkout recorded it, and the
 * card encryption key kept apart opens the vault. A restore without the key, with the wrong one, or
 * into a DATA_DIR that holds a database keeps nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants, type Payment, Traffic } from '../crash/harness.ts';
import { readDemoMerchant, type ServerProcess, sleep, startPayframe } from '../crash/servers.ts';
import { openPglite } from '../../../server/db/pglite.ts';
import { tempDir } from '../../kit/databases.ts';
import { KEY_FILE_NAME } from '../../../server/gateway/vault/keys.ts';
import { runPayframe } from '../../kit/cli/run-payframe.ts';

/** An empty DATA_DIR with the key file copied from `from` (0600), as an operator restores. */
function emptyDataDirWithKey(from: string | null): string {
  const dir = tempDir('payframe-restore-');
  fs.chmodSync(dir, 0o700);
  if (from) {
    fs.copyFileSync(path.join(from, KEY_FILE_NAME), path.join(dir, KEY_FILE_NAME));
    fs.chmodSync(path.join(dir, KEY_FILE_NAME), 0o600);
  }
  return dir;
}

const finalCount = (payments: readonly Payment[]) => payments.filter((p) => p.final).length;

describe('payframe backup and restore (embedded database)', () => {
  let dataDir: string;
  let server: ServerProcess | null = null;
  let traffic: Traffic | null = null;
  let backupFile: string;
  let acknowledgedBefore: Payment[] = [];
  let duringBackup = 0;

  beforeAll(async () => {
    dataDir = tempDir('payframe-backup-');
    backupFile = path.join(tempDir('payframe-backups-'), 'payframe.backup');
    server = await startPayframe({ DATA_DIR: dataDir, DATABASE_URL: '' });
    traffic = new Traffic([server.url], readDemoMerchant(dataDir), 3);
    traffic.start();
    const deadline = Date.now() + 60_000;
    while (finalCount(traffic.payments) < 10 && Date.now() < deadline) await sleep(100);
    acknowledgedBefore = traffic.payments.filter((p) => p.final).map((p) => ({ ...p }));
    const run = await runPayframe(['backup', '--to', backupFile, '--json'], { DATA_DIR: dataDir });
    expect(run.code, run.stderr).toBe(0);
    duringBackup = finalCount(traffic.payments) - acknowledgedBefore.length;
    // Payments go on after the backup: the server was never stopped.
    const after = finalCount(traffic.payments);
    while (finalCount(traffic.payments) < after + 5 && Date.now() < deadline + 30_000) await sleep(100);
    await traffic.stop();
    await traffic.settle(Date.now() + 30_000);
    await server.stop();
    server = null;
  }, 180_000);

  afterAll(async () => {
    await traffic?.stop();
    await server?.stop();
  });

  it('writes the snapshot while payments go on, 0600, and no key in it', () => {
    expect(acknowledgedBefore.length).toBeGreaterThanOrEqual(10);
    expect(duringBackup).toBeGreaterThanOrEqual(0);
    expect(finalCount(traffic!.payments)).toBeGreaterThanOrEqual(acknowledgedBefore.length + 5);
    const stat = fs.statSync(backupFile);
    expect(stat.size).toBeGreaterThan(1000);
    expect(stat.mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.dirname(backupFile)).filter((f) => f.endsWith('.partial'))).toEqual([]);
    const key = fs.readFileSync(path.join(dataDir, KEY_FILE_NAME), 'utf8').trim();
    expect(fs.readFileSync(backupFile).includes(Buffer.from(key))).toBe(false);
  });

  it('restores into an empty DATA_DIR: every payment acknowledged before the backup, and the vault opens', async () => {
    const restored = emptyDataDirWithKey(dataDir);
    const run = await runPayframe(['restore', '--from', backupFile, '--json'], { DATA_DIR: restored });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { cards: number; merchants: number; transactions: number };
    expect(report.cards).toBeGreaterThan(0);
    expect(report.transactions).toBeGreaterThanOrEqual(acknowledgedBefore.length);
    const db = await openPglite(restored);
    try {
      const findings = await checkInvariants(db, acknowledgedBefore);
      expect(findings.problems).toEqual([]);
      expect(findings.acknowledged).toBe(acknowledgedBefore.length);
    } finally {
      await db.close();
    }
    // The restored DATA_DIR serves: a new payment goes through.
    const again = await startPayframe({ DATA_DIR: restored, DATABASE_URL: '' });
    try {
      const more = new Traffic([again.url], readDemoMerchant(dataDir), 1);
      more.start();
      const deadline = Date.now() + 30_000;
      while (finalCount(more.payments) < 1 && Date.now() < deadline) await sleep(100);
      await more.stop();
      expect(finalCount(more.payments)).toBeGreaterThanOrEqual(1);
    } finally {
      await again.stop();
    }
  }, 120_000);

  it('refuses without the key, with the wrong key, and into a DATA_DIR that holds a database', async () => {
    const noKey = emptyDataDirWithKey(null);
    const missing = await runPayframe(['restore', '--from', backupFile, '--json'], { DATA_DIR: noKey });
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({ error: { code: 'missing_key' } });
    expect(fs.existsSync(path.join(noKey, 'pglite'))).toBe(false);

    const wrong = emptyDataDirWithKey(null);
    const run = await runPayframe(['restore', '--from', backupFile, '--json'], {
      DATA_DIR: wrong,
      CARD_ENCRYPTION_KEY: 'ab'.repeat(32),
    });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ error: { code: 'restore_failed' } });
    expect(fs.existsSync(path.join(wrong, 'pglite'))).toBe(false);

    const garbage = path.join(path.dirname(backupFile), 'not-a-backup');
    fs.writeFileSync(garbage, 'hello');
    const notBackup = await runPayframe(['restore', '--from', garbage, '--json'], {
      DATA_DIR: emptyDataDirWithKey(dataDir),
    });
    expect(notBackup.code).toBe(1);
    expect(JSON.parse(notBackup.stdout)).toMatchObject({ error: { code: 'invalid_backup' } });

    const occupied = await runPayframe(['restore', '--from', backupFile, '--json'], { DATA_DIR: dataDir });
    expect(occupied.code).toBe(1);
    expect(JSON.parse(occupied.stdout)).toMatchObject({ error: { code: 'data_dir_not_empty' } });
  }, 120_000);

  it('backs up directly when no server runs, and refuses to overwrite without --force', async () => {
    const file = path.join(path.dirname(backupFile), 'direct.backup');
    const first = await runPayframe(['backup', '--to', file, '--json'], { DATA_DIR: dataDir });
    expect(first.code, first.stderr).toBe(0);
    const second = await runPayframe(['backup', '--to', file, '--json'], { DATA_DIR: dataDir });
    expect(second.code).toBe(1);
    expect(JSON.parse(second.stdout)).toMatchObject({ error: { code: 'file_exists' } });
    const forced = await runPayframe(['backup', '--to', file, '--force', '--json'], { DATA_DIR: dataDir });
    expect(forced.code, forced.stderr).toBe(0);
  }, 120_000);

  it('is for the embedded database only', async () => {
    const run = await runPayframe(['backup', '--to', '/tmp/x.backup', '--json'], {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
    });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ error: { code: 'not_supported' } });
  });
});
