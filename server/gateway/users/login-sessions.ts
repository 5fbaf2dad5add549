/**
 * A merchant user's Login session as a credential (the dashboard, issue 15): the token Login
 * answers, sent back as `Authorization: Bearer ls_…`. A session lasts at most 12 hours from the
 * sign-in (SESSION_HOURS), ends after 15 minutes without a call (OWASP ASVS V7.3), on sign-out and
 * on a password reset, and acts as its merchant only once its second factor is verified.
 *
 * Each call with the token refreshes the idle time in the same statement that checks it, so
 * concurrent calls on several instances agree on whether the session still lives.
 */
import type { Queryable } from '../../db/database.ts';
import type { Principal, SignedInUser } from '../port.ts';
import { isUserRole } from '../user-roles.ts';
import { isSessionToken, tokenHash } from './user-store.ts';

/** The longest a session may idle (PCI DSS 8.2.8); DASHBOARD_IDLE_MINUTES may make it shorter. */
export const IDLE_MINUTES = 15;

export interface SessionState {
  principal: Extract<Principal, { kind: 'merchant' | 'user' }> & { user: SignedInUser };
  userId: string;
  merchantId: string;
  /** The user has a second factor (else it must enrol before anything else). */
  enrolled: boolean;
  secondFactorVerified: boolean;
  expiresAt: Date;
  idleExpiresAt: Date;
}

interface SessionRow {
  token_hash: string;
  user_id: string;
  merchant_id: string;
  username: string;
  role: string;
  expires_at: Date;
  last_used_at: Date;
  second_factor_at: Date | null;
  totp_enrolled_at: Date | null;
}

/**
 * The live session of a token, its idle time refreshed; null when the token names no session, or
 * one that ended, ran out, idled out, or whose merchant or user is disabled (read on every call:
 * no cache stands between a disabled user and its next call).
 */
export async function useSession(
  q: Queryable,
  token: string,
  now: Date,
  idleMinutes = IDLE_MINUTES,
): Promise<SessionState | null> {
  if (!isSessionToken(token)) return null;
  const { rows } = await q.query<SessionRow>(
    `with s as (
       update login_sessions set last_used_at = $2
       where token_hash = $1 and ended_at is null and expires_at > $2
         and coalesce(last_used_at, created_at) > $2::timestamptz - make_interval(mins => $3)
       returning token_hash, user_id, expires_at, last_used_at, second_factor_at)
     select s.*, u.merchant_id, u.username, u.role, u.totp_enrolled_at
     from s join merchant_users u on u.id = s.user_id join merchants m on m.id = u.merchant_id
     where m.disabled_at is null and u.disabled_at is null`,
    [tokenHash(token), now, idleMinutes],
  );
  const r = rows[0];
  if (!r) return null;
  const user: SignedInUser = {
    userId: String(r.user_id),
    userName: r.username,
    // The column's check admits the four roles only; anything else is read as the least.
    role: isUserRole(r.role) ? r.role : 'viewer',
    sessionId: r.token_hash,
  };
  const merchantId = String(r.merchant_id);
  const verified = r.second_factor_at !== null;
  return {
    principal: verified ? { kind: 'merchant', merchantId, user } : { kind: 'user', merchantId, user },
    userId: user.userId,
    merchantId,
    enrolled: r.totp_enrolled_at !== null,
    secondFactorVerified: verified,
    expiresAt: r.expires_at,
    idleExpiresAt: new Date(
      Math.min(r.last_used_at.getTime() + idleMinutes * 60_000, r.expires_at.getTime()),
    ),
  };
}

/** Whether a token names a session that existed, whatever became of it (else it is a guess). */
export async function sessionExisted(q: Queryable, token: string): Promise<boolean> {
  if (!isSessionToken(token)) return false;
  const { rows } = await q.query('select 1 from login_sessions where token_hash = $1', [tokenHash(token)]);
  return rows.length > 0;
}

/** Marks the session's second factor verified: from now on it acts as its merchant. */
export async function verifySession(q: Queryable, sessionId: string, now: Date): Promise<void> {
  await q.query(
    `update login_sessions set second_factor_at = $2, totp_pending_enc = null
      where token_hash = $1 and second_factor_at is null`,
    [sessionId, now],
  );
}

/** Ends the session (sign-out); its token is refused from now on. */
export async function endSession(q: Queryable, sessionId: string, now: Date): Promise<void> {
  await q.query('update login_sessions set ended_at = $2 where token_hash = $1 and ended_at is null', [
    sessionId,
    now,
  ]);
}

/** Ends every session of a user (locked out while signing in). */
export async function endUserSessions(q: Queryable, userId: string, now: Date): Promise<void> {
  await q.query('update login_sessions set ended_at = $2 where user_id = $1 and ended_at is null', [
    userId,
    now,
  ]);
}
