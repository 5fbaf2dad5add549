/**
 * Request ids: the one a caller or proxy sends in X-Request-Id is kept, so one id follows a request
 * through nginx, Payframe and the caller's own logs; but only when it is an id: 1 to 64 letters,
 * digits and dashes (a UUID, `lb-7f3a-1`), and not a card number spelled with dashes (issue 13
 * §12: the id is echoed in the answer and written to every log line of the request). Anything
 * else (dots, colons, spaces, quotes, control characters, more than 64 characters) is replaced by
 * a fresh UUID, so a header cannot forge, bloat or smuggle data into log lines.
 */
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { containsCardNumber } from '../../shared/card/card-number-in-text.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
const SAFE_REQUEST_ID = /^[A-Za-z0-9-]{1,64}$/;

export function isSafeRequestId(value: unknown): value is string {
  return typeof value === 'string' && SAFE_REQUEST_ID.test(value) && !containsCardNumber(value);
}

/** Fastify's `genReqId`: the caller's id when safe, else a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return isSafeRequestId(given) ? given : crypto.randomUUID();
}
