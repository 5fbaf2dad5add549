/**
 * The embedded database: PGlite (PostgreSQL compiled to WASM) persisted in DATA_DIR/pglite.
 * A lock file keeps a second process from opening the same directory, which would corrupt it;
 * a lock left by a killed process (kill -9) is taken over.
 */
import fs from 'node:fs';
import path from 'node:path';
import { messages as wire, PGlite, parse, protocol, types } from '@electric-sql/pglite';
import pgUtils from 'pg/lib/utils.js';
import type { Database, QueryResult, Transaction } from './database.ts';

const PARSERS = {
  [types.INT8]: (v: string) => v,
  [types.NUMERIC]: (v: string) => v,
};

export class DataDirLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `DATA_DIR ${dir} is in use by another Payframe process (pid ${pid}). ` +
        'Stop it, or set DATA_DIR to another directory, or use PostgreSQL (DATABASE_URL) to run several instances.',
    );
    this.name = 'DataDirLockedError';
  }
}

/** Whether a process with this pid runs on this host (one of another user's counts). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The live process other than this one holding `dir`'s lock, or null (no lock, or its process is
 * gone: the next open takes it over).
 */
export function lockHolder(dir: string): number | null {
  let holder: number;
  try {
    holder = Number.parseInt(fs.readFileSync(path.join(dir, 'pglite.lock'), 'utf8'), 10);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return Number.isInteger(holder) && holder !== process.pid && processAlive(holder) ? holder : null;
}

function acquireLock(dir: string): () => void {
  const lockPath = path.join(dir, 'pglite.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx', mode: 0o600 });
      return () => fs.rmSync(lockPath, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number.parseInt(fs.readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && processAlive(holder)) {
        throw new DataDirLockedError(dir, holder);
      }
      fs.rmSync(lockPath, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`Could not lock ${lockPath}`);
}

const { serialize } = protocol;

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** How many statement texts are kept prepared; past it, statements are parsed on each use. */
const PREPARED_MAX = 1000;

/** The first error a call answered, as PGlite's own methods throw it. */
function errorIn(messages: readonly wire.BackendMessage[]): Error | undefined {
  return messages.find((m): m is wire.DatabaseError => m instanceof wire.DatabaseError);
}

/**
 * Statements go to PGlite as the PostgreSQL wire protocol, each in one call into the WASM module:
 * Bind, Describe, Execute and Sync in one buffer, after a Parse the first time a statement's text is
 * seen (and a transaction's BEGIN in front of its first statement). PGlite's own `query` makes six
 * calls for one statement — Parse, a Describe of the statement to learn its parameters' types, Bind,
 * Describe, Execute, Sync — and `transaction` two for each of BEGIN and COMMIT; each call runs
 * PostgreSQL's main loop, and each Parse parses, analyses and plans the statement again inside the
 * WASM module. That was most of what a pay cost the embedded database (bench/README.md, issue 12).
 *
 * Prepared statements, by name, for each statement text (Payframe's SQL is fixed text with
 * parameters, so the set is small; PREPARED_MAX bounds it): PostgreSQL keeps a prepared statement's
 * parse tree and, after a few runs, a generic plan. PGlite is one session in one process and its
 * migrations run before anything else, so a prepared statement never outlives the schema it was made
 * for; `exec` (scripts: migrations, tests' DDL) forgets them all to be sure. (Not on the PostgreSQL
 * server: there another instance may migrate the schema under a running one's prepared statements.)
 *
 * Parameters are converted as node-postgres converts them for the PostgreSQL server (`pg`'s
 * `prepareValue`: text, Buffers binary, Dates with their offset, arrays as array literals, other
 * objects as JSON), and the server infers their types, so the same statement with the same values
 * means the same on both drivers. Errors are PGlite's `DatabaseError` (`code`, `detail`, …), as
 * before. PGlite runs one thing at a time; its two locks are taken as its own methods take them:
 * the transaction lock for a statement outside a transaction (held for a whole transaction), the
 * query lock for each call.
 */
class Session {
  /** Statement text → the name it is prepared under. */
  readonly #prepared = new Map<string, string>();
  #named = 0;

  constructor(private readonly pg: PGlite) {}

  /**
   * `prefix`: protocol messages sent before the statement in the same call (a BEGIN); `commit`: a
   * COMMIT sent after it in the same call, and written to the file system.
   */
  async run<Row>(
    sql: string,
    params: readonly unknown[],
    prefix: Uint8Array | null,
    sync: boolean,
    commit = false,
  ): Promise<QueryResult<Row>> {
    const values = params.map((p) => pgUtils.prepareValue(p));
    const messages = await this.pg._runExclusiveQuery(async () => {
      let name = this.#prepared.get(sql);
      const parts: Uint8Array[] = prefix ? [prefix] : [];
      let parsing: string | null = null;
      if (name === undefined) {
        name = this.#prepared.size < PREPARED_MAX ? `payframe_${++this.#named}` : '';
        parts.push(serialize.parse({ text: sql, name }));
        if (name) parsing = name;
      }
      parts.push(
        serialize.bind({ statement: name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      );
      if (commit) parts.push(COMMIT);
      const answer = await this.pg.execProtocolStream(concat(parts), {
        syncToFs: sync || commit,
        throwOnError: false,
      });
      // Prepared once its Parse is answered, whatever the statement did when it ran.
      if (parsing && answer.some((m) => m.name === 'parseComplete')) this.#prepared.set(sql, parsing);
      return answer;
    });
    const error = errorIn(messages);
    if (error) throw error; // with a COMMIT after it, that answered ROLLBACK: the transaction is over
    // A BEGIN in front has a result of its own, and so has a COMMIT after: the statement's is the
    // last but the COMMIT's. The instance's parsers already hold PARSERS (PGlite.create): passing
    // them again as an option would copy the whole table of parsers, several hundred types, for
    // every statement.
    const results = parse.parseResults(messages, this.pg.parsers);
    if (commit && results.at(-1)?.command === 'ROLLBACK') throw rolledBack();
    const result = results.at(commit ? -2 : -1)!;
    // PGlite reports affectedRows 0 for a SELECT; pg's rowCount counts the rows returned.
    return { rows: result.rows as Row[], rowCount: Math.max(result.rows.length, result.affectedRows ?? 0) };
  }

  /**
   * A simple-protocol script (several statements, no parameters), in one call; resolves to the last
   * statement's command. `ddl`: it may change the schema, so prepared statements are dropped first.
   */
  async script(
    sql: string,
    prefix: Uint8Array | null,
    sync: boolean,
    ddl: boolean,
  ): Promise<string | undefined> {
    const messages = await this.pg._runExclusiveQuery(() => {
      const parts: Uint8Array[] = prefix ? [prefix] : [];
      if (ddl && this.#prepared.size > 0) {
        this.#prepared.clear();
        parts.push(serialize.query('DEALLOCATE ALL'));
      }
      parts.push(serialize.query(sql));
      return this.pg.execProtocolStream(concat(parts), { syncToFs: sync });
    });
    return parse.parseResults(messages, this.pg.parsers).at(-1)?.command;
  }
}

const BEGIN = serialize.query('BEGIN');
const COMMIT = serialize.query('COMMIT');

/** COMMIT answered ROLLBACK: a statement of the transaction failed and its error was caught. */
function rolledBack(): Error {
  return new Error('The transaction was rolled back: a statement in it failed');
}

/** One transaction: BEGIN travels with its first statement; nothing is sent for one that runs none. */
async function inTransaction<T>(session: Session, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  let begun = false;
  let closed = false;
  /** The BEGIN to send with the next statement, if none has gone yet. */
  const prefix = () => {
    if (closed) throw new Error('Transaction is closed');
    if (begun) return null;
    begun = true;
    return BEGIN;
  };
  const tx: Transaction = {
    query: async <Row>(sql: string, params: readonly unknown[] = []) =>
      session.run<Row>(sql, params, prefix(), false),
    async queryAndCommit<Row>(sql: string, params: readonly unknown[] = []) {
      const begin = prefix();
      closed = true; // over, whatever the statement answers: its failure rolls it back
      return session.run<Row>(sql, params, begin, false, true);
    },
    async exec(sql: string) {
      await session.script(sql, prefix(), false, true);
    },
  };
  let result: T;
  try {
    result = await fn(tx);
  } catch (err) {
    const open = begun && !closed;
    closed = true;
    if (open) await session.script('ROLLBACK', null, true, false);
    throw err;
  }
  if (closed) return result; // committed by queryAndCommit
  closed = true;
  // COMMIT ends the transaction whatever it answers, so nothing is rolled back after it.
  if (begun && (await session.script('COMMIT', null, true, false)) === 'ROLLBACK') throw rolledBack();
  return result;
}

/** The database's directory in DATA_DIR. */
export function pgliteDirectory(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

/** Opens (creating on first use) the PGlite database in `dataDir`; `null` keeps it in memory. */
export async function openPglite(dataDir: string | null): Promise<Database> {
  return open(dataDir, null);
}

/**
 * Loads a snapshot (`Database.backupCopy`, `payframe backup`) into `dataDir`, which must hold no
 * database yet, and opens it.
 */
export async function restorePglite(dataDir: string, snapshot: Blob): Promise<Database> {
  if (fs.existsSync(path.join(pgliteDirectory(dataDir), 'PG_VERSION'))) {
    throw new Error(`${dataDir} already holds a database: restore into an empty DATA_DIR.`);
  }
  return open(dataDir, snapshot);
}

async function open(dataDir: string | null, snapshot: Blob | null): Promise<Database> {
  let release = () => {};
  let pg: PGlite;
  if (dataDir === null) {
    pg = await PGlite.create({ parsers: PARSERS });
  } else {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    release = acquireLock(dataDir);
    try {
      pg = await PGlite.create({
        dataDir: pgliteDirectory(dataDir),
        parsers: PARSERS,
        ...(snapshot ? { loadDataDir: snapshot } : {}),
      });
    } catch (err) {
      // A snapshot loaded half-way is not a database: removed while the lock is still held.
      if (snapshot) fs.rmSync(pgliteDirectory(dataDir), { recursive: true, force: true });
      release();
      throw err;
    }
  }
  const session = new Session(pg);
  let closed = false;
  return {
    kind: 'pglite',
    schema: 'public',
    query: <Row>(sql: string, params: readonly unknown[] = []) =>
      pg._runExclusiveTransaction(() => session.run<Row>(sql, params, null, true)),
    async exec(sql: string) {
      await pg._runExclusiveTransaction(() => session.script(sql, null, true, true));
    },
    // PGlite runs one transaction at a time: other queries wait for it, so there is nothing to retry.
    transaction: (fn) => pg._runExclusiveTransaction(() => inTransaction(session, fn)),
    // No transaction is open while it is taken (the transaction lock), and the checkpoint writes
    // every change to the data files, so the copy needs no recovery when it is loaded. Statements
    // wait meanwhile: the tar is not compressed here, the caller does it after.
    backupCopy: () =>
      pg._runExclusiveTransaction(async () => {
        await session.script('CHECKPOINT', null, true, false);
        return pg.dumpDataDir('none');
      }),
    async ping() {
      await pg.query('select 1');
    },
    // One process, one connection: a notification is delivered when the statement (or the
    // transaction) that sent it has finished, before its caller continues.
    async listen(channel, listener) {
      const unlisten = await pg.listen(channel, (payload) => listener.onNotify(payload));
      listener.onListening(true);
      return async () => {
        if (closed) return;
        await unlisten();
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      await pg.close();
      release();
    },
  };
}
