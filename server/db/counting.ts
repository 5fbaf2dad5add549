/**
 * A storage port that counts the work it is given (issue 12: "transactions per create / load / pay";
 * bench/transactions.bench.ts, server/checkout/budgets.test.ts). It behaves exactly as the database
 * it wraps and counts as the database would:
 *
 *   statements    every query and exec, inside a transaction or not (an exec script is one);
 *   transactions  commits: each `transaction()` that resolved, and each statement outside one that
 *                 succeeded (autocommit: one transaction per statement, as PostgreSQL counts it in
 *                 pg_stat_database.xact_commit, read-only ones included);
 *   rollbacks     each `transaction()` that threw, and each statement outside one that failed
 *                 (xact_rollback).
 *
 * A PostgreSQL transaction retried after a serialization failure (postgres.ts) counts once, but the
 * statements of every attempt count: they reached the server. `ping()` counts as one statement.
 */
import type { Database, QueryResult, Transaction } from './database.ts';

/** One statement as it reached the database, for finding where the work goes. */
export interface StatementRecord {
  /** The first 80 characters of the SQL, whitespace collapsed. */
  sql: string;
  /** Which `transaction()` call it ran in (numbered from 1 since the last reset); null: autocommit. */
  transaction: number | null;
}

export interface DatabaseWork {
  statements: number;
  transactions: number;
  rollbacks: number;
  /** Each statement in the order issued; empty unless the database was made with `{ sql: true }`. */
  sql: StatementRecord[];
}

export interface CountingDatabase extends Database {
  /** The work since the last reset (a copy). */
  snapshot(): DatabaseWork;
  reset(): void;
  /**
   * The work done while `fn` ran (tests: one operation's cost). Anything else using the database at
   * the same time is counted too, so measure with nothing else running.
   */
  measure(fn: () => Promise<unknown>): Promise<DatabaseWork>;
}

export interface CountingOptions {
  /** Keep each statement's text (first 80 characters) in `snapshot().sql`. */
  sql?: boolean;
}

const SQL_CHARS = 80;

export function countingDatabase(db: Database, options: CountingOptions = {}): CountingDatabase {
  let work: DatabaseWork = { statements: 0, transactions: 0, rollbacks: 0, sql: [] };
  let transactionsStarted = 0;

  const note = (sql: string, transaction: number | null) => {
    work.statements++;
    if (options.sql) {
      work.sql.push({ sql: sql.replace(/\s+/g, ' ').trim().slice(0, SQL_CHARS), transaction });
    }
  };

  /** A statement outside any transaction: its own commit, or its own rollback when it fails. */
  async function autocommit<T>(sql: string, run: () => Promise<T>): Promise<T> {
    note(sql, null);
    try {
      const result = await run();
      work.transactions++;
      return result;
    } catch (err) {
      work.rollbacks++;
      throw err;
    }
  }

  /** The handle a transaction's function gets: its statements count, its commit counts once. */
  function inTransaction(tx: Transaction, n: number): Transaction {
    return {
      query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]) {
        note(sql, n);
        return tx.query<Row>(sql, params);
      },
      queryAndCommit<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]) {
        note(sql, n);
        return tx.queryAndCommit<Row>(sql, params);
      },
      exec(sql: string) {
        note(sql, n);
        return tx.exec(sql);
      },
    };
  }

  return {
    kind: db.kind,
    ...(db.schema ? { schema: db.schema } : {}),
    query<Row = Record<string, unknown>>(
      sql: string,
      params?: readonly unknown[],
    ): Promise<QueryResult<Row>> {
      return autocommit(sql, () => db.query<Row>(sql, params));
    },
    exec(sql: string) {
      return autocommit(sql, () => db.exec(sql));
    },
    async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
      const n = ++transactionsStarted;
      // Counted against the work current when it ends: a reset during it does not lose the commit.
      try {
        const result = await db.transaction((tx) => fn(inTransaction(tx, n)));
        work.transactions++;
        return result;
      } catch (err) {
        work.rollbacks++;
        throw err;
      }
    },
    ping() {
      return autocommit('select 1 -- ping', () => db.ping());
    },
    // Listening is not a statement: its connection is the database's own business.
    ...(db.listen ? { listen: db.listen.bind(db) } : {}),
    close: () => db.close(),
    snapshot: () => ({ ...work, sql: [...work.sql] }),
    reset() {
      work = { statements: 0, transactions: 0, rollbacks: 0, sql: [] };
      transactionsStarted = 0;
    },
    async measure(fn) {
      const start = { ...work, sql: work.sql.length };
      const counted = work;
      await fn();
      if (work !== counted) throw new Error('The counts were reset during measure().');
      return {
        statements: work.statements - start.statements,
        transactions: work.transactions - start.transactions,
        rollbacks: work.rollbacks - start.rollbacks,
        sql: work.sql.slice(start.sql),
      };
    },
  };
}

/** Statements one per line, marked with their transaction (`tx 3`) or `auto`: for a failure's message. */
export function listStatements(sql: readonly StatementRecord[]): string {
  return sql
    .map((s) => `${s.transaction === null ? 'auto ' : `tx ${String(s.transaction).padEnd(2)}`} ${s.sql}`)
    .join('\n');
}
