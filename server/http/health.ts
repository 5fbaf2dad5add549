/**
 * Liveness and health. `/livez` says the process answers; `/healthz` (and `/readyz`) also ask the
 * database and answer 503 when it does not answer, refuses writes (read-only, disk full: `database`
 * says which, issue 19 §6) or the instance is shutting down, so a load balancer stops sending it
 * traffic; once writes go through again it is ready again. `warnings` lists what needs a person without making the
 * instance unready (the gateway's reconciliation, server/gateway/payments/reconciliation-job.ts).
 */
import type { FastifyInstance } from 'fastify';
import { type StorageRefusal, storageRefusalOf } from '../db/database.ts';
import type { Database } from '../db/index.ts';
import { clearStorageRefusal, lastStorageRefusal, noteStorageRefusal } from '../db/storage-refusals.ts';

export interface HealthState {
  shuttingDown: boolean;
  /**
   * Conditions worth a person's attention that do not make the instance unready (the gateway's
   * reconciliation): each answers its details, or null when all is well. Listed under `warnings`.
   */
  warnings?: Record<string, () => Record<string, unknown> | null>;
}

type DatabaseHealth = {
  kind: string;
  status: 'ok' | 'unavailable' | StorageRefusal;
  latencyMs?: number;
  /** Why writes are refused, and since when (a refusal the process met). */
  reason?: string;
  since?: string;
};

const REFUSAL_REASONS: Record<StorageRefusal, string> = {
  read_only: 'the database accepts no writes (a standby after a failover, or set read-only)',
  disk_full: "the database's disk is full",
  io_error: 'the database reported an I/O error writing',
  out_of_resources: 'the database is out of memory or another resource',
};

/**
 * The database's state: answering, and taking writes. Read-only is asked of it (a standby, or
 * `transaction_read_only`); a full disk or an I/O error shows only when a write fails, so after the
 * process met one (storage-refusals.ts) each check tries a write of its own — `txid_current()`
 * commits a transaction id — until one goes through.
 */
async function databaseHealth(db: Database): Promise<DatabaseHealth> {
  const started = performance.now();
  try {
    const { rows } = await db.query<{ recovery: boolean; read_only: string }>(
      "select pg_is_in_recovery() as recovery, current_setting('transaction_read_only') as read_only",
    );
    const latencyMs = Math.round((performance.now() - started) * 10) / 10;
    if (rows[0]?.recovery || rows[0]?.read_only === 'on') {
      return { kind: db.kind, status: 'read_only', latencyMs, reason: REFUSAL_REASONS.read_only };
    }
    const refused = lastStorageRefusal();
    if (refused) {
      try {
        await db.query('select txid_current()');
        clearStorageRefusal();
      } catch (err) {
        if (!noteStorageRefusal(err)) return { kind: db.kind, status: 'unavailable' };
        const now = lastStorageRefusal() ?? refused;
        return {
          kind: db.kind,
          status: now.kind,
          latencyMs,
          reason: REFUSAL_REASONS[now.kind],
          since: now.at.toISOString(),
        };
      }
    }
    return { kind: db.kind, status: 'ok', latencyMs };
  } catch (err) {
    // A URL naming a primary and its standbys, none of them taking writes yet (a failover under
    // way): the servers answer, read-only.
    if (storageRefusalOf(err) === 'read_only') {
      return { kind: db.kind, status: 'read_only', reason: REFUSAL_REASONS.read_only };
    }
    return { kind: db.kind, status: 'unavailable' };
  }
}

export function registerHealthRoutes(app: FastifyInstance, db: Database, state: HealthState): void {
  app.get('/livez', async () => ({ status: 'ok' }));

  const health = async (_req: unknown, reply: import('fastify').FastifyReply) => {
    reply.header('cache-control', 'no-store');
    const database = await databaseHealth(db);
    const ok = database.status === 'ok' && !state.shuttingDown;
    if (!ok) reply.code(503).header('retry-after', '2');
    const warnings = Object.fromEntries(
      Object.entries(state.warnings ?? {}).flatMap(([name, check]) => {
        const details = check();
        return details ? [[name, details]] : [];
      }),
    );
    return {
      status: ok ? 'ok' : state.shuttingDown ? 'shutting_down' : 'unavailable',
      database,
      ...(Object.keys(warnings).length > 0 ? { warnings } : {}),
    };
  };
  app.get('/healthz', health);
  app.get('/readyz', health);
}
