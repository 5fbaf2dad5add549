/**
 * `GET /dev/outbox?to=<address>[&limit=50]`: what the notifier put in the dev outbox, newest first,
 * as JSON `{ "messages": [{id, channel, to, subject, text, html, purpose, createdAt}] }`.
 * For developers, the demo and the end-to-end tests. The messages hold one-time codes and password
 * reset links, so the route must never exist in production: register it only when
 * `config.env !== 'production'`, and pass `env` so the plugin also refuses on its own.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Queryable } from '../db/database.ts';
import { PayframeError } from '../errors.ts';
import { listOutbox } from './outbox.ts';

export interface DevOutboxOptions {
  db: Queryable;
  /** `config.env`; in 'production' the plugin registers nothing. */
  env?: Config['env'];
}

type OutboxRequest = { Querystring: { to?: string; limit?: string } };

export async function devOutboxRoutes(app: FastifyInstance, opts: DevOutboxOptions): Promise<void> {
  if (opts.env === 'production') return;
  app.get<OutboxRequest>('/dev/outbox', async (request, reply) => {
    const { to, limit } = request.query;
    if (limit !== undefined && !/^\d{1,3}$/.test(limit)) {
      throw new PayframeError('invalid_request', 'limit must be a number from 1 to 200.');
    }
    const messages = await listOutbox(opts.db, {
      ...(to !== undefined ? { to } : {}),
      ...(limit !== undefined ? { limit: Number(limit) } : {}),
    });
    reply.header('cache-control', 'no-store');
    return { messages };
  });
}
