/**
 * Password reset links (ForgotPassword; docs/gateway-users.md): a link
 * `${PUBLIC_URL}/reset-password?token=pr_…` carries a 256-bit random token, stored only as its
 * SHA-256 hash. It works once, for 30 minutes; a new link replaces the user's unused ones, and at
 * most 5 are made per user per hour (no mail bombing through ForgotPassword).
 *
 * Using it sets the new password, clears a lock-out (the e-mail confirmed who it is, PCI-834-1)
 * and ends the user's sign-in sessions (credentials changed).
 */
import crypto from 'node:crypto';
import type { Database, Queryable } from '../../db/database.ts';
import { PayframeError } from '../../errors.ts';
import { hashPassword } from './password-hash.ts';
import { passwordProblem, tokenHash } from './user-store.ts';

export const RESET_MINUTES = 30;
export const MAX_RESETS_PER_HOUR = 5;
const TOKEN = /^pr_[A-Za-z0-9_-]{43}$/;

export type ResetTokenState = 'valid' | 'unknown' | 'used' | 'expired';

export const RESET_TOKEN_MESSAGES: Record<Exclude<ResetTokenState, 'valid'>, string> = {
  unknown:
    'This password reset link is not valid. Check that you opened the whole link, or ask for a new one.',
  used: 'This password reset link has already been used. Ask for a new one if you need to reset your password again.',
  expired: `This password reset link has expired (links work for ${RESET_MINUTES} minutes). Ask for a new one.`,
};

/**
 * A new reset token for the user, or null when the user already had 5 in the last hour. Unused
 * older tokens stop working.
 */
export async function createResetToken(db: Database, userId: string, now: Date): Promise<string | null> {
  return db.transaction(async (tx) => {
    // One request at a time per user, so the hourly count holds under concurrency.
    await tx.query('select id from merchant_users where id = $1 for update', [userId]);
    const { rows } = await tx.query<{ n: string }>(
      `select count(*) as n from password_reset_tokens
       where user_id = $1 and created_at > $2::timestamptz - interval '1 hour'`,
      [userId, now],
    );
    if (Number(rows[0]?.n ?? 0) >= MAX_RESETS_PER_HOUR) return null;
    await tx.query(
      'update password_reset_tokens set expires_at = $2 where user_id = $1 and used_at is null and expires_at > $2',
      [userId, now],
    );
    const token = `pr_${crypto.randomBytes(32).toString('base64url')}`;
    await tx.query(
      'insert into password_reset_tokens (token_hash, user_id, expires_at, created_at) values ($1, $2, $3, $4)',
      [tokenHash(token), userId, new Date(now.getTime() + RESET_MINUTES * 60_000), now],
    );
    return token;
  });
}

/** What a token is, without using it (the reset page shows an expired link as such at once). */
export async function resetTokenState(q: Queryable, token: string, now: Date): Promise<ResetTokenState> {
  if (!TOKEN.test(token)) return 'unknown';
  const { rows } = await q.query<{ used_at: Date | null; expires_at: Date }>(
    'select used_at, expires_at from password_reset_tokens where token_hash = $1',
    [tokenHash(token)],
  );
  const r = rows[0];
  if (!r) return 'unknown';
  if (r.used_at) return 'used';
  return r.expires_at.getTime() > now.getTime() ? 'valid' : 'expired';
}

/**
 * Sets a new password with a reset token, once. Throws `validation_failed` (field `password`) for a
 * weak password, before the token is spent; `invalid_request` with the reason for an unknown, used
 * or expired token. Resolves to the user's id.
 */
export async function resetPassword(
  db: Database,
  token: string,
  password: string,
  now: Date,
): Promise<string> {
  const weak = passwordProblem(password);
  if (weak) throw new PayframeError('validation_failed', weak.message, [weak]);
  const state = await resetTokenState(db, token, now);
  if (state !== 'valid') throw new PayframeError('invalid_request', RESET_TOKEN_MESSAGES[state]);
  const passwordHash = await hashPassword(password);
  const userId = await db.transaction(async (tx) => {
    // Spends the token: of two concurrent uses, one updates the row, the other finds it used.
    const { rows } = await tx.query<{ user_id: string }>(
      `update password_reset_tokens set used_at = $2
       where token_hash = $1 and used_at is null and expires_at > $2 returning user_id`,
      [tokenHash(token), now],
    );
    const id = rows[0]?.user_id;
    if (id === undefined) return null;
    await tx.query(
      `update merchant_users set password_hash = $2, password_changed_at = $3, failed_attempts = 0, locked_until = null
       where id = $1`,
      [id, passwordHash, now],
    );
    await tx.query('delete from login_sessions where user_id = $1', [id]);
    return String(id);
  });
  if (userId === null) {
    const again = await resetTokenState(db, token, now);
    throw new PayframeError('invalid_request', RESET_TOKEN_MESSAGES[again === 'valid' ? 'used' : again]);
  }
  return userId;
}
