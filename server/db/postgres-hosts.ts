/**
 * A DATABASE_URL naming several servers, as libpq reads it (`postgres://u@h1:5432,h2:5432/db`),
 * with `target_session_attrs=read-write`: a primary and its standbys, of which the one taking writes
 * changes on a failover. `pg` reads one host only, so each new connection first chooses its server
 * here: the one that took writes last, or else each in the order written, the first that answers
 * and is not read-only (`show transaction_read_only`, as libpq asks). A connection to a server that
 * fails or refuses a write makes the next one choose again (postgres.ts).
 */
import pg from 'pg';

export type TargetSessionAttrs = 'any' | 'read-write';

export interface PostgresHost {
  host: string;
  port: number;
}

export interface PostgresUrl {
  hosts: PostgresHost[];
  targetSessionAttrs: TargetSessionAttrs;
  /** The URL with only `host` in it (and no target_session_attrs): what `pg` can read. */
  urlFor(host: PostgresHost): string;
}

const URL_PARTS = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)(.*)$/s;
const HOST_PORT = /^(\[[^\]]+\]|[^:[\]]*)(?::(\d+))?$/;

/** Splits a postgres:// URL's host list; throws on one it cannot read (without echoing a password). */
export function parsePostgresUrl(url: string): PostgresUrl {
  const parts = URL_PARTS.exec(url);
  if (!parts) throw new Error('DATABASE_URL is not a postgres:// URL');
  const [, scheme, userinfo = '', hostList = '', rest = ''] = parts;
  const hosts = hostList.split(',').map((h) => {
    const m = HOST_PORT.exec(h);
    const port = Number(m?.[2] ?? 5432);
    if (!m || port < 1 || port > 65535) throw new Error(`DATABASE_URL: cannot read the host "${h}"`);
    // An IPv6 address is written in brackets; the socket wants it without.
    return { host: m[1]?.replace(/^\[(.*)\]$/, '$1') || 'localhost', port };
  });

  const queryAt = rest.indexOf('?');
  const path = queryAt < 0 ? rest : rest.slice(0, queryAt);
  const params = new URLSearchParams(queryAt < 0 ? '' : rest.slice(queryAt + 1));
  const attrs = params.get('target_session_attrs') ?? 'any';
  if (attrs !== 'any' && attrs !== 'read-write') {
    throw new Error(`DATABASE_URL: target_session_attrs=${attrs} is not supported (any or read-write)`);
  }
  params.delete('target_session_attrs');
  const query = params.toString() ? `?${params.toString()}` : '';
  return {
    hosts,
    targetSessionAttrs: attrs,
    urlFor: (h) => `${scheme}${userinfo}${hostName(h)}:${h.port}${path}${query}`,
  };
}

function hostName(h: PostgresHost): string {
  return h.host.includes(':') ? `[${h.host}]` : h.host;
}

/** Whether `url` needs a choice of server (several hosts, or a read-write target to check). */
export function needsChoice(url: PostgresUrl): boolean {
  return url.hosts.length > 1 || url.targetSessionAttrs !== 'any';
}

/** "h1:5432,h2:5432/db": where the database is, for logs (no user, no password). */
export function describePostgresUrl(url: string): string {
  const parsed = parsePostgresUrl(url);
  const path = new URL(parsed.urlFor(parsed.hosts[0]!)).pathname;
  return `${parsed.hosts.map((h) => `${hostName(h)}:${h.port}`).join(',')}${path}`;
}

/** No server in the URL would do; `code` makes it a "database unavailable" (or read-only) error. */
export class NoServerError extends Error {
  constructor(
    message: string,
    /** 25006 when every server that answered is read-only (a standby not yet promoted), else 08001. */
    readonly code: '25006' | '08001',
  ) {
    super(message);
    this.name = 'NoServerError';
  }
}

function describeError(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown };
  return typeof e.code === 'string' ? e.code : String(e.message ?? err);
}

/**
 * Which server new connections go to: the last one found taking writes, until `forget` (a
 * connection to it failed, or a write was refused); then each host in the URL's order is asked.
 * Concurrent connections wait for one search.
 */
/** How long a probe's `show transaction_read_only` may take before the host counts as not answering. */
const PROBE_QUERY_TIMEOUT_MS = 5_000;

export class HostChooser {
  #current: PostgresHost | null = null;
  #search: Promise<PostgresHost> | null = null;

  constructor(
    readonly url: PostgresUrl,
    /** The settings each probe connection shares with the pool's (timeouts, search_path, ssl). */
    private readonly clientConfig: pg.ClientConfig,
  ) {}

  choose(): Promise<PostgresHost> {
    if (this.#current) return Promise.resolve(this.#current);
    this.#search ??= this.#find().finally(() => {
      this.#search = null;
    });
    return this.#search;
  }

  /** Makes the next connection choose again (only if `host` is still the choice, when given). */
  forget(host?: PostgresHost): void {
    if (!host || host === this.#current) this.#current = null;
  }

  async #find(): Promise<PostgresHost> {
    const tried: string[] = [];
    let readOnly = false;
    for (const host of this.url.hosts) {
      // Bounded: a host that accepted the connection and then went silent must not hold up every new
      // connection (they all wait for this search) until TCP gives up.
      const probe = new pg.Client({
        ...this.clientConfig,
        connectionString: this.url.urlFor(host),
        query_timeout: PROBE_QUERY_TIMEOUT_MS,
      });
      probe.on('error', () => {}); // an error after connecting: the probe is being ended anyway
      try {
        await probe.connect();
        if (this.url.targetSessionAttrs === 'read-write' && (await isReadOnly(probe))) {
          readOnly = true;
          tried.push(`${host.host}:${host.port} read-only`);
          continue;
        }
        this.#current = host;
        return host;
      } catch (err) {
        tried.push(`${host.host}:${host.port} ${describeError(err)}`);
      } finally {
        await probe.end().catch(() => {});
      }
    }
    throw new NoServerError(
      `No server in DATABASE_URL takes writes (${tried.join('; ')})`,
      readOnly ? '25006' : '08001',
    );
  }
}

export async function isReadOnly(client: pg.ClientBase): Promise<boolean> {
  const { rows } = await client.query<{ transaction_read_only: string }>('show transaction_read_only');
  return rows[0]?.transaction_read_only === 'on';
}

/**
 * A `pg.Client` that connects to the server `chooser` picks, and checks that a read-write target
 * still is one on its own connection (a stale choice is forgotten and the connection refused).
 */
export function choosingClient(chooser: HostChooser): typeof pg.Client {
  return class ChoosingClient extends pg.Client {
    override connect(): Promise<pg.Client>;
    override connect(callback: (err: Error) => void): void;
    override connect(callback?: (err: Error) => void): Promise<pg.Client> | void {
      const connected = this.#connect();
      if (!callback) return connected;
      connected.then(() => callback(undefined as unknown as Error), callback);
    }

    async #connect(): Promise<pg.Client> {
      const host = await chooser.choose();
      this.host = host.host;
      this.port = host.port;
      try {
        await super.connect();
      } catch (err) {
        chooser.forget(host);
        throw err;
      }
      try {
        if (chooser.url.targetSessionAttrs === 'read-write' && (await isReadOnly(this))) {
          throw new NoServerError(`${host.host}:${host.port} no longer takes writes`, '25006');
        }
        return this;
      } catch (err) {
        chooser.forget(host);
        await this.end().catch(() => {});
        throw err;
      }
    }
  };
}
