/**
 * The gateway's credential check (DESIGN.md §6). A missing or wrong credential is answered at the
 * transport, as IIS answers in front of ASMX: HTTP 401 with `WWW-Authenticate: Basic`, never saying
 * which part was wrong. Repeated failures from one address are throttled, counted in the database
 * so the limit holds across instances.
 *
 * The success path runs from memory (DESIGN.md §17; merchants/merchant-cache.ts): a merchant
 * credential verified before — the same username and password, by digest — is accepted without a
 * database round trip, unless this address has failed sign-ins on record (then the throttle is read
 * as before). A wrong key never matches a digest, so it always meets the database and the throttle.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import type { Queryable } from '../db/database.ts';
import { PayframeError } from '../errors.ts';
import {
  type Merchant,
  MERCHANT_JOIN_COLUMNS,
  type MerchantStore,
  merchantOfJoined,
} from './merchants/merchant-store.ts';
import type { Principal } from './port.ts';
import { accessOf } from './principal.ts';
import { leastRoleOf, roleAllows, roleTitle } from './user-roles.ts';
import { bearerToken } from '../http/authorization.ts';
import { type SessionState, sessionExisted, useSession } from './users/login-sessions.ts';

const MERCHANT_ID = /^[1-9]\d{0,18}$/;

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
  /** DASHBOARD_IDLE_MINUTES (login-sessions.ts); 15 when unset. */
  userIdleMinutes?: number;
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

/** Who is calling, and for a merchant its row as read to check the key (the call may use it). */
export interface Authenticated {
  principal: Principal;
  merchant?: Merchant;
  /**
   * The caller's address for throttles and audit: the client's the checkout relays for (vouched
   * for by the service key), else the connection's. Absent in process (the context's is right).
   */
  clientAddress?: string;
  /** A merchant user's Login session, as found (and refreshed) by the check of its token. */
  session?: SessionState;
}

/** The throttle's refusal: the same answer for every credential. */
function throttled(wait: number): PayframeError {
  return new PayframeError(
    'rate_limited',
    'Too many failed sign-ins. Please wait and try again.',
    undefined,
    {
      retryAfterSeconds: wait,
    },
  );
}

/**
 * The throttle's count for this address and the merchant the credential names, in one statement:
 * a merchant's call costs one round trip to authenticate, however it ends.
 */
async function throttleAndMerchant(
  db: Queryable,
  subject: string,
  merchantId: string | null,
): Promise<{ failures: number | null; windowStart: Date | null; row: Record<string, unknown> | null }> {
  const { rows } = await db.query<Record<string, unknown>>(
    `select f.failures as f_failures, f.window_start as f_window_start, ${MERCHANT_JOIN_COLUMNS}
     from (select 1) one
     left join auth_failures f on f.subject = $1
     left join merchants m on m.id = $2::bigint`,
    [subject, merchantId],
  );
  const r = rows[0] ?? {};
  return {
    failures: r.f_failures === null || r.f_failures === undefined ? null : Number(r.f_failures),
    windowStart: (r.f_window_start as Date | null | undefined) ?? null,
    row: r.m_id === null || r.m_id === undefined ? null : r,
  };
}

function waitFor(failures: number | null, windowStart: Date | null, now: Date, max = MAX_FAILURES): number {
  if (failures === null || windowStart === null || failures < max) return 0;
  const left = FAILURE_WINDOW_SECONDS * 1000 - (now.getTime() - windowStart.getTime());
  return left > 0 ? Math.ceil(left / 1000) : 0;
}

