import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../test/kit/databases.ts';
import { type CountingDatabase, countingDatabase, listStatements } from './counting.ts';

for (const target of databaseTargets()) {
  describe(`counting database work on ${target.name}`, () => {
    let db: CountingDatabase;
    beforeAll(async () => {
      db = countingDatabase(await target.open({ migrate: false }), { sql: true });
      await db.exec('create table count_probe (id int primary key, note text)');
    });
    afterAll(async () => {
      await db.close();
    });
    beforeEach(() => db.reset());

    it('behaves as the database it wraps', async () => {
      expect(db.kind).toBe(target.name);
      await db.query('insert into count_probe values ($1, $2)', [1, 'one']);
      const { rows, rowCount } = await db.query<{ id: number; note: string }>(
        'select id, note from count_probe where id = $1',
        [1],
      );
      expect(rows).toEqual([{ id: 1, note: 'one' }]);
      expect(rowCount).toBe(1);
      const inside = await db.transaction(async (tx) => {
        await tx.query('update count_probe set note = $1 where id = 1', ['uno']);
        return (await tx.query<{ note: string }>('select note from count_probe where id = 1')).rows[0]?.note;
      });
      expect(inside).toBe('uno');
      await db.ping();
      await db.query('delete from count_probe');
    });

    it('counts each statement outside a transaction as one transaction (autocommit)', async () => {
      await db.query('select 1');
      await db.query('select $1::int as n', [2]);
      await db.exec('select 1; select 2');
      await db.ping();
      expect(db.snapshot()).toMatchObject({ statements: 4, transactions: 4, rollbacks: 0 });
    });

    it('counts a committed transaction once and every statement in it', async () => {
      await db.transaction(async (tx) => {
        await tx.query('insert into count_probe values (10, $1)', ['a']);
        await tx.query('insert into count_probe values (11, $1)', ['b']);
        await tx.exec('update count_probe set note = note where id >= 10');
      });
      expect(db.snapshot()).toMatchObject({ statements: 3, transactions: 1, rollbacks: 0 });
    });

    it('counts a transaction that throws, and a failing statement outside one, as rollbacks', async () => {
      await expect(
        db.transaction(async (tx) => {
          await tx.query('insert into count_probe values (20, $1)', ['rolled back']);
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      await expect(db.query('select * from no_such_table')).rejects.toMatchObject({ code: '42P01' });
      expect(db.snapshot()).toMatchObject({ statements: 2, transactions: 0, rollbacks: 2 });
      const { rows } = await db.query('select 1 from count_probe where id = 20');
      expect(rows).toHaveLength(0);
    });

    it('keeps the first 80 characters of each statement, with the transaction it ran in', async () => {
      await db.query(`select   1
        as n`);
      await db.transaction(async (tx) => {
        await tx.query(`select '${'x'.repeat(100)}' as long_one`);
      });
      await db.transaction(async (tx) => {
        await tx.query('select 2');
      });
      const { sql } = db.snapshot();
      expect(sql).toEqual([
        { sql: 'select 1 as n', transaction: null },
        { sql: `select '${'x'.repeat(72)}`, transaction: 1 },
        { sql: 'select 2', transaction: 2 },
      ]);
    });

    it('reset starts the counts again; snapshot is a copy', async () => {
      await db.query('select 1');
      const before = db.snapshot();
      db.reset();
      await db.query('select 2');
      expect(before).toMatchObject({ statements: 1, transactions: 1 });
      expect(before.sql).toHaveLength(1);
      expect(db.snapshot()).toMatchObject({ statements: 1, transactions: 1, sql: [{ sql: 'select 2' }] });
    });

    it('measures the work of one function, and lists its statements', async () => {
      await db.query('select 1');
      const work = await db.measure(async () => {
        await db.query('select 2');
        await db.transaction(async (tx) => {
          await tx.query('select 3');
        });
      });
      expect(work).toEqual({
        statements: 2,
        transactions: 2,
        rollbacks: 0,
        sql: [
          { sql: 'select 2', transaction: null },
          { sql: 'select 3', transaction: 1 },
        ],
      });
      expect(listStatements(work.sql)).toBe('auto  select 2\ntx 1  select 3');
      expect(db.snapshot().statements).toBe(3);
    });

    it('counts statements of transactions running side by side', async () => {
      await Promise.all(
        [30, 31, 32].map((id) =>
          db.transaction(async (tx) => {
            await tx.query('insert into count_probe values ($1, $2)', [id, 'side by side']);
            await tx.query('select count(*) from count_probe');
          }),
        ),
      );
      expect(db.snapshot()).toMatchObject({ statements: 6, transactions: 3, rollbacks: 0 });
    });
  });
}
