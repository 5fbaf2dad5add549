/**
 * The embedded database: PGlite (PostgreSQL compiled to WASM) persisted in DATA_DIR/pglite.
 * A lock file keeps a second process from opening the same directory, which would corrupt it;
 * a lock left by a killed process (kill -9) is taken over.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import type { Database, Queryable, QueryResult } from './database.ts';

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

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
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

function wrap(db: Pick<PGlite, 'query' | 'exec'>): Queryable {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      const r = await db.query<Row>(sql, params as unknown[], { parsers: PARSERS });
      // PGlite reports affectedRows 0 for a SELECT; pg's rowCount counts the rows returned.
      return { rows: r.rows, rowCount: Math.max(r.rows.length, r.affectedRows ?? 0) };
    },
    async exec(sql: string) {
      await db.exec(sql);
    },
  };
}

/** Opens (creating on first use) the PGlite database in `dataDir`; `null` keeps it in memory. */
export async function openPglite(dataDir: string | null): Promise<Database> {
  let release = () => {};
  let pg: PGlite;
  if (dataDir === null) {
    pg = await PGlite.create({ parsers: PARSERS });
  } else {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    release = acquireLock(dataDir);
    try {
      pg = await PGlite.create({ dataDir: path.join(dataDir, 'pglite'), parsers: PARSERS });
    } catch (err) {
      release();
      throw err;
    }
  }
  const queryable = wrap(pg);
  let closed = false;
  return {
    kind: 'pglite',
    schema: 'public',
    query: queryable.query,
    exec: queryable.exec,
    // PGlite runs one transaction at a time: other queries wait for it, so there is nothing to retry.
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
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
