/**
 * Private PostgreSQL servers for the tests that need to stop, kill or promote one (the failover
 * suite, postgres-hosts.test): Debian's server binaries, a data directory of its own in the system's
 * temporary directory, a free port on 127.0.0.1. PostgreSQL refuses to run as root, so under root
 * (as in CI) the binaries run as the `postgres` user, which owns the data directories.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './net.ts';

function findBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) =>
      ['initdb', 'pg_ctl', 'pg_basebackup'].every((b) => fs.existsSync(path.join(root, v, 'bin', b))),
    )
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

function userIds(name: string): { uid: number; gid: number } | null {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  if (!line) return null;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

const BIN = findBin();
const isRoot = process.getuid?.() === 0;
const POSTGRES_USER = isRoot ? userIds('postgres') : null;

/** Why private servers cannot run here, or null when they can. */
export const privateClusterSkipReason: string | null = !BIN
  ? 'PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup) not found under /usr/lib/postgresql'
  : isRoot && !POSTGRES_USER
    ? 'running as root and there is no postgres user to run the server as'
    : isRoot && !fs.existsSync('/usr/sbin/runuser') && !fs.existsSync('/sbin/runuser')
      ? 'running as root and runuser is missing'
      : null;

const run = promisify(execFile);

/**
 * Runs one of the server binaries, as the postgres user when this process is root. Not blocking:
 * a ReplicationLink in this process must relay while pg_basebackup copies through it.
 */
async function pgBin(name: string, args: string[], timeout = 60_000): Promise<void> {
  const bin = path.join(BIN!, name);
  const [file, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  try {
    await run(file, argv, { timeout, cwd: os.tmpdir() });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`${name} failed: ${e.stderr || e.message}`, { cause: err });
  }
}

function newDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payframe-pg-'));
  if (POSTGRES_USER) fs.chownSync(dir, POSTGRES_USER.uid, POSTGRES_USER.gid);
  return dir;
}

/** Every process of the server whose postmaster is `pid` (its children: backends, walsender...). */
function processTree(pid: number): number[] {
  const children = fs
    .readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        // "pid (comm) state ppid ...": comm may hold spaces, so read after its closing parenthesis.
        const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
  return [pid, ...children];
}

