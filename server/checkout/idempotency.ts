/**
 * Idempotency keys (DESIGN.md §8; security-requirements.md IDEM-1…6): a key is scoped to a session
 * and an endpoint and claimed with INSERT … ON CONFLICT DO NOTHING, never select-then-insert. The
 * same key with the same request replays the first answer (status and body); with a different
 * request it is 422 `idempotency_mismatch`; while the first is still running it is 409 `conflict`.
 *
 * The request is never stored: only its fingerprint, an HMAC-SHA256 under the checkout secret of
 * its canonical JSON with every CVV left out (PCI 3.3.1: nothing derived from a CVV is kept). So a
 * retry that changes only the CVV is the same request: the widget makes a new key for every new
 * attempt (IDEM-8), and after a decline.
 */
import crypto from 'node:crypto';
import { lastStatement, type Queryable } from '../db/database.ts';

export interface KeyScope {
  sessionToken: string;
  endpoint: string;
  key: string;
}

export type KeyClaim =
  | { kind: 'claimed' }
  | { kind: 'replay'; statusCode: number; body: string }
  | { kind: 'mismatch' }
  | { kind: 'in_flight'; since: Date };

/** How long keys are kept (IDEM-5: at least 24 h); a session is paid at most once after that too. */
export const KEY_RETENTION_MS = 25 * 60 * 60 * 1000;

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The body without any `cvv`, at any depth: a card's (`card.cvv`), a saved card's (top-level
 * `cvv`), and whatever method comes next. Nothing of the fingerprint may depend on a CVV (PCI
 * 3.3.1): a stored HMAC of a 3- or 4-digit value is recovered in 10,000 guesses by whoever holds the
 * key.
 */
function withoutCvv(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCvv);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([k]) => k.toLowerCase() !== 'cvv')
        .map(([k, v]) => [k, withoutCvv(v)]),
    );
  }
  return value;
}

/** The fingerprint of a validated request body (hex HMAC; no CVV is part of it). */
export function fingerprintOf(secret: Buffer, endpoint: string, body: unknown): string {
  return crypto
    .createHmac('sha256', secret)
    .update(`${endpoint}\n${canonical(withoutCvv(body))}`)
    .digest('hex');
}

function sameFingerprint(a: string, b: string): boolean {
  return a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

export async function claimKey(
  q: Queryable,
  scope: KeyScope,
  fingerprint: string,
  now: Date,
): Promise<KeyClaim> {
  const inserted = await q.query(
    `insert into checkout_idempotency (session_token, endpoint, key, fingerprint, state, created_at)
     values ($1, $2, $3, $4, 'in_flight', $5) on conflict do nothing returning key`,
    [scope.sessionToken, scope.endpoint, scope.key, fingerprint, now],
  );
  if (inserted.rowCount === 1) return { kind: 'claimed' };
  const { rows } = await q.query<{
    fingerprint: string;
    state: 'in_flight' | 'completed';
    status_code: number | null;
    body: string | null;
    created_at: Date;
  }>(
    `select fingerprint, state, status_code, body, created_at from checkout_idempotency
     where session_token = $1 and endpoint = $2 and key = $3`,
    [scope.sessionToken, scope.endpoint, scope.key],
  );
  const row = rows[0];
  // Released between our insert and select: claim again (once; a second race answers in-flight).
  if (!row) {
    const again = await q.query(
      `insert into checkout_idempotency (session_token, endpoint, key, fingerprint, state, created_at)
       values ($1, $2, $3, $4, 'in_flight', $5) on conflict do nothing returning key`,
      [scope.sessionToken, scope.endpoint, scope.key, fingerprint, now],
    );
    return again.rowCount === 1 ? { kind: 'claimed' } : { kind: 'in_flight', since: now };
  }
  if (!sameFingerprint(row.fingerprint, fingerprint)) return { kind: 'mismatch' };
  if (row.state === 'in_flight') return { kind: 'in_flight', since: row.created_at };
  return { kind: 'replay', statusCode: row.status_code ?? 200, body: row.body ?? 'null' };
}

/**
 * Stores the answer the key replays from now on (its JSON text, sent as is). `last`: the statement
 * ends `q`'s transaction (it is committed with it).
 */
export async function completeKey(
  q: Queryable,
  scope: KeyScope,
  statusCode: number,
  body: string,
  now: Date,
  { last = false }: { last?: boolean } = {},
): Promise<void> {
  await lastStatement(q, last)(
    `update checkout_idempotency set state = 'completed', status_code = $4, body = $5, completed_at = $6
     where session_token = $1 and endpoint = $2 and key = $3 and state = 'in_flight'`,
    [scope.sessionToken, scope.endpoint, scope.key, statusCode, body, now],
  );
}

/** Frees a key whose request did not run to an answer worth replaying (IDEM-4, IDEM-6). */
/** The stored answer of a completed key with this fingerprint, without claiming anything; else null. */
export async function storedAnswer(
  q: Queryable,
  scope: KeyScope,
  fingerprint: string,
): Promise<string | null> {
  const { rows } = await q.query<{ body: string | null }>(
    `select body from checkout_idempotency
     where session_token = $1 and endpoint = $2 and key = $3 and fingerprint = $4 and state = 'completed'`,
    [scope.sessionToken, scope.endpoint, scope.key, fingerprint],
  );
  return rows[0]?.body ?? null;
}

export async function releaseKey(q: Queryable, scope: KeyScope): Promise<void> {
  await q.query(
    `delete from checkout_idempotency
     where session_token = $1 and endpoint = $2 and key = $3 and state = 'in_flight'`,
    [scope.sessionToken, scope.endpoint, scope.key],
  );
}

/**
 * Frees keys of `endpoint` left `in_flight` since before `before` that no `started` attempt holds
 * (issue 21): their request died before its attempt was committed, or between a decision and the
 * key's answer (a receipt served from the checkout's own record). A `started` attempt's key is
 * recovery's to settle. The same key then runs again and gets the real answer.
 */
export async function releaseAbandonedKeys(q: Queryable, endpoint: string, before: Date): Promise<number> {
  const { rowCount } = await q.query(
    `delete from checkout_idempotency k
     where k.endpoint = $1 and k.state = 'in_flight' and k.created_at < $2
       and not exists (select 1 from checkout_attempts a
                       where a.session_token = k.session_token and a.idempotency_key = k.key
                         and a.state = 'started')`,
    [endpoint, before],
  );
  return rowCount;
}

export async function pruneKeys(q: Queryable, now: Date): Promise<number> {
  const { rowCount } = await q.query('delete from checkout_idempotency where created_at < $1', [
    new Date(now.getTime() - KEY_RETENTION_MS),
  ]);
  return rowCount;
}
