/**
 * Round trips of a transaction on PostgreSQL, counted on the wire: a TCP relay between the pool and
 * the server notes each time the client speaks again after the server has answered (a "turn"; what
 * the client sends before the answer arrives is the same turn). BEGIN travels with the transaction's
 * first statement, so n statements cost n + 1 turns (the last is COMMIT), not n + 2; statements
 * issued together share a turn, and `queryAndCommit` sends COMMIT with the last statement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../config.ts';
import type { Database } from './database.ts';
import { openPostgres } from './postgres.ts';
import { type Relay, viaRelay, wireRelay } from '../../test/kit/db/wire-relay.ts';

const url = testDatabaseUrl();

describe.skipIf(!url)(
  `round trips of a transaction (PostgreSQL)${url ? '' : ' (skipped: TEST_DATABASE_URL is not set)'}`,
  () => {
    let wire: Relay;
    let db: Database;

    beforeAll(async () => {
      const target = new URL(url!);
      wire = await wireRelay(target);
      db = await openPostgres({ url: viaRelay(url!, wire), poolSize: 1 });
    });
    afterAll(async () => {
      await db?.close();
      await wire?.close();
    });

    it('one statement alone is one turn', async () => {
      wire.reset();
      await db.query('select $1::int as n', [1]);
      expect(wire.turns()).toBe(1);
    });

    it('BEGIN goes with the first statement: two statements, three turns', async () => {
      wire.reset();
      const rows = await db.transaction(async (tx) => {
        const a = await tx.query<{ n: number }>('select $1::int as n', [1]);
        const b = await tx.query<{ n: number }>('select $1::int + 1 as n', [a.rows[0]!.n]);
        return b.rows;
      });
      expect(rows).toEqual([{ n: 2 }]);
      expect(wire.turns()).toBe(3);
    });

    it('a failing first statement rolls the transaction back and leaves the connection usable', async () => {
      await expect(
        db.transaction(async (tx) => {
          await tx.query('select 1 / 0');
        }),
      ).rejects.toMatchObject({ code: '22012' });
      const { rows } = await db.query<{ open: boolean }>(
        `select pg_current_xact_id_if_assigned() is null and now() = statement_timestamp() as open`,
      );
      expect(rows).toEqual([{ open: true }]);
    });

    it('what the transaction wrote is there after it, and nothing of a rolled back one', async () => {
      await db.exec('create temporary table pipeline_probe (id int primary key)');
      await db.transaction(async (tx) => {
        await tx.query('insert into pipeline_probe values ($1)', [1]);
      });
      await expect(
        db.transaction(async (tx) => {
          await tx.query('insert into pipeline_probe values ($1)', [2]);
          await tx.query('insert into pipeline_probe values ($1)', [1]);
        }),
      ).rejects.toMatchObject({ code: '23505' });
      const { rows } = await db.query<{ id: number }>('select id from pipeline_probe order by id');
      expect(rows).toEqual([{ id: 1 }]);
    });

    it('statements issued together share one turn, and queryAndCommit brings COMMIT along', async () => {
      await db.exec('create temporary table pipeline_batch (id int primary key)');
      wire.reset();
      const ids = await db.transaction(async (tx) => {
        const [a, b] = await Promise.all([
          tx.query<{ id: number }>('insert into pipeline_batch values ($1) returning id', [1]),
          tx.query<{ id: number }>('insert into pipeline_batch values ($1) returning id', [2]),
        ]);
        const c = await tx.queryAndCommit<{ id: number }>(
          'insert into pipeline_batch values ($1) returning id',
          [a.rows[0]!.id + b.rows[0]!.id],
        );
        return c.rows.map((r) => r.id);
      });
      expect(ids).toEqual([3]);
      expect(wire.turns()).toBe(2); // BEGIN + two inserts; the third insert + COMMIT
      const { rows } = await db.query<{ id: number }>('select id from pipeline_batch order by id');
      expect(rows).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    });

    it('a failing statement sent with COMMIT rolls back the whole transaction', async () => {
      await db.exec('create temporary table pipeline_last (id int primary key)');
      await expect(
        db.transaction(async (tx) => {
          await tx.query('insert into pipeline_last values ($1)', [1]);
          await tx.queryAndCommit('insert into pipeline_last values ($1)', [1]);
        }),
      ).rejects.toMatchObject({ code: '23505' });
      const { rows } = await db.query('select id from pipeline_last');
      expect(rows).toEqual([]);
      // The connection is usable and outside any transaction.
      const open = await db.query<{ open: boolean }>(
        `select pg_current_xact_id_if_assigned() is null and now() = statement_timestamp() as open`,
      );
      expect(open.rows).toEqual([{ open: true }]);
    });
  },
);
