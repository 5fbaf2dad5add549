import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../test/kit/databases.ts';
import type { Database } from './database.ts';
import { listMigrations, migrate } from './migrate.ts';

for (const target of databaseTargets()) {
  describe(`storage on ${target.name}`, () => {
    let db: Database;
    beforeAll(async () => {
      db = await target.open();
    });
    afterAll(async () => {
      await db.close();
    });

    it('records every migration once, and a second run applies nothing', async () => {
      const { rows } = await db.query<{ version: string }>(
        'select version from schema_migrations order by version',
      );
      expect(rows.map((r) => r.version)).toEqual(listMigrations().map((m) => m.version));
      expect(await migrate(db)).toEqual([]);
    });

    it('returns bigint and numeric exactly, as strings, and timestamptz as Date', async () => {
      const { rows } = await db.query<{ big: string; money: string; at: Date }>(
        'select 9007199254740993::bigint as big, 10.50::numeric(12,2) as money, now() as at',
      );
      expect(rows[0]).toMatchObject({ big: '9007199254740993', money: '10.50' });
      expect(rows[0]?.at).toBeInstanceOf(Date);
    });

    it('commits a transaction that resolves and rolls back one that throws', async () => {
      await db.exec('create table tx_probe (id int primary key)');
      await db.transaction(async (tx) => {
        await tx.query('insert into tx_probe values (1)');
      });
      await expect(
        db.transaction(async (tx) => {
          await tx.query('insert into tx_probe values (2)');
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      const { rows } = await db.query<{ id: number }>('select id from tx_probe order by id');
      expect(rows).toEqual([{ id: 1 }]);
    });

    it('queryAndCommit ends the transaction with its statement, or rolls it all back when it fails', async () => {
      await db.exec('create table last_probe (id int primary key)');
      const ids = await db.transaction(async (tx) => {
        const [a, b] = await Promise.all([
          tx.query<{ id: number }>('insert into last_probe values ($1) returning id', [1]),
          tx.query<{ id: number }>('insert into last_probe values ($1) returning id', [2]),
        ]);
        const { rows } = await tx.queryAndCommit<{ id: number }>(
          'insert into last_probe values ($1) returning id',
          [a.rows[0]!.id + b.rows[0]!.id],
        );
        await expect(tx.query('select 1')).rejects.toThrow(); // the transaction is over
        return rows.map((r) => r.id);
      });
      expect(ids).toEqual([3]);
      await expect(
        db.transaction(async (tx) => {
          await tx.query('insert into last_probe values (4)');
          await tx.queryAndCommit('insert into last_probe values (1)');
        }),
      ).rejects.toMatchObject({ code: '23505' });
      // Statements sent together run inside the transaction: all rolled back with it.
      await expect(
        db.transaction(async (tx) => {
          await Promise.all([
            tx.query('insert into last_probe values (5)'),
            tx.query('insert into last_probe values (6)'),
          ]);
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      const { rows } = await db.query<{ id: number }>('select id from last_probe order by id');
      expect(rows).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    });

    it('enforces unique constraints inside concurrent transactions: exactly one wins', async () => {
      await db.exec('create table once_probe (k text primary key)');
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, () =>
          db.transaction(async (tx) => {
            await tx.query("insert into once_probe values ('same')");
          }),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const { rows } = await db.query('select * from once_probe');
      expect(rows).toHaveLength(1);
    });

    it('reports query errors with their SQLSTATE', async () => {
      await expect(db.query('select * from no_such_table')).rejects.toMatchObject({ code: '42P01' });
    });
  });
}
