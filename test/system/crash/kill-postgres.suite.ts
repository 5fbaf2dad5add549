/**
 * Two Payframe instances on one PostgreSQL database (DESIGN.md §4, §8; security-requirements.md
 * REL-1, REL-9): clients spread over both; one instance is killed with SIGKILL mid-stream (its
 * clients retry on the other, with the same Idempotency-Key, like a client behind a load balancer)
 * and restarted; then 50 pays at once at ONE session across both instances charge it exactly once.
 * Each test runs on a database of its own, created here and dropped afterwards.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../../../server/config.ts';
import { openPostgres } from '../../../server/db/postgres.ts';
import type { Database } from '../../../server/db/database.ts';
import { tempDir } from '../../kit/databases.ts';
import { checkInvariants, createSession, finalOf, stampede, Traffic } from './harness.ts';
import {
  randomKey,
  readDemoMerchant,
  type ServerProcess,
  STALE_PAYMENT_SECONDS,
  sleep,
  startPayframe,
} from './servers.ts';

const adminUrl = testDatabaseUrl();

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

describe.skipIf(!adminUrl)(
  `two instances on PostgreSQL${adminUrl ? '' : ' (skipped: TEST_DATABASE_URL is not set)'}`,
  () => {
    let dbName: string;
    let url: string;
    let servers: ServerProcess[] = [];
    const dirs: string[] = [];

    beforeEach(async () => {
      dbName = `payframe_crash_${crypto.randomBytes(6).toString('hex')}`;
      await admin(`create database ${dbName}`);
      const u = new URL(adminUrl!);
      u.pathname = `/${dbName}`;
      url = u.toString();
      servers = [];
    });

    afterEach(async () => {
      await Promise.all(servers.map((s) => s.kill9()));
      for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
      await admin(`drop database if exists ${dbName} with (force)`);
    });

    /** Two instances sharing the database and the vault key; the first creates the demo merchant. */
    async function startTwo(): Promise<{ envs: Record<string, string>[]; merchantDir: string }> {
      const key = randomKey();
      const envs = [0, 1].map(() => {
        const dir = tempDir('payframe-crash-');
        dirs.push(dir);
        return { DATABASE_URL: url, CARD_ENCRYPTION_KEY: key, DATA_DIR: dir, DATABASE_POOL_SIZE: '8' };
      });
      servers = await Promise.all(envs.map((e) => startPayframe(e)));
      const merchantDir = envs.find((e) => fs.existsSync(`${e.DATA_DIR}/demo-merchant.json`))!.DATA_DIR;
      return { envs, merchantDir };
    }

    async function withDatabase<T>(fn: (db: Database) => Promise<T>): Promise<T> {
      const db = await openPostgres({ url, poolSize: 2 });
      try {
        return await fn(db);
      } finally {
        await db.close();
      }
    }

    it('kill -9 of one instance loses no acknowledged payment', { timeout: 120_000 }, async () => {
      const { envs, merchantDir } = await startTwo();
      const finals: string[] = [];
      const traffic = new Traffic(
        servers.map((s) => s.url),
        readDemoMerchant(merchantDir),
        4,
      );
      traffic.start();
      try {
        // Kill each instance once, at a random point, while the other one serves.
        for (const victim of [1, 0]) {
          await sleep(1500 + Math.random() * 1500);
          const dead = servers[victim]!;
          // Killed with a pay on its way to it (cut mid-flight), then taken out of the clients' list.
          expect(await traffic.payInFlight(dead.url)).toBe(true);
          const killed = dead.kill9();
          traffic.targets = servers.filter((s) => s !== dead).map((s) => s.url);
          await killed;
          servers[victim] = await startPayframe(envs[victim]!, dead.port);
          traffic.targets = servers.map((s) => s.url);
          // Issue 19 §5: the payments the kill left in doubt, retried once the instance is healthy.
          const healthy = Date.now();
          const final = await traffic.inDoubtFinal(healthy, healthy + (STALE_PAYMENT_SECONDS + 12) * 1000);
          finals.push(final);
        }
        await sleep(1500);
        await traffic.stop();
        const open = await traffic.settle(Date.now() + (STALE_PAYMENT_SECONDS + 12) * 1000);
        expect(open.map((p) => p.token)).toEqual([]);
      } finally {
        await traffic.stop();
      }
      const findings = await withDatabase((db) => checkInvariants(db, traffic.payments));
      expect(traffic.errors).toEqual([]);
      expect(findings.problems).toEqual([]);
      expect(findings.acknowledged).toBeGreaterThanOrEqual(10);
      expect(findings.inDoubt).toBeGreaterThan(0);
      process.stdout.write(
        `kill -9 ×2 (two instances, PostgreSQL): ${traffic.payments.length} payments, ${findings.acknowledged} acknowledged, ${findings.inDoubt} in doubt and retried; in doubt when the instance was healthy again: ${finals.join('; ')}\n`,
      );
    });

    it(
      '50 concurrent pays at one session across both instances charge it once',
      { timeout: 60_000 },
      async () => {
        const { merchantDir } = await startTwo();
        const targets = servers.map((s) => s.url);
        const token = await createSession(targets[0]!, readDemoMerchant(merchantDir), 'stampede-1');
        const answers = await stampede(targets, token, 50);

        const finals = answers.map(finalOf).filter((f) => f !== null);
        // Besides the one payment and its "already paid" / "in progress" answers, only the session's pay
        // limit (20 per 15 minutes) may answer: 429, nothing charged.
        const other = answers.filter((a) => a.kind !== 'answer' || ![200, 409, 429].includes(a.status));
        expect(other).toEqual([]);
        expect(answers.filter((a) => a.kind === 'answer' && a.status !== 429).length).toBeGreaterThanOrEqual(
          20,
        );
        expect(finals.filter((f) => f.status === 'succeeded')).toHaveLength(1);
        expect(new Set(finals.map((f) => f.transactionId)).size).toBe(1);

        const { rows } = await withDatabase((db) =>
          db.query<{ approved: string; charges: string }>(
            `select (select count(*) from transactions t join checkout_sessions s on s.id = t.checkout_session_id
                 where s.token = $1 and t.status = 'approved') as approved,
                (select count(*) from processor_ledger l join checkout_sessions s
                   on l.reference like 'cs' || s.id || '-a%'
                 where s.token = $1 and (l.result->>'approved')::boolean) as charges`,
            [token],
          ),
        );
        expect(rows[0]).toEqual({ approved: '1', charges: '1' });
      },
    );
  },
);
