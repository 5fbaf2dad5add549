/**
 * The gateway's credential check (DESIGN.md §6). A missing or wrong credential is answered at the
 * transport, as IIS answers in front of ASMX: HTTP 401 with `WWW-Authenticate: Basic`, never saying
 * which part was wrong. Repeated failures from one address are throttled, counted in the database
 * so the limit holds across instances.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import type { Queryable } from '../db/database.ts';
import { PayframeError } from '../errors.ts';
import type { MerchantStore } from './merchants/merchant-store.ts';
import { accessOf, type Principal } from './principal.ts';

export const SERVICE_USERNAME = 'service';
/** Failed checks allowed per address in a window before it is refused for the rest of the window. */
export const MAX_FAILURES = 10;
export const FAILURE_WINDOW_SECONDS = 15 * 60;

export interface BasicCredential {
  username: string;
  password: string;
}

export function parseBasic(header: string | undefined): BasicCredential | null {
  if (!header) return null;
  const m = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!m?.[1]) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function sameSecret(a: string, b: string): boolean {
  const ha = crypto.createHash('sha256').update(a).digest();
  const hb = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(ha, hb);
}

export interface AuthDeps {
  db: Queryable;
  merchants: MerchantStore;
  serviceKey: string | undefined;
  now: () => Date;
}

/** Seconds until the subject may try again, or 0 when it is not throttled. */
export async function throttledFor(
  db: Queryable,
  subject: string,
  now: Date,
  max = MAX_FAILURES,
): Promise<number> {
  const { rows } = await db.query<{ failures: number; window_start: Date }>(
    'select failures, window_start from auth_failures where subject = $1',
    [subject],
  );
  const r = rows[0];
  if (!r || r.failures < max) return 0;
  const left = FAILURE_WINDOW_SECONDS * 1000 - (now.getTime() - r.window_start.getTime());
  return left > 0 ? Math.ceil(left / 1000) : 0;
}

export async function recordFailure(db: Queryable, subject: string, now: Date): Promise<void> {
  await db.query(
    `insert into auth_failures (subject, failures, window_start) values ($1, 1, $2)
     on conflict (subject) do update set
       failures = case when auth_failures.window_start < $2 - make_interval(secs => $3) then 1 else auth_failures.failures + 1 end,
       window_start = case when auth_failures.window_start < $2 - make_interval(secs => $3) then $2 else auth_failures.window_start end`,
    [subject, now, FAILURE_WINDOW_SECONDS],
  );
}

/** Who is calling, from the Authorization header; throws 401/429 catalogue errors. */
export async function authenticate(
  deps: AuthDeps,
  operation: string,
  authorization: string | undefined,
  remoteAddress: string,
  relay?: { credential: string; clientAddress: string },
): Promise<Principal> {
  const credential = parseBasic(authorization);
  if (!credential) {
    if (accessOf(operation) === 'public') return { kind: 'anonymous' };
    throw new PayframeError('unauthorized');
  }
  const isServiceKey = (key: string) => !!deps.serviceKey && sameSecret(key, deps.serviceKey);
  // The checkout server itself is never throttled: failures relayed through it must not lock it out.
  if (credential.username === SERVICE_USERNAME && isServiceKey(credential.password))
    return { kind: 'service' };
  const now = deps.now();
  // A merchant's call relayed by the checkout counts against the merchant's client, not the relay.
  const relayed = relay && isServiceKey(relay.credential) && net.isIP(relay.clientAddress) !== 0;
  const subject = `ip:${relayed ? relay.clientAddress : remoteAddress}`;
  const wait = await throttledFor(deps.db, subject, now);
  if (wait > 0) {
    throw new PayframeError(
      'rate_limited',
      'Too many failed sign-ins. Please wait and try again.',
      undefined,
      {
        retryAfterSeconds: wait,
      },
    );
  }
  let principal: Principal | null = null;
  if (credential.username === SERVICE_USERNAME) {
    principal = null; // a wrong service key (the right one returned above)
  } else if (await deps.merchants.verifyKey(deps.db, credential.username, credential.password)) {
    principal = { kind: 'merchant', merchantId: credential.username };
  }
  if (!principal) {
    await recordFailure(deps.db, subject, now);
    throw new PayframeError('unauthorized');
  }
  return principal;
}

/** May this principal call this operation at all? (What it may touch is checked by `actOn`.) */
export function authorizeOperation(principal: Principal, operation: string): void {
  const access = accessOf(operation);
  if (access === 'public') return;
  if (principal.kind === 'anonymous') throw new PayframeError('unauthorized');
  if (principal.kind === 'service' && access === 'merchant') {
    throw new PayframeError('forbidden', 'This credential may not call this operation.');
  }
  if (principal.kind === 'merchant' && access === 'service') {
    throw new PayframeError('forbidden', 'This operation is for the checkout server only.');
  }
}

/**
 * The merchant id an operation acts on, checked against the caller: a merchant acts on its own id
 * only, and a mismatch reveals nothing about the other merchant (DESIGN.md §6).
 */
export function actOn(principal: Principal, merchantId: string | null | undefined): string {
  if (principal.kind === 'merchant') {
    if (merchantId && merchantId !== principal.merchantId) {
      throw new PayframeError('forbidden', 'This credential may not act on that merchant.');
    }
    return principal.merchantId;
  }
  if (!merchantId) throw new PayframeError('invalid_request', 'A merchant id is required.');
  return merchantId;
}
