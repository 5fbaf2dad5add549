/**
 * Per-IP and per-session rate limits of the checkout API, counted in the database so every
 * instance sees the same count (@fastify/rate-limit keeps its counts per process by default; a
 * shared store would need Redis, which Payframe does not run). Fixed windows: one upsert per check.
 * Over the limit: 429 `rate_limited` with Retry-After (seconds to the window's end).
 */
import type { FastifyReply } from 'fastify';
import type { Queryable } from '../db/database.ts';
import { PayframeError } from '../errors.ts';

export interface Rule {
  limit: number;
  windowMs: number;
}

export interface RateLimits {
  /** Pay requests from one client address (card testing). */
  payPerIp: Rule;
  /** Pay requests on one session, from anywhere. */
  payPerSession: Rule;
  /** Session loads from one client address. */
  readPerIp: Rule;
  /** Merchant REST calls from one client address. */
  merchantPerIp: Rule;
  /**
   * One-time-code sends to a phone, all sessions and instances together: the global SMS budget
   * against SMS pumping (OTP-9, attack row 28), on top of the per-destination/IP/session limits.
   * Counted per request, for numbers with and without a wallet alike, so a 429 reveals nothing.
   */
  smsSendsGlobal: Rule;
}

export const DEFAULT_LIMITS: RateLimits = {
  payPerIp: { limit: 30, windowMs: 60_000 },
  payPerSession: { limit: 20, windowMs: 15 * 60_000 },
  readPerIp: { limit: 300, windowMs: 60_000 },
  merchantPerIp: { limit: 600, windowMs: 60_000 },
  smsSendsGlobal: { limit: 500, windowMs: 60 * 60_000 },
};

/** Counts one hit; answers the seconds to wait when the bucket is over its limit, else 0. */
export async function hit(q: Queryable, bucket: string, rule: Rule, now: Date): Promise<number> {
  const start = Math.floor(now.getTime() / rule.windowMs) * rule.windowMs;
  const { rows } = await q.query<{ hits: number }>(
    `insert into checkout_rate_counters (bucket, window_start, hits) values ($1, $2, 1)
     on conflict (bucket, window_start) do update set hits = checkout_rate_counters.hits + 1
     returning hits`,
    [bucket, new Date(start)],
  );
  const hits = Number(rows[0]?.hits ?? 0);
  return hits > rule.limit ? Math.max(1, Math.ceil((start + rule.windowMs - now.getTime()) / 1000)) : 0;
}

/** Checks every bucket (each counts the hit); throws 429 with Retry-After when one is over. */
export async function enforceLimits(
  q: Queryable,
  reply: FastifyReply,
  checks: readonly [bucket: string, rule: Rule][],
  now: Date,
): Promise<void> {
  let wait = 0;
  for (const [bucket, rule] of checks) wait = Math.max(wait, await hit(q, bucket, rule, now));
  if (wait > 0) {
    reply.header('retry-after', String(wait));
    throw new PayframeError('rate_limited', undefined, undefined, { retryAfterSeconds: wait });
  }
}

export async function pruneCounters(q: Queryable, now: Date): Promise<number> {
  const { rowCount } = await q.query('delete from checkout_rate_counters where window_start < $1', [
    new Date(now.getTime() - 24 * 60 * 60 * 1000),
  ]);
  return rowCount;
}
