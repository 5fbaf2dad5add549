/**
 * The PostgreSQL server driver: a `pg` pool on DATABASE_URL, for several stateless instances. A URL
 * naming several servers (a primary and its standbys) is read by postgres-hosts.ts.
 */
import pg from 'pg';
import {
  type ChannelListener,
  type Database,
  isUnavailableError,
  type Queryable,
  type QueryResult,
  type Transaction,
} from './database.ts';
import { choosingClient, HostChooser, needsChoice, parsePostgresUrl } from './postgres-hosts.ts';

const RETRYABLE = new Set(['40001', '40P01']); // serialization_failure, deadlock_detected
const MAX_ATTEMPTS = 5;
/** How long a lost listening connection waits before it connects again. */
export const RELISTEN_MS = 1000;
const CHANNEL = /^[a-z_][a-z0-9_]*$/;

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

/**
 * The client's socket, to cork while a transaction's statements are issued (`pg` corks the messages
 * of one statement itself, the same way). Not part of `pg`'s typed interface: when a version lacks
 * it, nothing is corked and each statement goes in a write of its own.
 */
function streamOf(client: pg.PoolClient): { cork(): void; uncork(): void } | null {
  const stream = (client as unknown as { connection?: { stream?: { cork?: unknown; uncork?: unknown } } })
    .connection?.stream;
  return typeof stream?.cork === 'function' && typeof stream.uncork === 'function'
    ? (stream as { cork(): void; uncork(): void })
    : null;
}

async function run<Row>(
  client: pg.Pool | pg.PoolClient,
  sql: string,
  params: readonly unknown[],
): Promise<QueryResult<Row>> {
  const r = await client.query(sql, params as unknown[]);
  return { rows: r.rows as Row[], rowCount: r.rowCount ?? r.rows.length };
}

function wrap(client: pg.Pool | pg.PoolClient, onError: (err: unknown) => void): Queryable {
  return {
    query: <Row>(sql: string, params: readonly unknown[] = []) =>
      run<Row>(client, sql, params).catch((err: unknown) => {
        onError(err);
        throw err;
      }),
    async exec(sql: string) {
      // no parameters: the simple protocol runs several statements
      await client.query(sql).catch((err: unknown) => {
        onError(err);
        throw err;
      });
    },
  };
}

/**
 * How connections are made: a plain `pg.Client` on a one-server URL; on a URL naming several
 * servers or asking for a read-write one, a client that connects where `chooser` says.
 */
function connectorFor(options: PostgresOptions) {
  const common = {
    connectionTimeoutMillis: 5000,
    // A server whose host or network died (no reset, unlike a killed process) is noticed by TCP
    // keepalive on idle connections, not only when a query finally times out.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  };
  const url = parsePostgresUrl(options.url);
  if (!needsChoice(url)) {
    return { chooser: null, Client: pg.Client, config: { ...common, connectionString: options.url } };
  }
  const chooser = new HostChooser(url, common);
  return {
    chooser,
    Client: choosingClient(chooser),
    // The first host for what `pg` reads of the URL (user, database, ssl); the host is chosen later.
    config: { ...common, connectionString: url.urlFor(url.hosts[0]!) },
  };
}

type Connector = ReturnType<typeof connectorFor>;

/**
 * One transaction on a pooled client, which runs in `pg`'s pipeline mode: a statement goes out as
 * soon as it is issued, and the server answers them in order on the one connection. The socket is
 * corked from a statement until the end of that tick (its promise callbacks included), so BEGIN
 * with the first statement, statements issued together (`Promise.all`), and the last statement with
 * its COMMIT each leave in one write: one round trip instead of one each.
 */
class PipelinedTransaction implements Transaction {
  /** `open` until COMMIT or ROLLBACK has been sent. */
  state: 'open' | 'ended' = 'open';
  #corked = false;
  readonly #stream: { cork(): void; uncork(): void } | null;

  constructor(private readonly client: pg.PoolClient) {
    this.#stream = streamOf(client);
  }

  /** Holds this tick's writes to send them in one. */
  #batch(): void {
    const stream = this.#stream;
    if (!stream || this.#corked) return;
    this.#corked = true;
    stream.cork();
    process.nextTick(() => {
      this.#corked = false;
      stream.uncork();
    });
  }

  #send<Row>(sql: string, params: readonly unknown[]): Promise<QueryResult<Row>> {
    if (this.state !== 'open') return Promise.reject(new Error('The transaction is over'));
    this.#batch();
    return run<Row>(this.client, sql, params);
  }

  /** Sends COMMIT; the transaction is over from here, whatever it answers. */
  #sendCommit(): Promise<void> {
    if (this.state !== 'open') return Promise.reject(new Error('The transaction is over'));
    this.#batch();
    this.state = 'ended';
    const commit = this.client.query('commit').then(({ command }) => {
      // A statement failed and its error was caught: PostgreSQL rolled the transaction back.
      if (command === 'ROLLBACK')
        throw new Error('The transaction was rolled back: a statement in it failed');
    });
    commit.catch(() => {});
    return commit;
  }

  /**
   * BEGIN, not awaited: it fails only when the connection does, and then so does every statement
   * after it, so none runs outside the transaction. Its failure is still reported by `end`.
   */
  begin(): Promise<unknown> {
    const begun = this.#send('begin', []);
    begun.catch(() => {});
    return begun;
  }

  query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
    return this.#send<Row>(sql, params);
  }

  async exec(sql: string): Promise<void> {
    if (this.state !== 'open') throw new Error('The transaction is over');
    this.#batch();
    await this.client.query(sql);
  }

  async queryAndCommit<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
    const result = this.#send<Row>(sql, params);
    const commit = this.#sendCommit();
    const answer = await result; // on its failure COMMIT answers ROLLBACK: the transaction is over
    await commit;
    return answer;
  }

  /** Commits, unless `queryAndCommit` already has. */
  async commit(): Promise<void> {
    if (this.state === 'open') await this.#sendCommit();
  }

  /** Rolls back a transaction still open; false when the connection is gone. */
  async rollback(): Promise<boolean> {
    if (this.state !== 'open') return true;
    this.state = 'ended';
    return this.client.query('rollback').then(
      () => true,
      () => false,
    );
  }
}

