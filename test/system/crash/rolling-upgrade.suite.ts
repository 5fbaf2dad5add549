/**
 * A rolling upgrade on PostgreSQL (issue 19 §3; server/db/README.md): the previous release's build
 * (previous-release.ts) and this one on one database at once, under a stream of pays.
 *
 *  1. the previous release starts on a fresh database and migrates it to its own level; traffic;
 *  2. this build starts beside it and applies the new migrations while the previous one serves;
 *     the previous release pays on the migrated schema, and one more of its instances starts there
 *     (a restart, or a rollback, during the rollout); clients spread over all three;
 *  3. the previous release is retired as a load balancer does it: taken out of the clients' list,
 *     drained, stopped with SIGTERM; this build serves alone.
 *
 * Then: no pay request failed (none went unanswered, none answered other than 200: nothing was
 * killed, so nothing should have), every acknowledged payment is recorded, none charged twice, and
 * this build replays each acknowledged payment, the previous release's included, with its own key.
 * Each phase lasts until a number of payments are acknowledged, not for a time. Skipped without
 * TEST_DATABASE_URL, or without the git history that holds the previous release (CI's copy).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../../../server/config.ts';
import { openPostgres } from '../../../server/db/postgres.ts';
import { freshDatabase, tempDir } from '../../kit/databases.ts';
import { checkInvariants, createSession, finalOf, payRequest, randomIp, Traffic } from './harness.ts';
import { buildRelease, findPreviousRelease, type PreviousRelease } from './previous-release.ts';
import {
  type Merchant,
  randomKey,
  readDemoMerchant,
  type ServerProcess,
  STALE_PAYMENT_SECONDS,
  sleep,
  startPayframe,
} from './servers.ts';

const CLIENTS = 4;
/** Payments acknowledged in each phase before the next begins. */
const PER_PHASE = 15;
/** How long a load balancer lets requests already sent to a deregistered instance finish. */
const DRAIN_MS = 2000;

const adminUrl = testDatabaseUrl();
const found = adminUrl ? findPreviousRelease() : { skip: 'TEST_DATABASE_URL is not set' };
const skip = 'skip' in found ? found.skip : null;

/** Waits until `done()` holds; fails after `ms` (a stuck upgrade, not a slow one). */
async function until(what: string, done: () => boolean, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await sleep(50);
  }
}

/** One session made and paid on `base`: the pay's final answer. */
async function payOnce(base: string, merchant: Merchant) {
  const ip = randomIp();
  const token = await createSession(base, merchant, `rolling-${crypto.randomUUID()}`, ip);
  const r = await payRequest(base, token, crypto.randomUUID(), ip);
  return r.kind === 'answer' && r.status === 200 ? finalOf(r) : r;
}

