/**
 * Which instance this process is (issue 19 §5), so that a restart settles at once what its own
 * crash left in flight instead of waiting for the claim timeout and the stale time.
 *
 * On PostgreSQL several live instances share the database, and nothing in it tells a dead process
 * from one cut off from the database with a processor call still under way: settling another's
 * claim early could charge a session twice. But a process can prove that its own predecessor is
 * gone. Each instance holds `DATA_DIR/instance.lock` (its pid and host) for as long as it runs; a
 * lock left by a pid that no longer runs on this host was left by a process that is dead. The
 * instance's id is derived from the host's name, the DATA_DIR's real path and a random value kept
 * in `DATA_DIR/instance-id`: the same after a restart on the same DATA_DIR of the same host, and
 * different for any other instance (another directory, another host, a copied directory elsewhere).
 * Payment claims (the gateway's) and attempts (the checkout's) carry the id; those carrying this
 * process's id from before it started were its predecessor's, and are settled before it serves.
 *
 * When another live process holds the lock (two instances on one DATA_DIR, allowed on PostgreSQL)
 * this one has no id: its claims and attempts carry none and wait for the timeouts, as before.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Instance {
  /** Names this instance's payment claims and attempts; null when the lock is another's. */
  id: string | null;
  /** When this process took the id: its claims and attempts from before were its predecessor's. */
  since: Date;
  /** Gives the lock up (graceful shutdown). */
  release(): void;
}

const LOCK_FILE = 'instance.lock';
const ID_FILE = 'instance-id';

interface LockRecord {
  pid: number;
  host: string;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(file: string): LockRecord | null {
  try {
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockRecord>;
    return typeof value.pid === 'number' && typeof value.host === 'string'
      ? { pid: value.pid, host: value.host }
      : null;
  } catch {
    return null; // unreadable or half written: its writer is not a live instance of this build
  }
}

/** The lock's holder is a live process other than this one, or on another host (cannot tell). */
function heldByAnother(lock: LockRecord | null): boolean {
  if (!lock) return false;
  if (lock.host !== os.hostname()) return true;
  return lock.pid !== process.pid && running(lock.pid);
}

function storedRandom(dataDir: string): string {
  const file = path.join(dataDir, ID_FILE);
  try {
    const value = fs.readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{32}$/.test(value)) return value;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const value = crypto.randomBytes(16).toString('hex');
  fs.writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return value;
}

/** How long a new lock is left before it is read back: two processes that took over one stale lock
 * at the same moment both wrote it, and only the last writer reads itself back. */
const SETTLE_MS = 100;

function ours(lock: LockRecord | null): boolean {
  return lock?.pid === process.pid && lock.host === os.hostname();
}

/** Takes this process's instance id in `dataDir` (created if missing). */
export async function takeInstance(dataDir: string, now: () => Date = () => new Date()): Promise<Instance> {
  fs.mkdirSync(dataDir, { recursive: true });
  const since = now();
  const lockFile = path.join(dataDir, LOCK_FILE);
  const record = JSON.stringify({ pid: process.pid, host: os.hostname() } satisfies LockRecord);
  const none: Instance = { id: null, since, release: () => {} };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, record, { flag: 'wx', mode: 0o600 });
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      if (!ours(readLock(lockFile))) return none;
      const id = crypto
        .createHash('sha256')
        .update(`${os.hostname()}\0${fs.realpathSync(dataDir)}\0${storedRandom(dataDir)}`)
        .digest('hex')
        .slice(0, 32);
      return {
        id,
        since,
        release: () => {
          if (ours(readLock(lockFile))) fs.rmSync(lockFile, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (heldByAnother(readLock(lockFile))) break;
      fs.rmSync(lockFile, { force: true }); // left by this instance's predecessor, which is gone
    }
  }
  return none;
}