/**
 * A subscription on a connection of its own (a pooled one cannot keep `LISTEN`): when it drops, the
 * listener hears `onListening(false)`, and it connects again every RELISTEN_MS until it listens.
 */
async function subscribe(
  connector: Connector,
  channel: string,
  listener: ChannelListener,
): Promise<() => Promise<void>> {
  if (!CHANNEL.test(channel)) throw new Error(`Not a channel name: ${channel}`);
  let stopped = false;
  let current: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;

  const lost = (client: pg.Client) => {
    if (current !== client) return;
    current = null;
    listener.onListening(false);
    client.end().catch(() => {});
    if (!stopped) later();
  };
  const connect = async () => {
    const client = new connector.Client(connector.config);
    client.on('error', () => lost(client));
    client.on('end', () => lost(client));
    client.on('notification', (n) => {
      if (n.channel === channel) listener.onNotify(n.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`listen ${channel}`);
    } catch (err) {
      client.end().catch(() => {});
      throw err;
    }
    if (stopped) {
      await client.end().catch(() => {});
      return;
    }
    current = client;
    listener.onListening(true);
  };
  function later() {
    retry = setTimeout(() => {
      retry = null;
      connect().catch(() => {
        if (!stopped) later();
      });
    }, RELISTEN_MS);
    retry.unref();
  }

  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    const client = current;
    current = null;
    if (client) {
      listener.onListening(false);
      await client.end().catch(() => {});
    }
  };
}

export async function openPostgres(options: PostgresOptions): Promise<Database> {
  const subscriptions = new Set<() => Promise<void>>();
  const connector = connectorFor(options);
  const pool = new pg.Pool({
    ...connector.config,
    Client: connector.Client as unknown as new () => pg.ClientBase,
    max: options.poolSize,
    types: typeParsers,
    idleTimeoutMillis: 30_000,
    pipeline: true,
  });
  /**
   * A server that went away or refused a write (a failover: the old primary is gone, or this one is
   * now read-only): new connections choose their server again. `pg` drops the failed connection.
   */
  const failed = (err: unknown) => {
    if (connector.chooser && isUnavailableError(err)) connector.chooser.forget();
  };
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', failed);
  const queryable = wrap(pool, failed);
  await queryable.query('select 1');
  return {
    kind: 'postgres',
    schema: options.schema ?? 'public',
    query: queryable.query,
    exec: queryable.exec,
    async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
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
        const tx = new PipelinedTransaction(client);
        try {
          const begun = tx.begin();
          const result = await fn(tx);
          await begun;
          await tx.commit();
          return result;
        } catch (err) {
          if (!(await tx.rollback())) broken = true; // the connection is gone: drop it from the pool
          if (isUnavailableError(err)) {
            // Refused as read-only, or cut: this connection's server may be a standby now.
            broken = true;
            failed(err);
          }
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
    async holdLock(name, onLost) {
      const client = new connector.Client(connector.config);
      let held = false;
      const lost = (err: unknown) => {
        if (held) onLost(err);
        held = false;
      };
      client.on('error', lost);
      client.on('end', () => lost(new Error('the connection holding the lock ended')));
      await client.connect();
      const { rows } = await client.query<{ taken: boolean }>(
        'select pg_try_advisory_lock(hashtextextended($1, 0)) as taken',
        [name],
      );
      if (!rows[0]?.taken) {
        await client.end().catch(() => {});
        return null;
      }
      held = true;
      const release = async () => {
        held = false;
        subscriptions.delete(release);
        await client.end().catch(() => {});
      };
      subscriptions.add(release);
      return release;
    },
    async listen(channel, listener) {
      const stop = await subscribe(connector, channel, listener);
      const unsubscribe = async () => {
        subscriptions.delete(unsubscribe);
        await stop();
      };
      subscriptions.add(unsubscribe);
      return unsubscribe;
    },
    async close() {
      await Promise.all([...subscriptions].map((unsubscribe) => unsubscribe()));
      await pool.end();
    },
  };
}
