/**
 * The instance id (server/instance.ts): the same after a restart on one DATA_DIR of one host, taken
 * over from a predecessor that is gone, never shared with a live process, different elsewhere.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { takeInstance } from './instance.ts';
import { tempDir } from './testing/databases.ts';

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

describe('the instance id', () => {
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('is the same after a graceful restart, and another DATA_DIR has another', async () => {
    const dir = dataDir();
    const first = await takeInstance(dir);
    expect(first.id).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'instance.lock'), 'utf8'))).toEqual({
      pid: process.pid,
      host: os.hostname(),
    });
    first.release();
    expect(fs.existsSync(path.join(dir, 'instance.lock'))).toBe(false);
    const again = await takeInstance(dir);
    expect(again.id).toBe(first.id);
    again.release();
    const other = await takeInstance(dataDir());
    expect(other.id).toMatch(/^[0-9a-f]{32}$/);
    expect(other.id).not.toBe(first.id);
    other.release();
  });

  it('is taken over from a predecessor killed with its lock in place', async () => {
    const dir = dataDir();
    const first = await takeInstance(dir);
    // kill -9: the lock stays, naming a process that no longer runs.
    writeLock(dir, deadPid());
    const next = await takeInstance(dir);
    expect(next.id).toBe(first.id);
    expect(next.since.getTime()).toBeGreaterThanOrEqual(first.since.getTime());
    next.release();
  });

  it('is refused while a live process holds the lock, or one on another host (none is given)', async () => {
    const dir = dataDir();
    const first = await takeInstance(dir);
    first.release();
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeLock(dir, live.pid!);
      const second = await takeInstance(dir);
      expect(second.id).toBeNull();
      second.release(); // releases nothing: the lock stays the live process's
      expect(JSON.parse(fs.readFileSync(path.join(dir, 'instance.lock'), 'utf8')).pid).toBe(live.pid);
    } finally {
      live.kill('SIGKILL');
    }
    writeLock(dir, deadPid(), `not-${os.hostname()}`);
    expect((await takeInstance(dir)).id).toBeNull();
  });
});
