/**
 * Merchant users: who may sign in with Login (docs/gateway-users.md). A user belongs to one
 * merchant; user names are unique across merchants, compared case-insensitively. Passwords are
 * scrypt hashes (password-hash.ts) and must have at least 12 characters with letters and digits
 * (PCI-836-1). Ten consecutive failed sign-ins lock the user for 30 minutes (PCI-834-1); the
 * counters are updated in single statements, so concurrent attempts on several instances add up.
 */
import crypto from 'node:crypto';
import type { FieldError } from '../../../shared/errors.ts';
import type { Queryable } from '../../db/database.ts';
import { PayframeError } from '../../errors.ts';
import { containsCardNumber } from '../../../shared/card/card-number-in-text.ts';
import { hashPassword } from './password-hash.ts';
import { isUserRole, type UserRole } from '../user-roles.ts';

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;
export const MAX_FAILED_ATTEMPTS = 10;
export const LOCK_MINUTES = 30;
export const SESSION_HOURS = 12;

export interface MerchantUser {
  id: string;
  merchantId: string;
  merchantName: string;
  username: string;
  email: string | null;
  role: UserRole;
  passwordHash: string;
  failedAttempts: number;
  lockedUntil: Date | null;
  /** Has a second factor (the dashboard's TOTP): a sign-in completes only with its code. */
  secondFactorEnrolled: boolean;
  /** Disabled by an Owner (the dashboard's team): its sign-in is refused like a locked user's. */
  disabled: boolean;
  createdAt: Date;
}

interface UserRow {
  id: string;
  merchant_id: string;
  merchant_name: string;
  username: string;
  email: string | null;
  role: string;
  password_hash: string;
  failed_attempts: number;
  locked_until: Date | null;
  totp_enrolled_at: Date | null;
  disabled_at?: Date | null;
  created_at: Date;
}

const fromRow = (r: UserRow): MerchantUser => ({
  id: String(r.id),
  merchantId: String(r.merchant_id),
  merchantName: r.merchant_name,
  username: r.username,
  email: r.email,
  role: isUserRole(r.role) ? r.role : 'viewer',
  passwordHash: r.password_hash,
  failedAttempts: r.failed_attempts,
  lockedUntil: r.locked_until,
  secondFactorEnrolled: r.totp_enrolled_at !== null,
  disabled: r.disabled_at !== null && r.disabled_at !== undefined,
  createdAt: r.created_at,
});

