/**
 * Reading a PostgreSQL database's work from the outside, for benchmarks: its transaction count in
 * pg_stat_database and the CPU of the backends serving it. Read through a connection to another
 * database, so the reading adds nothing to what it reads.
 */
import pg from 'pg';
import { cpuSeconds } from './payframe-servers.ts';

/** Commits + rollbacks of `dbName` so far, as flushed to the statistics (PostgreSQL 15: see the bench). */
export async function readTransactions(admin: pg.Client, dbName: string): Promise<number> {
  await admin.query('select pg_stat_clear_snapshot()');
  const { rows } = await admin.query<{ n: string }>(
    'select xact_commit + xact_rollback as n from pg_stat_database where datname = $1',
    [dbName],
  );
  return Number(rows[0]!.n);
}

/** Autovacuum's transactions are the database's, not Payframe's: off on this throwaway database. */
export async function quietAutovacuum(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ t: string }>(
      "select format('%I.%I', schemaname, tablename) as t from pg_tables where schemaname = 'public'",
    );
    for (const { t } of rows) await c.query(`alter table ${t} set (autovacuum_enabled = false)`);
  } finally {
    await c.end();
  }
}

/** CPU seconds so far of each backend connected to `dbName`, by pid. */
export async function backendCpu(admin: pg.Client, dbName: string): Promise<Map<number, number>> {
  const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [
    dbName,
  ]);
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      out.set(pid, cpuSeconds(pid));
    } catch {
      // gone, or not on this machine
    }
  }
  return out;
}
