/**
 * Per-IP and per-session rate limits of the checkout API. Pay requests and the SMS budget are
 * counted in the database so every instance sees the same count (@fastify/rate-limit keeps its
 * counts per process by default; a shared store would need Redis, which Payframe does not run):
 * fixed windows, one statement for all of a request's buckets. Session loads and merchant REST
 * calls are counted per instance in memory (MemoryRateLimiter).
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

function windowStart(rule: Rule, now: Date): number {
  return Math.floor(now.getTime() / rule.windowMs) * rule.windowMs;
}

function waitOf(rule: Rule, hits: number, now: Date): number {
  const start = windowStart(rule, now);
  return hits > rule.limit ? Math.max(1, Math.ceil((start + rule.windowMs - now.getTime()) / 1000)) : 0;
}

/**
 * Counts one hit in every bucket, in one statement; answers the seconds to wait when one is over
 * its limit, else 0. Call it inside another transaction to save a round trip (the pay flow does).
 */
export async function hitAll(
  q: Queryable,
  checks: readonly (readonly [bucket: string, rule: Rule])[],
  now: Date,
): Promise<number> {
  if (checks.length === 0) return 0;
  const values = checks.map((_, i) => `($${2 * i + 1}, $${2 * i + 2}::timestamptz, 1)`).join(', ');
  const { rows } = await q.query<{ bucket: string; hits: number }>(
    `insert into checkout_rate_counters (bucket, window_start, hits) values ${values}
     on conflict (bucket, window_start) do update set hits = checkout_rate_counters.hits + 1
     returning bucket, hits`,
    checks.flatMap(([bucket, rule]) => [bucket, new Date(windowStart(rule, now))]),
  );
  const hits = new Map(rows.map((r) => [r.bucket, Number(r.hits)]));
  return Math.max(...checks.map(([bucket, rule]) => waitOf(rule, hits.get(bucket) ?? 0, now)));
}

/** Counts one hit; answers the seconds to wait when the bucket is over its limit, else 0. */
export function hit(q: Queryable, bucket: string, rule: Rule, now: Date): Promise<number> {
  return hitAll(q, [[bucket, rule]], now);
}

export function rateLimited(reply: FastifyReply, wait: number): PayframeError {
  reply.header('retry-after', String(wait));
  return new PayframeError('rate_limited', undefined, undefined, { retryAfterSeconds: wait });
}

/** Checks every bucket (each counts the hit); throws 429 with Retry-After when one is over. */
export async function enforceLimits(
  q: Queryable,
  reply: FastifyReply,
  checks: readonly [bucket: string, rule: Rule][],
  now: Date,
): Promise<void> {
  const wait = await hitAll(q, checks, now);
  if (wait > 0) throw rateLimited(reply, wait);
}

/**
 * Fixed-window counters in this process's memory, for limits where one instance's count is enough:
 * session loads and merchant REST calls per client address. They guard an instance against one
 * noisy client without a database round trip per request; behind a balancer spreading one client
 * over N instances the effective limit is up to N times the rule (docs/deployment.md). Card testing
 * (pay) and the SMS budget stay counted in the database, across instances.
 */
export class MemoryRateLimiter {
  readonly #counts = new Map<string, { start: number; hits: number }>();
  #sweptAt = 0;

  /** Counts one hit; the seconds to wait when over the limit, else 0. */
  hit(bucket: string, rule: Rule, now: Date): number {
    const start = windowStart(rule, now);
    this.#sweep(now.getTime());
    const key = `${rule.windowMs}:${bucket}`;
    const current = this.#counts.get(key);
    const hits = current && current.start === start ? current.hits + 1 : 1;
    this.#counts.set(key, { start, hits });
    return waitOf(rule, hits, now);
  }

  enforce(reply: FastifyReply, bucket: string, rule: Rule, now: Date): void {
    const wait = this.hit(bucket, rule, now);
    if (wait > 0) throw rateLimited(reply, wait);
  }

  /** Forgets windows that ended, at most once a minute, so memory stays bounded by live clients. */
  #sweep(nowMs: number): void {
    if (nowMs - this.#sweptAt < 60_000) return;
    this.#sweptAt = nowMs;
    for (const [key, c] of this.#counts) {
      const windowMs = Number(key.slice(0, key.indexOf(':')));
      if (c.start + windowMs <= nowMs) this.#counts.delete(key);
    }
  }
}

export async function pruneCounters(q: Queryable, now: Date): Promise<number> {
  const { rowCount } = await q.query('delete from checkout_rate_counters where window_start < $1', [
    new Date(now.getTime() - 24 * 60 * 60 * 1000),
  ]);
  return rowCount;
}
