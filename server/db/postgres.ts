/** The PostgreSQL server driver: a `pg` pool on DATABASE_URL, for several stateless instances. */
import pg from 'pg';
import type { Database, Queryable, QueryResult } from './database.ts';

const RETRYABLE = new Set(['40001', '40P01']); // serialization_failure, deadlock_detected
const MAX_ATTEMPTS = 5;

const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 || oid === 1700) return (v: string) => v; // int8, numeric: keep exact strings
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

export interface PostgresOptions {
  url: string;
  poolSize: number;
  /** Sets search_path on every connection; the storage tests isolate themselves in a schema. */
  schema?: string;
}

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      const r = await client.query(sql, params as unknown[]);
      return { rows: r.rows as Row[], rowCount: r.rowCount ?? r.rows.length };
    },
    async exec(sql: string) {
      await client.query(sql); // no parameters: the simple protocol runs several statements
    },
  };
}

export async function openPostgres(options: PostgresOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    types: typeParsers,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  const queryable = wrap(pool);
  await queryable.query('select 1');
  return {
    kind: 'postgres',
    query: queryable.query,
    exec: queryable.exec,
    async transaction(fn) {
      for (let attempt = 1; ; attempt++) {
        const client = await pool.connect();
        let broken = false;
        // The pool listens for errors on idle clients only: a checked-out client whose server goes
        // away (a restart) emits 'error', which would crash the process without a listener. The
        // failed query reports it; the client is dropped on release.
        const onError = () => {
          broken = true;
        };
        client.on('error', onError);
        try {
          await client.query('begin');
          const result = await fn(wrap(client));
          await client.query('commit');
          return result;
        } catch (err) {
          await client.query('rollback').catch(() => {
            broken = true; // the connection is gone: drop it from the pool
          });
          const code = (err as { code?: string }).code;
          if (code && RETRYABLE.has(code) && attempt < MAX_ATTEMPTS) continue;
          throw err;
        } finally {
          client.off('error', onError);
          client.release(broken);
        }
      }
    },
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      await pool.end();
    },
  };
}
