/**
 * A database that answers but refuses writes (issue 19 §6): read-only, as a standby is after a
 * failover. A pay answers 503 with Retry-After and nothing is recorded or acknowledged; `/readyz`
 * answers 503 and says why; once writes come back the instance is ready again and the same
 * Idempotency-Key pays, once. On PGlite the one session is set read-only; on PostgreSQL the
 * database is, and its connections are cut, as a failover cuts them.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../config.ts';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { openPglite } from '../db/pglite.ts';
import { openPostgres } from '../db/postgres.ts';
import { adminQuery, freshDatabase, tempDir } from '../../test/kit/databases.ts';
import {
  cardBody,
  type CheckoutWorld,
  createSession,
  openCheckoutWorld,
  pay,
} from '../../test/kit/checkout/checkout-world.ts';

interface ReadOnlyTarget {
  name: string;
  db: Database;
  setReadOnly(on: boolean): Promise<void>;
  dispose(): Promise<void>;
}

async function pgliteTarget(): Promise<ReadOnlyTarget> {
  const db = await openPglite(tempDir());
  await migrate(db);
  return {
    name: 'pglite',
    db,
    // PGlite is one session: the setting applies to every transaction from now on.
    setReadOnly: (on) => db.exec(`set default_transaction_read_only = ${on ? 'on' : 'off'}`),
    dispose: () => db.close(), // closing twice is allowed
  };
}

async function postgresTarget(url: string): Promise<ReadOnlyTarget> {
  const fresh = await freshDatabase(url, 'payframe_ro');
  const db = await openPostgres({ url: fresh.url, poolSize: 4 });
  await migrate(db);
  return {
    name: 'postgres',
    db,
    async setReadOnly(on) {
      await adminQuery(
        url,
        `alter database ${fresh.name} set default_transaction_read_only = ${on ? 'on' : 'off'}`,
      );
      // New connections take the setting: cut the pool's, as a failover does.
      await adminQuery(
        url,
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${fresh.name}' and pid <> pg_backend_pid()`,
      );
    },
    async dispose() {
      await db.close().catch(() => {}); // closed with the world already
      await fresh.drop();
    },
  };
}

const url = testDatabaseUrl();
const targets: (() => Promise<ReadOnlyTarget>)[] = [
  pgliteTarget,
  ...(url ? [() => postgresTarget(url)] : []),
];

describe.each(targets.map((open, i) => ({ name: i === 0 ? 'pglite' : 'postgres', open })))(
  'writes refused ($name)',
  ({ open }) => {
    let target: ReadOnlyTarget;
    let w: CheckoutWorld;
    beforeAll(async () => {
      target = await open();
      w = await openCheckoutWorld(target.db);
    });
    afterAll(async () => {
      await w?.close().catch(() => {});
      await target?.dispose();
    });

    /** Asks until the pool's connections cut by a failover are replaced (PostgreSQL). */
    async function answer<R extends { statusCode: number }>(
      fn: () => Promise<R>,
      expected: number,
    ): Promise<R> {
      let last = await fn();
      for (let i = 0; i < 20 && last.statusCode !== expected; i++) {
        await new Promise((r) => setTimeout(r, 200));
        last = await fn();
      }
      return last;
    }

    it('a pay answers 503 with Retry-After, nothing is recorded, /readyz says why; then it pays once', async () => {
      const token = await createSession(w);
      const key = crypto.randomUUID();
      await target.setReadOnly(true);

      const refused = await answer(() => pay(w.app, token, cardBody(), { key }), 503);
      expect(refused.statusCode, refused.body).toBe(503);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refused.json().error.code).toBe('database_unavailable');

      const ready = await w.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().database).toMatchObject({ status: 'read_only' });
      expect(ready.json().database.reason).toMatch(/no writes/);

      await target.setReadOnly(false);
      const back = await answer(() => w.app.inject({ method: 'GET', url: '/readyz' }), 200);
      expect(back.statusCode, back.body).toBe(200);

      const { rows: before } = await w.db.query<{ n: string }>(
        `select count(*) as n from transactions t join checkout_sessions s on s.id = t.checkout_session_id
         where s.token = $1`,
        [token],
      );
      expect(before[0]!.n).toBe('0');

      const paid = await answer(() => pay(w.app, token, cardBody(), { key }), 200);
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json().status).toBe('succeeded');
      const { rows } = await w.db.query<{ n: string }>(
        `select count(*) as n from transactions t join checkout_sessions s on s.id = t.checkout_session_id
         where s.token = $1 and t.status = 'approved'`,
        [token],
      );
      expect(rows[0]!.n).toBe('1');
    }, 60_000);
  },
);