describe.skipIf(skip !== null)(
  `rolling upgrade: the previous release and this build on one PostgreSQL database${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    it(
      'serve together under traffic while the new migration is applied; the previous one is retired',
      { timeout: 300_000 },
      async () => {
        const release = found as PreviousRelease;
        // An upgrade without a migration would prove nothing about migrations.
        expect(release.newMigrations, 'migrations the previous release does not have').not.toEqual([]);
        const database = await freshDatabase(adminUrl!, 'payframe_rolling');
        const dirs: string[] = [];
        const servers: ServerProcess[] = [];
        let traffic: Traffic | null = null;
        try {
          const built = buildRelease(release.commit);
          dirs.push(built.dir);
          const key = randomKey();
          const env = () => {
            const dir = tempDir('payframe-rolling-');
            dirs.push(dir);
            return {
              DATABASE_URL: database.url,
              CARD_ENCRYPTION_KEY: key,
              DATA_DIR: dir,
              DATABASE_POOL_SIZE: '8',
            };
          };
          const versions = async () => {
            const db = await openPostgres({ url: database.url, poolSize: 1 });
            try {
              const { rows } = await db.query<{ v: string }>(
                "select version || '_' || name as v from schema_migrations order by version",
              );
              return rows.map((r) => r.v);
            } finally {
              await db.close();
            }
          };

          // 1. The previous release alone: it migrates the fresh database to its own level.
          const oldEnv = env();
          let started = performance.now();
          const old1 = await startPayframe(oldEnv, undefined, [], built.build);
          const oldReadyMs = performance.now() - started;
          servers.push(old1);
          const before = await versions();
          const merchant = readDemoMerchant(oldEnv.DATA_DIR);
          const t = new Traffic([old1.url], merchant, CLIENTS);
          traffic = t;
          const acknowledged = () => t.payments.filter((p) => p.final).length;
          t.start();
          await until('the previous release alone acknowledges pays', () => acknowledged() >= PER_PHASE);
          const phase1 = acknowledged();

          // 2. This build beside it: applies the new migrations while the previous one serves.
          started = performance.now();
          const fresh = await startPayframe(env());
          const newReadyMs = performance.now() - started;
          servers.push(fresh);
          const after = await versions();
          expect(after.slice(0, before.length)).toEqual(before);
          expect(after.slice(before.length)).toEqual(
            release.newMigrations.map((f) => f.replace(/\.sql$/, '')),
          );
          t.targets = [old1.url, fresh.url];
          // The previous release pays on the migrated schema, and starts on it (a restart or a
          // rollback during the rollout).
          expect(await payOnce(old1.url, merchant)).toMatchObject({ status: 'succeeded' });
          const old2 = await startPayframe(env(), undefined, [], built.build);
          servers.push(old2);
          expect(await payOnce(old2.url, merchant)).toMatchObject({ status: 'succeeded' });
          t.targets = [old1.url, fresh.url, old2.url];
          await until('both releases acknowledge pays', () => acknowledged() >= phase1 + 2 * PER_PHASE);
          const phase2 = acknowledged() - phase1;

          // 3. The previous release retired: out of the list, drained, SIGTERM.
          t.targets = [fresh.url];
          await sleep(DRAIN_MS);
          started = performance.now();
          await Promise.all([old1.stop(), old2.stop()]);
          const stopMs = performance.now() - started;
          expect([old1.child.exitCode, old2.child.exitCode], old1.output() + old2.output()).toEqual([0, 0]);
          await until(
            'this build alone acknowledges pays',
            () => acknowledged() >= phase1 + phase2 + PER_PHASE,
          );
          await t.stop();
          const open = await t.settle(Date.now() + (STALE_PAYMENT_SECONDS + 12) * 1000);
          expect(open.map((p) => p.token)).toEqual([]);
          const phase3 = acknowledged() - phase1 - phase2;

          // This build replays every acknowledged payment with its own key: the same transaction.
          const replayed: string[] = [];
          const acked = t.payments.filter((p) => p.final);
          for (let i = 0; i < acked.length; i += 8) {
            await Promise.all(
              acked.slice(i, i + 8).map(async (p) => {
                const r = await payRequest(fresh.url, p.token, p.key, p.ip);
                const f = r.kind === 'answer' && r.status === 200 ? finalOf(r) : null;
                if (f?.transactionId !== p.final!.transactionId) {
                  replayed.push(`${p.token}: replay answered ${JSON.stringify(r).slice(0, 200)}`);
                }
              }),
            );
          }

          const db = await openPostgres({ url: database.url, poolSize: 2 });
          const findings = await checkInvariants(db, t.payments).finally(() => db.close());
          const failed = t.payments.flatMap((p) =>
            p.history
              .filter((r) => r.kind !== 'answer' || r.status !== 200)
              .map(
                (r) => `${p.token}: ${r.kind === 'answer' ? `${r.status} ${r.body.slice(0, 120)}` : r.error}`,
              ),
          );
          expect(t.errors).toEqual([]);
          expect(failed).toEqual([]);
          expect(findings.problems).toEqual([]);
          expect(replayed).toEqual([]);
          process.stdout.write(
            `rolling upgrade (PostgreSQL, ${CLIENTS} clients) from ${release.commit.slice(0, 10)} (${release.why}), ` +
              `applying ${release.newMigrations.join(', ')}${built.note ? `; ${built.note}` : ''}:\n` +
              `  ${t.payments.length} payments, ${findings.acknowledged} acknowledged (${phase1} previous release alone, ` +
              `${phase2} both, ${phase3} this build alone), ${findings.inDoubt} in doubt, ${failed.length} failed requests, ` +
              `0 lost, 0 double charges; ${acked.length} replayed by this build\n` +
              `  previous release ready in ${(oldReadyMs / 1000).toFixed(1)} s on an empty database, this build ` +
              `(migrating under traffic) in ${(newReadyMs / 1000).toFixed(1)} s; two old instances stopped in ` +
              `${(stopMs / 1000).toFixed(1)} s after a ${DRAIN_MS / 1000} s drain\n`,
          );
        } finally {
          await traffic?.stop();
          await Promise.all(servers.map((s) => s.kill9()));
          for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
          await database.drop();
        }
      },
    );
  },
);
