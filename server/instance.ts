/**
 * Which instance this process is (issue 19 §5), so that a restart settles at once what its own
 * crash left in flight instead of waiting for the claim timeout and the stale time.
 *
 * On PostgreSQL several live instances share the database, and nothing in it tells a dead process
 * from one cut off from the database with a processor call still under way: settling another's
 * claim early could charge a session twice. But a process can prove that its own predecessor is
 * gone. The instance's id is derived from the host's name, the DATA_DIR's real path and a random
 * value kept in `DATA_DIR/instance-id`: the same after a restart on the same DATA_DIR of the same
 * host, different for any other instance. A process takes the id only when both hold:
 *   - `DATA_DIR/instance.lock` names no other process alive on this host (a lock naming a pid that
 *     no longer runs was left by a process that died; one from another host cannot be judged);
 *   - no other live database session holds the id's advisory lock, which this process then holds
 *     on a connection of its own while it lives (a second process with the same id — a copied
 *     DATA_DIR, containers sharing one with the same host name, a lock file removed by hand — is
 *     turned away by the database, whatever the files say).
 * Each process writes `<id>.<random>` (its `owner`) on the payment claims (the gateway's) and the
 * attempts (the checkout's) it makes; those carrying its id with another suffix were its
 * predecessors', and are settled before it serves.
 *
 * Without the id (another process holds it, or the lock could not be judged) the process writes no
 * owner: its claims and attempts wait for the timeouts, as before.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processAlive } from './db/pglite.ts';

export interface Instance {
  /** This instance's id; null when another process holds it (or may). */
  id: string | null;
  /** What this process writes on its claims and attempts: `<id>.<random>`; null without an id. */
  owner: string | null;
  /** Gives the locks up (graceful shutdown). */
  release(): Promise<void>;
}

/** The database's side of the id: its advisory lock (`Database.holdLock`). */
export type HoldLock = (
  name: string,
  onLost: (err: unknown) => void,
) => Promise<(() => Promise<void>) | null>;

const LOCK_FILE = 'instance.lock';
const ID_FILE = 'instance-id';

interface LockRecord {
  pid: number;
  host: string;
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
  return lock.pid !== process.pid && processAlive(lock.pid);
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

/**
 * Takes this process's instance id in `dataDir` (created if missing), holding the database's lock on
 * it through `holdLock`; `onLost` hears when that lock's connection drops.
 */
export async function takeInstance(
  dataDir: string,
  holdLock: HoldLock,
  onLost: (err: unknown) => void,
): Promise<Instance> {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, LOCK_FILE);
  const record = JSON.stringify({ pid: process.pid, host: os.hostname() } satisfies LockRecord);
  const none: Instance = { id: null, owner: null, release: async () => {} };
  const releaseFile = () => {
    if (ours(readLock(lockFile))) fs.rmSync(lockFile, { force: true });
  };
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
      const releaseLock = await holdLock(`payframe-instance:${id}`, onLost).catch((err: unknown) => {
        releaseFile();
        throw err;
      });
      if (!releaseLock) {
        releaseFile();
        return none;
      }
      return {
        id,
        owner: `${id}.${crypto.randomBytes(6).toString('hex')}`,
        release: async () => {
          await releaseLock();
          releaseFile();
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