/** Who is calling, from the Authorization header; throws 401/429 catalogue errors. */
export async function authenticate(
  deps: AuthDeps,
  operation: string,
  authorization: string | undefined,
  remoteAddress: string,
  relay?: { credential: string; clientAddress: string },
): Promise<Authenticated> {
  const bearer = bearerToken(authorization);
  // A call relayed by the checkout counts its failures against the client, not the relay.
  const relayed =
    relay &&
    !!deps.serviceKey &&
    sameSecret(relay.credential, deps.serviceKey) &&
    net.isIP(relay.clientAddress) !== 0;
  const clientAddress = relayed ? relay.clientAddress : remoteAddress;
  if (bearer !== null) return { ...(await authenticateUser(deps, bearer, clientAddress)), clientAddress };
  const credential = parseBasic(authorization);
  if (!credential) {
    if (accessOf(operation) === 'public') return { principal: { kind: 'anonymous' }, clientAddress };
    throw new PayframeError('unauthorized');
  }
  const isServiceKey = (key: string) => !!deps.serviceKey && sameSecret(key, deps.serviceKey);
  // The checkout server itself is never throttled: failures relayed through it must not lock it out.
  if (credential.username === SERVICE_USERNAME && isServiceKey(credential.password))
    return { principal: { kind: 'service' }, clientAddress };
  const now = deps.now();
  const subject = `ip:${clientAddress}`;
  const merchantId = MERCHANT_ID.test(credential.username) ? credential.username : null;
  const cache = deps.merchants.cache;
  const digest =
    merchantId !== null && cache.usableFor(deps.db)
      ? cache.credentialDigest(credential.username, credential.password)
      : null;
  if (digest !== null && !cache.mayBeFailing(subject)) {
    const merchant = cache.merchantOfCredential(digest, now.getTime());
    if (merchant) {
      deps.merchants.keyUses.note(deps.db, merchant.id, credential.password, now);
      return { principal: { kind: 'merchant', merchantId: merchant.id }, merchant, clientAddress };
    }
  }
  const generation = cache.generation;
  const found = await throttleAndMerchant(deps.db, subject, merchantId);
  if (waitFor(found.failures, found.windowStart, now, 1) > 0) cache.noteFailing(subject);
  const wait = waitFor(found.failures, found.windowStart, now);
  if (wait > 0) throw throttled(wait);
  // A wrong service key, an unknown merchant and a wrong key all take the same constant-time check.
  const joined = found.row ? merchantOfJoined(found.row) : null;
  const stored = joined ? deps.merchants.transactionKeyOf(joined.keyEnc) : null;
  // During a roll's overlap the previous key authenticates too, until the overlap's end; both are
  // always compared, so the time taken says nothing of which one matched.
  const previous = joined ? deps.merchants.previousKeyOf(joined, now) : null;
  const isCurrent = sameSecret(stored ?? crypto.randomBytes(32).toString('hex'), credential.password);
  const isPrevious = sameSecret(previous ?? crypto.randomBytes(32).toString('hex'), credential.password);
  if (
    credential.username !== SERVICE_USERNAME &&
    (isCurrent || (isPrevious && previous !== null)) &&
    joined
  ) {
    // A disabled merchant's right key is refused like a wrong one, but is not a guess to count.
    if (joined.disabled) throw new PayframeError('unauthorized');
    if (digest !== null)
      cache.remember(joined, generation, digest, isCurrent ? null : (joined.prevKeyUntil ?? null));
    deps.merchants.keyUses.note(deps.db, joined.merchant.id, credential.password, now);
    return {
      principal: { kind: 'merchant', merchantId: joined.merchant.id },
      merchant: joined.merchant,
      clientAddress,
    };
  }
  await recordFailure(deps.db, subject, now);
  cache.noteFailing(subject);
  throw new PayframeError('unauthorized');
}

/** Whether the header carries a credential of a scheme the gateway knows (Basic or Bearer). */
export function hasCredential(authorization: string | undefined): boolean {
  return parseBasic(authorization) !== null || bearerToken(authorization) !== null;
}

/**
 * A merchant user's Login session token (the dashboard). A token that names no session at all is a
 * guess: it counts as a failed sign-in of the address, like a wrong key, and meets the same
 * throttle. A session that ended (idle, expired, signed out) is refused without counting: dashboard
 * tabs waking after a break must not throttle the merchant's integration on the same address.
 */
async function authenticateUser(
  deps: AuthDeps,
  token: string,
  clientAddress: string,
): Promise<Authenticated> {
  const now = deps.now();
  const session = await useSession(deps.db, token, now, deps.userIdleMinutes);
  if (session) return { principal: session.principal, session };
  if (await sessionExisted(deps.db, token)) throw new PayframeError('unauthorized');
  const subject = `ip:${clientAddress}`;
  const wait = await throttledFor(deps.db, subject, now);
  if (wait > 0) throw throttled(wait);
  await recordFailure(deps.db, subject, now);
  deps.merchants.cache.noteFailing(subject);
  throw new PayframeError('unauthorized');
}

/** May this principal call this operation at all? (What it may touch is checked by `actOn`.) */
export function authorizeOperation(principal: Principal, operation: string): void {
  const access = accessOf(operation);
  if (access === 'public') return;
  if (principal.kind === 'anonymous') throw new PayframeError('unauthorized');
  // A user's own session: signed in with a password, its second factor verified or not.
  if (access === 'user') {
    if ((principal.kind === 'merchant' || principal.kind === 'user') && principal.user) return;
    throw new PayframeError('forbidden', "This operation is for a merchant user's own session.");
  }
  if (principal.kind === 'user') {
    throw new PayframeError('second_factor_required');
  }
  if (principal.kind === 'service' && access === 'merchant') {
    throw new PayframeError('forbidden', 'This credential may not call this operation.');
  }
  if (principal.kind === 'merchant' && access === 'service') {
    throw new PayframeError('forbidden', 'This operation is for the checkout server only.');
  }
  if (access === 'merchantUser' && !(principal.kind === 'merchant' && principal.user)) {
    throw new PayframeError(
      'forbidden',
      'This operation is for a signed-in user of the dashboard, not a TransactionKey.',
    );
  }
  // A dashboard user acts as its merchant within its role (user-roles.ts).
  if (principal.kind === 'merchant' && principal.user) {
    const least = leastRoleOf(operation);
    if (!roleAllows(principal.user.role, least)) {
      throw new PayframeError('forbidden', `This operation needs the ${roleTitle(least)} role or higher.`);
    }
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
  // Only the checkout server names the merchant it acts for; anyone else acts for none.
  if (principal.kind !== 'service')
    throw new PayframeError('forbidden', 'This caller may not act on a merchant.');
  // A long id left out reaches the operation as 0 (its default), which names no merchant.
  if (!merchantId || merchantId === '0')
    throw new PayframeError('invalid_request', 'A merchant id is required.');
  return merchantId;
}
