/**
 * The storage port (DESIGN.md §4): one SQL dialect, PostgreSQL, on two drivers — the embedded PGlite
 * (default, in DATA_DIR) and a `pg` pool (DATABASE_URL). Both satisfy this small interface, so every
 * repository runs unchanged on either.
 *
 * Value conventions on both drivers: bigint/int8 and numeric come back as strings (ids and money are
 * never floats, DESIGN.md §3), timestamptz as Date, json/jsonb parsed.
 */

export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/**
 * The handle a transaction's function gets. Statements it issues without waiting in between are
 * pipelined (sent together, answered in order); `queryAndCommit` sends the transaction's last
 * statement with its COMMIT, one round trip for both.
 */
export interface Transaction extends Queryable {
  /**
   * Runs `sql` as the transaction's last statement and commits: resolves to its result once both
   * are answered. When the statement fails the transaction is rolled back and its error thrown;
   * the transaction is over either way, so nothing may be issued after it.
   */
  queryAndCommit<Row = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<QueryResult<Row>>;
}

/**
 * A statement that ends what `q` runs: with its COMMIT when `q` is a transaction (one round trip
 * for both), else on its own; the caller issues nothing on `q` after it. With `isLast` false, a
 * plain statement of `q` (for callers whose statement is the last only sometimes).
 */
export function lastStatement(q: Queryable, isLast = true): Queryable['query'] {
  if (isLast && 'queryAndCommit' in q) {
    const tx = q as Transaction;
    return (sql, params) => tx.queryAndCommit(sql, params);
  }
  return (sql, params) => q.query(sql, params);
}

/**
 * What a subscriber to a notification channel (PostgreSQL `LISTEN`) is told. `onListening(false)`
 * means notifications may be lost from now on (the listening connection dropped); `true` that
 * they flow again — anything may have changed in between, so a cache drops what it holds on both.
 */
export interface ChannelListener {
  onNotify(payload: string): void;
  onListening(listening: boolean): void;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** The schema Payframe's tables are in (`public` unless configured); notifications name it. */
  readonly schema?: string;
  /**
   * Subscribes to a notification channel (`NOTIFY`, `pg_notify`, sent by this or any other
   * instance on the database, delivered after the sender's commit). Resolves once listening
   * (`onListening(true)` has been called) to a function that unsubscribes; closing the database
   * ends every subscription. Optional: a database without it offers no notifications.
   */
  listen?(channel: string, listener: ChannelListener): Promise<() => Promise<void>>;
  /**
   * Runs `fn` in one transaction: committed when it resolves (or by its `queryAndCommit`), rolled
   * back when it throws.
   * On PostgreSQL, a serialization failure or deadlock is retried a few times (the function must be
   * safe to run again); on PGlite transactions run one at a time, so neither can happen.
   */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * A consistent copy of the whole database (the embedded one only: a tar of its data directory,
   * as `restorePglite` loads it). Taken between transactions, after a checkpoint;
   * statements wait while it is written. A database without it is backed up with its own tools.
   */
  backupCopy?(): Promise<Blob>;
  /**
   * Takes the session-level advisory lock named `name` on a connection of its own and holds it
   * while the process lives (PostgreSQL); resolves to a function that gives it up, or to null when
   * another live session holds it. Should the connection drop, the lock is gone: `onLost` is told.
   * Optional: a database only one process opens (PGlite) has no need of it.
   */
  holdLock?(name: string, onLost: (err: unknown) => void): Promise<(() => Promise<void>) | null>;
  /** A cheap round trip, for /healthz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Thrown when the database cannot be reached; the HTTP layer answers 503 with a retry hint. */
export class DatabaseUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseUnavailableError';
  }
}

/** PostgreSQL SQLSTATEs and errno codes that mean "the server is not there", not "your SQL is wrong". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300', // too_many_connections
]);

/**
 * Why the database refused a write although it answered (issue 19 §6): read-only (a standby after a
 * failover, `default_transaction_read_only`), its disk full, an I/O error, out of resources.
 */
export type StorageRefusal = 'read_only' | 'disk_full' | 'io_error' | 'out_of_resources';

const REFUSALS: Record<string, StorageRefusal> = {
  '25006': 'read_only', // read_only_sql_transaction
  EROFS: 'read_only',
  '53100': 'disk_full',
  ENOSPC: 'disk_full',
  '58030': 'io_error',
  EIO: 'io_error',
  '53000': 'out_of_resources', // insufficient_resources
  '53200': 'out_of_resources', // out_of_memory
};

/** The refusal an error reports, or null. */
export function storageRefusalOf(err: unknown): StorageRefusal | null {
  if (typeof err !== 'object' || err === null) return null;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && Object.hasOwn(REFUSALS, code) ? REFUSALS[code]! : null;
}

/**
 * The database is not there, or refuses writes for now: the caller answers 503 with a retry hint,
 * and whatever the request was doing is not acknowledged.
 */
export function isUnavailableError(err: unknown): boolean {
  if (err instanceof DatabaseUnavailableError) return true;
  if (storageRefusalOf(err)) return true;
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  const message = (err as { message?: unknown }).message;
  return (
    typeof message === 'string' &&
    /Connection terminated|connection timeout|Client has encountered a connection error|terminating connection/i.test(
      message,
    )
  );
}
