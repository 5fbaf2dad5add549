/**
 * Liveness and health. `/livez` says the process answers; `/healthz` (and `/readyz`) also run a
 * round trip to the database and answer 503 when it fails or the instance is shutting down, so a
 * load balancer stops sending it traffic. `warnings` lists what needs a person without making the
 * instance unready (the gateway's reconciliation, server/gateway/payments/reconciliation-job.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/index.ts';

export interface HealthState {
  shuttingDown: boolean;
  /**
   * Conditions worth a person's attention that do not make the instance unready (the gateway's
   * reconciliation): each answers its details, or null when all is well. Listed under `warnings`.
   */
  warnings?: Record<string, () => Record<string, unknown> | null>;
}

export function registerHealthRoutes(app: FastifyInstance, db: Database, state: HealthState): void {
  app.get('/livez', async () => ({ status: 'ok' }));

  const health = async (_req: unknown, reply: import('fastify').FastifyReply) => {
    reply.header('cache-control', 'no-store');
    const started = performance.now();
    let database: { kind: string; status: 'ok' | 'unavailable'; latencyMs?: number };
    try {
      await db.ping();
      database = {
        kind: db.kind,
        status: 'ok',
        latencyMs: Math.round((performance.now() - started) * 10) / 10,
      };
    } catch {
      database = { kind: db.kind, status: 'unavailable' };
    }
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