const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._@+-]{2,99}$/;
const EMAIL = /^[^\s@<>()[\],;:"\\]{1,64}@[^\s@<>()[\],;:"\\]+\.[^\s@<>()[\],;:"\\]+$/;
const MERCHANT_ID = /^[1-9]\d{0,18}$/;

function fieldError(field: string, message: string): PayframeError {
  return new PayframeError('validation_failed', message, [{ field, code: 'invalid', message }]);
}

/** What is wrong with a new password (PCI-836-1), or null. */
export function passwordProblem(password: string, field = 'password'): FieldError | null {
  const problem =
    password.length < PASSWORD_MIN_LENGTH
      ? `The password must have at least ${PASSWORD_MIN_LENGTH} characters.`
      : password.length > PASSWORD_MAX_LENGTH
        ? `The password must have at most ${PASSWORD_MAX_LENGTH} characters.`
        : !/\p{L}/u.test(password) || !/\p{Nd}/u.test(password)
          ? 'The password must contain both letters and digits.'
          : null;
  return problem ? { field, code: 'weak_password', message: problem } : null;
}

export interface NewUser {
  merchantId: string;
  username: string;
  password: string;
  email?: string | null;
  /** Owner when absent, as every user was before roles. */
  role?: UserRole;
}

export async function createUser(q: Queryable, input: NewUser): Promise<MerchantUser> {
  const username = input.username.trim();
  if (!USERNAME.test(username) || containsCardNumber(username)) {
    throw fieldError(
      'username',
      'The user name must be 3 to 100 characters: letters, digits and . _ @ + - (starting with a letter or digit).',
    );
  }
  const email = input.email?.trim() || null;
  if (email !== null && (email.length > 254 || !EMAIL.test(email))) {
    throw fieldError('email', 'The e-mail address is not valid.');
  }
  const weak = passwordProblem(input.password);
  if (weak) throw new PayframeError('validation_failed', weak.message, [weak]);
  if (!MERCHANT_ID.test(input.merchantId))
    throw fieldError('merchantId', 'The merchant id must be a number.');
  const merchant = await q.query('select 1 from merchants where id = $1', [input.merchantId]);
  if (merchant.rows.length === 0) throw new PayframeError('not_found', `No merchant ${input.merchantId}.`);
  const passwordHash = await hashPassword(input.password);
  try {
    await q.query(
      `insert into merchant_users (merchant_id, username, email, password_hash, role)
       values ($1, $2, $3, $4, $5)`,
      [input.merchantId, username, email, passwordHash, input.role ?? 'owner'],
    );
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw fieldError('username', 'This user name is taken.');
    throw err;
  }
  const user = await findUserByName(q, username);
  if (!user) throw new Error('the new user is missing');
  return user;
}

export async function findUserByName(q: Queryable, username: string): Promise<MerchantUser | null> {
  const { rows } = await q.query<UserRow>(
    `select u.*, m.name as merchant_name from merchant_users u join merchants m on m.id = u.merchant_id
     where lower(u.username) = lower($1)`,
    [username.trim()],
  );
  return rows[0] ? fromRow(rows[0]) : null;
}

export function isLocked(user: MerchantUser, now: Date): boolean {
  return user.lockedUntil !== null && user.lockedUntil.getTime() > now.getTime();
}

/**
 * Counts a failed sign-in; the 10th in a row locks the user until now + 30 minutes. A lock that
 * has run out starts the count again. Resolves to whether the user is now locked.
 */
export async function recordFailedLogin(q: Queryable, userId: string, now: Date): Promise<boolean> {
  const { rows } = await q.query<{ locked: boolean }>(
    `update merchant_users set
       failed_attempts = case when locked_until <= $2 then 1 else failed_attempts + 1 end,
       locked_until = case
         when (case when locked_until <= $2 then 1 else failed_attempts + 1 end) >= $3
           then $2::timestamptz + make_interval(mins => $4)
         else null end
     where id = $1
     returning locked_until is not null as locked`,
    [userId, now, MAX_FAILED_ATTEMPTS, LOCK_MINUTES],
  );
  return rows[0]?.locked ?? false;
}

/**
 * Clears the failure count, unless a concurrent failure locked the user meanwhile (then false).
 * With `passwordOnly`, for a user with a second factor, the count stays: the sign-in is complete
 * only once its code is verified, so a known password cannot buy fresh guesses at the code.
 */
export async function recordSuccessfulLogin(
  q: Queryable,
  userId: string,
  now: Date,
  passwordOnly = false,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `update merchant_users set
       failed_attempts = case
         when locked_until <= $2 then 0 -- a lock that ran out starts the count again
         when $3 and totp_enrolled_at is not null then failed_attempts
         else 0 end,
       locked_until = null, last_login_at = $2
     where id = $1 and (locked_until is null or locked_until <= $2)`,
    [userId, now, passwordOnly],
  );
  return rowCount === 1;
}

/** SHA-256 of a token: tokens are 256-bit random values, so a fast hash is enough to store them. */
export function tokenHash(token: string): string {
  return crypto.createHash('sha256').update(token).digest('base64url');
}

export interface LoginSession {
  token: string;
  expiresAt: Date;
}

/** A Login session token's shape: `ls_` + 32 random bytes, base64url. */
export function isSessionToken(token: string): boolean {
  return /^ls_[A-Za-z0-9_-]{43}$/.test(token);
}

/** A new opaque session token (`ls_` + 32 random bytes, base64url), stored as its hash, 12 h. */
export async function createLoginSession(q: Queryable, userId: string, now: Date): Promise<LoginSession> {
  const token = `ls_${crypto.randomBytes(32).toString('base64url')}`;
  const expiresAt = new Date(now.getTime() + SESSION_HOURS * 3600_000);
  await q.query(
    'insert into login_sessions (token_hash, user_id, expires_at, created_at) values ($1, $2, $3, $4)',
    [tokenHash(token), userId, expiresAt, now],
  );
  return { token, expiresAt };
}
