/**
 * Request ids: the one a caller or proxy sends in X-Request-Id is kept, so one id follows a request
 * through nginx, Payframe and the caller's own logs; but only when it looks like an id. Anything
 * else (too long, spaces, quotes, control characters) is replaced by a fresh UUID, so a header
 * cannot forge or bloat log lines.
 */
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';
const SAFE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export function isSafeRequestId(value: unknown): value is string {
  return typeof value === 'string' && SAFE_REQUEST_ID.test(value);
}

/** Fastify's `genReqId`: the caller's id when safe, else a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return isSafeRequestId(given) ? given : crypto.randomUUID();
}