function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'; // a zombie has stopped
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class PgServer {
  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  /** A new, empty cluster (user `postgres`, trust authentication on 127.0.0.1), not started. */
  static async create(port?: number): Promise<PgServer> {
    const dir = newDataDir();
    await pgBin('initdb', ['-D', dir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    return new PgServer(dir, port ?? (await freePort()));
  }

  /**
   * A streaming standby of `primary` (pg_basebackup -R), not started. It does not inherit the
   * primary's `synchronous_standby_names`: promoted while alone, it must not wait for a standby.
   */
  static async standbyOf(
    primary: PgServer,
    options: { port?: number; via?: ReplicationLink } = {},
  ): Promise<PgServer> {
    const dir = newDataDir();
    // Through `via` when given: pg_basebackup -R writes the address it copied from as the standby's
    // primary_conninfo, so the replication stream then runs through the link too.
    const from = options.via?.port ?? primary.port;
    await pgBin('pg_basebackup', [
      ...['-h', '127.0.0.1', '-p', String(from), '-U', 'postgres'],
      ...['-D', dir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync'],
    ]);
    const auto = path.join(dir, 'postgresql.auto.conf');
    const kept = fs
      .readFileSync(auto, 'utf8')
      .split('\n')
      .filter((l) => !/^\s*synchronous_standby_names\s*=/.test(l));
    fs.writeFileSync(auto, kept.join('\n'));
    return new PgServer(dir, options.port ?? (await freePort()));
  }

  async start(): Promise<void> {
    const options = [
      `-p ${this.port}`,
      // TCP only: a socket's lock file in the data directory would be copied to a standby.
      "-c unix_socket_directories=''",
      '-c listen_addresses=127.0.0.1',
      // A process killed with -9 leaves its writes in the kernel's cache: fsync protects against a
      // machine's crash, which these tests do not cause, and costs seconds on a loaded machine.
      '-c fsync=off',
    ].join(' ');
    await pgBin('pg_ctl', [
      '-D',
      this.dir,
      '-o',
      options,
      '-l',
      path.join(this.dir, 'server.log'),
      '-w',
      'start',
    ]);
  }

  /** Commits wait until a standby has flushed them (`synchronous_standby_names = '*'`). */
  async requireSynchronousStandby(): Promise<void> {
    await this.sql("alter system set synchronous_standby_names = '*'");
    await this.sql('select pg_reload_conf()');
  }

  /** Waits until a standby streams from this server in synchronous mode. */
  async waitForSynchronousStandby(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const state = (await this.sql("select string_agg(sync_state, ',') from pg_stat_replication")).trim();
      if (state.split(',').includes('sync')) return;
      if (Date.now() > deadline) throw new Error(`no synchronous standby (pg_stat_replication: "${state}")`);
      await sleep(100);
    }
  }

  /** Ends a standby's recovery: it takes writes from here on (`pg_ctl promote`, waiting for it). */
  async promote(): Promise<void> {
    await pgBin('pg_ctl', ['-D', this.dir, '-w', 'promote']);
  }

  /**
   * Kills the server as a machine's failure would: SIGKILL to the postmaster and every process it
   * started at once, no shutdown, connections cut.
   */
  async kill9(): Promise<void> {
    const pidFile = path.join(this.dir, 'postmaster.pid');
    if (!fs.existsSync(pidFile)) return;
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    const tree = processTree(pid);
    for (const p of tree) {
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    while (tree.some(alive)) await sleep(20);
  }

  /** Runs one statement on a connection of its own; answers the first column of the first row. */
  async sql(statement: string, database = 'postgres'): Promise<string> {
    const client = new pg.Client({ connectionString: this.urlOf(database) });
    await client.connect();
    try {
      const r = await client.query<Record<string, unknown>>(statement);
      const row = r.rows[0];
      return row ? String(Object.values(row)[0] ?? '') : '';
    } finally {
      await client.end();
    }
  }

  urlOf(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** Stops it if it runs (immediately: these servers hold nothing to keep) and deletes its files. */
  async remove(): Promise<void> {
    await this.kill9();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A link with latency between a standby and its primary (a TCP relay on 127.0.0.1): each chunk is
 * passed on `delayMs` after it arrived, in order. On loopback a standby is never behind; through
 * this one it is, as across a network, so a commit acknowledged but not yet on the standby can
 * exist. `cut()` drops whatever the link still holds, as the bytes a dead machine had not sent.
 */
export class ReplicationLink {
  #cut = false;

  private constructor(
    private readonly server: net.Server,
    private readonly sockets: Set<net.Socket>,
    readonly port: number,
  ) {}

  static async open(targetPort: number, delayMs: number): Promise<ReplicationLink> {
    const sockets = new Set<net.Socket>();
    let link: ReplicationLink | undefined;
    const server = net.createServer((inbound) => {
      const outbound = net.connect(targetPort, '127.0.0.1');
      const pair = [inbound, outbound];
      for (const s of pair) sockets.add(s);
      const destroy = () => {
        for (const s of pair) {
          s.destroy();
          sockets.delete(s);
        }
      };
      // Timers of one delay fire in the order they were set: the stream keeps its order, and an
      // end follows the data before it.
      const later = (fn: () => void) =>
        setTimeout(() => {
          if (!link?.isCut) fn();
        }, delayMs);
      const relay = (from: net.Socket, to: net.Socket) => {
        from.on('data', (chunk) => later(() => to.write(chunk)));
        from.on('end', () => later(() => to.end()));
        from.on('error', destroy);
      };
      relay(inbound, outbound);
      relay(outbound, inbound);
      outbound.on('close', () => later(destroy));
    });
    const port = await freePort();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    link = new ReplicationLink(server, sockets, port);
    return link;
  }

  get isCut(): boolean {
    return this.#cut;
  }

  /** Drops what is in transit and every connection, and takes no more. */
  cut(): Promise<void> {
    this.#cut = true;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
