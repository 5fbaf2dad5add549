/**
 * A DATABASE_URL naming a private primary and its standby (server/db/postgres-hosts.ts), on real
 * PostgreSQL servers this test starts: which one a connection goes to, how the pool follows a
 * failover (the primary killed, the standby promoted) and a server turned read-only, and what the
 * health routes say meanwhile. How such a URL is read: server/db/postgres-hosts.test.ts.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, storageRefusalOf } from '../../server/db/database.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { registerHealthRoutes } from '../../server/http/health.ts';
import { PgServer, privateClusterSkipReason } from '../kit/pg-cluster.ts';

async function eventually<T>(what: string, fn: () => Promise<T>, attempts = 150): Promise<T> {
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      return await fn();
    } catch (err) {
      last = err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${what}: still failing: ${(last as Error).message}`);
}

describe.skipIf(privateClusterSkipReason !== null)(
  `a primary and its standby${privateClusterSkipReason ? ` (skipped: ${privateClusterSkipReason})` : ''}`,
  () => {
    let primary: PgServer;
    let standby: PgServer;
    let url: string;

    beforeAll(async () => {
      primary = await PgServer.create();
      await primary.start();
      standby = await PgServer.standbyOf(primary);
      await standby.start();
      // The standby first: only read-write makes the choice skip it.
      url = `postgres://postgres@127.0.0.1:${standby.port},127.0.0.1:${primary.port}/postgres`;
    }, 60_000);

    afterAll(async () => {
      await primary?.remove();
      await standby?.remove();
    });

    const inRecovery = async (db: Database) =>
      (await db.query<{ r: boolean }>('select pg_is_in_recovery() as r')).rows[0]?.r;

    it('goes to the first server that answers, and to one taking writes when asked', async () => {
      const any = await openPostgres({ url, poolSize: 1 });
      const readWrite = await openPostgres({ url: `${url}?target_session_attrs=read-write`, poolSize: 1 });
      try {
        expect(await inRecovery(any)).toBe(true);
        expect(await inRecovery(readWrite)).toBe(false);
      } finally {
        await any.close();
        await readWrite.close();
      }
    });

    it('follows a server turned read-only, and back', { timeout: 30_000 }, async () => {
      const db = await openPostgres({ url: `${url}?target_session_attrs=read-write`, poolSize: 1 });
      try {
        await db.exec('create table if not exists ro_probe (id int)');
        const pid = async () =>
          (await db.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
        const before = await pid();
        await primary.sql('alter system set default_transaction_read_only = on');
        await primary.sql('select pg_reload_conf()');
        // The pooled connection sees the setting at its next transaction: the write is refused...
        const refused = await eventually('a refusal', async () => {
          const err = await db
            .transaction((tx) => tx.query('insert into ro_probe values (1)'))
            .then(
              () => null,
              (e: unknown) => e,
            );
          if (!err) throw new Error('the write went through');
          return err;
        });
        expect(storageRefusalOf(refused)).toBe('read_only');
        // ...a new connection is refused the same way (no server takes writes), not "unavailable"...
        await expect(db.query('select 1')).rejects.toMatchObject({ code: '25006' });
        const app = Fastify();
        registerHealthRoutes(app, db, { shuttingDown: false });
        const ready = await app.inject('/readyz');
        expect(ready.statusCode).toBe(503);
        expect(ready.json()).toMatchObject({ database: { status: 'read_only' } });
        await primary.sql('alter system reset default_transaction_read_only');
        await primary.sql('select pg_reload_conf()');
        // ...and once writes come back, the pool takes them on a new connection.
        await eventually('a write', () =>
          db.transaction((tx) => tx.query('insert into ro_probe values (2)')),
        );
        expect(await pid()).not.toBe(before);
        expect((await app.inject('/readyz')).statusCode).toBe(200);
        await app.close();
      } finally {
        await db.close();
      }
    });

    it('reconnects to the promoted standby after the primary is killed', { timeout: 60_000 }, async () => {
      const db = await openPostgres({ url: `${url}?target_session_attrs=read-write`, poolSize: 2 });
      const heard: string[] = [];
      const listening: boolean[] = [];
      try {
        await db.exec('create table if not exists failover_probe (id int)');
        await db.listen!('failover_probe', {
          onNotify: (p) => heard.push(p),
          onListening: (l) => listening.push(l),
        });
        await primary.kill9();
        // Before the promotion the one server left answers read-only: once the connections to the
        // dead one are dropped, writes are refused as such.
        await eventually('a read-only refusal', async () => {
          const err = await db.query('insert into failover_probe values (1)').catch((e: unknown) => e);
          if (storageRefusalOf(err) !== 'read_only') throw new Error(String(err));
        });
        await standby.promote();
        await eventually('a write on the new primary', () =>
          db.query('insert into failover_probe values (2)'),
        );
        expect(await inRecovery(db)).toBe(false);
        const { rows } = await db.query<{ port: number }>('select inet_server_port() as port');
        expect(rows[0]?.port).toBe(standby.port);
        // The listening connection came back on its own, on the new primary.
        await eventually('listening again', async () => {
          if (listening.at(-1) !== true || listening.length < 3) throw new Error(listening.join());
        });
        await db.query("select pg_notify('failover_probe', 'after')");
        await eventually('the notification', async () => {
          if (!heard.includes('after')) throw new Error('not yet');
        });
      } finally {
        await db.close();
      }
    });
  },
);
