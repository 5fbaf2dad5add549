/**
 * PostgreSQL stopped (immediate shutdown, as in a crash) and started again under traffic, while one
 * Payframe server keeps running on it (security-requirements.md REL-1, REL-8, REL-9). While the
 * database is down every request fails cleanly — 503 with Retry-After, or a 500/409 that says to
 * retry — and never a "succeeded" that is not stored; /readyz answers 503. Once it is back the
 * server recovers by itself: /readyz 200, pays succeed, no session charged twice, every acknowledged
 * payment present.
 *
 * It runs a private cluster (Debian's PostgreSQL binaries, as the `postgres` user: initdb refuses
 * root), so it needs root and the binaries; it skips otherwise.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPostgres } from '../../../server/db/postgres.ts';
import {
  checkInvariants,
  createSession,
  finalOf,
  type Payment,
  type PayResult,
  payRequest,
  randomIp,
  Traffic,
} from './harness.ts';
import {
  freePort,
  readDemoMerchant,
  type ServerProcess,
  STALE_PAYMENT_SECONDS,
  sleep,
  startPayframe,
} from './servers.ts';

function findBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

const BIN = findBin();
const isRoot = process.getuid?.() === 0;
const skipReason = !isRoot
  ? 'needs root (the private cluster runs as the postgres user)'
  : !BIN
    ? 'PostgreSQL server binaries not found under /usr/lib/postgresql'
    : null;

class Cluster {
  constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  private pgCtl(...args: string[]): void {
    execFileSync('runuser', ['-u', 'postgres', '--', path.join(BIN!, 'pg_ctl'), '-D', this.dir, ...args], {
      stdio: 'pipe',
      timeout: 30_000,
    });
  }

  static async create(): Promise<Cluster> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payframe-pg-'));
    const { uid, gid } = userIds('postgres');
    fs.chownSync(dir, uid, gid);
    execFileSync(
      'runuser',
      [
        '-u',
        'postgres',
        '--',
        path.join(BIN!, 'initdb'),
        '-D',
        dir,
        '-A',
        'trust',
        '-U',
        'postgres',
        '--no-sync',
      ],
      { stdio: 'pipe', timeout: 60_000 },
    );
    return new Cluster(dir, await freePort());
  }

  start(): void {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    this.pgCtl('-o', options, '-l', path.join(this.dir, 'server.log'), '-w', 'start');
  }

  /** An immediate shutdown: no checkpoint, connections cut, like a crash of the server. */
  stopImmediate(): void {
    this.pgCtl('-m', 'immediate', '-w', 'stop');
  }

  remove(): void {
    try {
      this.stopImmediate();
    } catch {
      // already stopped
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }
}

function userIds(name: string): { uid: number; gid: number } {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  if (!line) throw new Error(`no user ${name}`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** Whether an answer given while the database was down is a clean "try again". */
function cleanFailure(r: PayResult): boolean {
  if (r.kind === 'no_answer') return false; // the server itself must stay up
  if (r.status === 503) return r.retryAfter !== null;
  if (r.status === 409) return true;
  if (r.status === 500) return /retry|try again/i.test(r.body);
  return false;
}

describe.skipIf(skipReason !== null)(
  `PostgreSQL restarted under traffic${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    it('fails cleanly while it is down and recovers by itself', { timeout: 60_000 }, async () => {
      const cluster = await Cluster.create();
      let server: ServerProcess | undefined;
      let traffic: Traffic | undefined;
      try {
        cluster.start();
        const dataDir = fs.mkdtempSync(
          path.join(process.env.PAYFRAME_TEST_TMP ?? os.tmpdir(), 'payframe-crash-'),
        );
        server = await startPayframe({
          DATABASE_URL: cluster.url,
          DATA_DIR: dataDir,
          DATABASE_POOL_SIZE: '8',
        });
        const base = server.url;
        const merchant = readDemoMerchant(dataDir);
        traffic = new Traffic([base], merchant, 3);
        traffic.start();
        await sleep(1500 + Math.random() * 1000);

        // Sessions created before the outage and paid during it (then retried with the same key).
        const pending: Payment[] = [];
        for (let i = 0; i < 4; i++) {
          const ip = randomIp();
          const token = await createSession(base, merchant, `pending-${i}`, ip);
          pending.push({ token, key: crypto.randomUUID(), ip, history: [], final: null, inDoubt: true });
        }

        cluster.stopImmediate();
        const downSince = Date.now();
        const seenBefore = new Map(traffic.payments.map((p) => [p, p.history.length]));
        // While it is down: readiness says so, and pays answer "retry".
        await sleep(300);
        const ready = await fetch(`${base}/readyz`);
        expect(ready.status).toBe(503);
        expect(ready.headers.get('retry-after')).not.toBeNull();
        const known = traffic.payments.find((p) => p.final)!;
        const probes = await Promise.all([
          payRequest(base, known.token, crypto.randomUUID(), randomIp()),
          ...pending.map((p) => payRequest(base, p.token, p.key, p.ip)),
        ]);
        for (const probe of probes) expect(cleanFailure(probe), JSON.stringify(probe)).toBe(true);
        pending.forEach((p, i) => p.history.push(probes[i + 1]!));
        traffic.payments.push(...pending);
        await sleep(Math.max(0, 2500 - (Date.now() - downSince)));

        cluster.start();
        const upAt = Date.now();
        // No restart of Payframe: its pool must reconnect on its own.
        let readyAgain = false;
        while (!readyAgain && Date.now() - upAt < 15_000) {
          readyAgain = (await fetch(`${base}/readyz`)).status === 200;
          if (!readyAgain) await sleep(200);
        }
        expect(readyAgain).toBe(true);
        const token = await createSession(base, merchant, 'after-restart');
        const after = await payRequest(base, token, crypto.randomUUID(), randomIp());
        expect(finalOf(after)?.status, JSON.stringify(after)).toBe('succeeded');

        await sleep(1000);
        await traffic.stop();
        const open = await traffic.settle(Date.now() + (STALE_PAYMENT_SECONDS + 12) * 1000);
        expect(open.map((p) => p.token)).toEqual([]);

        // Every answer other than 200 that the clients got while the database was away was clean.
        const unclean: PayResult[] = [];
        for (const p of traffic.payments) {
          for (const r of p.history.slice(seenBefore.get(p) ?? 0)) {
            if (!(r.kind === 'answer' && r.status === 200) && !cleanFailure(r)) unclean.push(r);
          }
        }
        expect(unclean).toEqual([]);
        expect(traffic.errors).toEqual([]);

        const db = await openPostgres({ url: cluster.url, poolSize: 2 });
        try {
          const findings = await checkInvariants(db, traffic.payments);
          expect(findings.problems).toEqual([]);
          expect(findings.acknowledged).toBeGreaterThanOrEqual(5);
          process.stdout.write(
            `PostgreSQL restart: ${traffic.payments.length} payments, ${findings.acknowledged} acknowledged, ${findings.inDoubt} answered "retry" and retried\n`,
          );
        } finally {
          await db.close();
        }
      } catch (err) {
        // The server's own account of what happened belongs with the failure.
        throw new Error(`${(err as Error).message}\n--- payframe output ---\n${server?.output() ?? ''}`, {
          cause: err,
        });
      } finally {
        await traffic?.stop();
        await server?.stop();
        cluster.remove();
      }
    });
  },
);
