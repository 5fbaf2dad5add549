/**
 * Liveness and health. `/livez` says the process answers; `/healthz` (and `/readyz`) also run a
 * round trip to the database and answer 503 when it fails or the instance is shutting down, so a
 * load balancer stops sending it traffic.
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/index.ts';

export interface HealthState {
  shuttingDown: boolean;
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
    return { status: ok ? 'ok' : state.shuttingDown ? 'shutting_down' : 'unavailable', database };
  };
  app.get('/healthz', health);
  app.get('/readyz', health);
}
