/**
 * The instance id (server/instance.ts): the same after a restart on one DATA_DIR of one host, taken
 * over from a predecessor that is gone, never shared with a live process, different elsewhere. The
 * database's side is PostgreSQL's advisory lock, on the test server.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from './config.ts';
import type { Database } from './db/database.ts';
import { openPostgres } from './db/postgres.ts';
import { takeInstance } from './instance.ts';
import { tempDir } from '../test/kit/databases.ts';

const url = testDatabaseUrl();

const dirs: string[] = [];
function dataDir(): string {
  const dir = tempDir('payframe-instance-');
  dirs.push(dir);
  return dir;
}

function writeLock(dir: string, pid: number, host = os.hostname()) {
  fs.writeFileSync(path.join(dir, 'instance.lock'), JSON.stringify({ pid, host }));
}

/** The pid of a process that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

describe.skipIf(!url)(`the instance id${url ? '' : ' (skipped: TEST_DATABASE_URL is not set)'}`, () => {
  let db: Database;
  const lost: unknown[] = [];
  const take = (dir: string) => takeInstance(dir, db.holdLock!.bind(db), (err) => lost.push(err));
  beforeAll(async () => {
    db = await openPostgres({ url: url!, poolSize: 1 });
  });
  afterAll(() => db?.close());
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
    expect(lost).toEqual([]);
  });

  it('is the same after a graceful restart, and another DATA_DIR has another', async () => {
    const dir = dataDir();
    const first = await take(dir);
    expect(first.id).toMatch(/^[0-9a-f]{32}$/);
    expect(first.owner).toMatch(new RegExp(`^${first.id}\\.[0-9a-f]{12}$`));
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'instance.lock'), 'utf8'))).toEqual({
      pid: process.pid,
      host: os.hostname(),
    });
    await first.release();
    expect(fs.existsSync(path.join(dir, 'instance.lock'))).toBe(false);
    const again = await take(dir);
    expect(again.id).toBe(first.id);
    expect(again.owner).not.toBe(first.owner); // each process writes its own owner
    await again.release();
    const other = await take(dataDir());
    expect(other.id).toMatch(/^[0-9a-f]{32}$/);
    expect(other.id).not.toBe(first.id);
    await other.release();
  });

  it('is taken over from a predecessor killed with its lock in place', async () => {
    const dir = dataDir();
    const first = await take(dir);
    await first.release();
    // kill -9: the lock file stays, naming a process that no longer runs (its database session is gone).
    writeLock(dir, deadPid());
    const next = await take(dir);
    expect(next.id).toBe(first.id);
    await next.release();
  });

  it('is refused by the database while a live process holds it, whatever the lock file says', async () => {
    const dir = dataDir();
    const first = await take(dir);
    // The lock file removed by hand (or a copy of the directory, or another pid namespace).
    fs.rmSync(path.join(dir, 'instance.lock'));
    const twin = await take(dir);
    expect(twin).toMatchObject({ id: null, owner: null });
    expect(fs.existsSync(path.join(dir, 'instance.lock'))).toBe(false); // the twin kept no lock file
    await first.release();
    const after = await take(dir);
    expect(after.id).toBe(first.id);
    await after.release();
  });

  it('is refused while a live process holds the lock, or one on another host (none is given)', async () => {
    const dir = dataDir();
    const first = await take(dir);
    await first.release();
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeLock(dir, live.pid!);
      const second = await take(dir);
      expect(second.id).toBeNull();
      await second.release(); // releases nothing: the lock stays the live process's
      expect(JSON.parse(fs.readFileSync(path.join(dir, 'instance.lock'), 'utf8')).pid).toBe(live.pid);
    } finally {
      live.kill('SIGKILL');
    }
    writeLock(dir, deadPid(), `not-${os.hostname()}`);
    expect((await take(dir)).id).toBeNull();
  });
});
