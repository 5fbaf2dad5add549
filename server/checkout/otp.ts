/**
 * One-time codes and wallet credentials of the checkout (DESIGN.md §9; security-requirements.md
 * OTP-2…5, OTP-10, SESS-1/2; tables in migration 0011_checkout_otp.sql).
 *
 * - A send creates a verification (random id) with one code row per contact asked for. A row holds
 *   only HMAC-SHA256(secret, session ␊ channel ␊ contact ␊ verification id ␊ code) (OTP-2, OTP-5);
 *   a contact without a wallet gets the HMAC of a random 256-bit value instead, which no code
 *   matches, so storage and work are the same either way (OTP-7). A new send closes every open
 *   verification of the session (OTP-5).
 * - A verification lives 10 minutes (OTP-3), works once (OTP-4), and is burned by its 5th wrong
 *   try (OTP-6): wrong tries are counted over the whole verification, so with two codes a guesser
 *   has at most 5 × 2 / 10⁶ = 10⁻⁵ chance per send.
 * - Success issues a wallet credential (256 random bits, stored as SHA-256): bound to the session
 *   and the one contact proven, 15 minutes, and it revokes any older credential of the session
 *   (OTP-10, SESS-1). The verification is closed in the same transaction, so it cannot be reused.
 */
import crypto from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import type { CheckoutDeps } from './deps.ts';
import type { Rule } from './rate-limit.ts';

export const OTP_TTL_MS = 10 * 60_000;
export const MAX_WRONG_TRIES = 5;
export const WALLET_TOKEN_TTL_MS = 15 * 60_000;

export type OtpChannel = 'email' | 'sms';

export interface Contact {
  channel: OtpChannel;
  /** Normal form: lower-cased e-mail, or E.164 phone. */
  contact: string;
}

export interface WalletLimits {
  /** Sends to one e-mail address or phone number (per-destination, OTP-9; SMS pumping). */
  sendPerDestination: Rule;
  /** Sends from one client address. */
  sendPerIp: Rule;
  /** Sends on one checkout session. */
  sendPerSession: Rule;
  /** Verify tries from one client address. */
  verifyPerIp: Rule;
  /** Verify tries on one checkout session. */
  verifyPerSession: Rule;
  /** Card list and remove calls from one client address. */
  walletPerIp: Rule;
}

const HOUR = 60 * 60_000;
export const DEFAULT_WALLET_LIMITS: WalletLimits = {
  sendPerDestination: { limit: 5, windowMs: HOUR },
  sendPerIp: { limit: 20, windowMs: HOUR },
  sendPerSession: { limit: 5, windowMs: HOUR },
  verifyPerIp: { limit: 30, windowMs: 15 * 60_000 },
  verifyPerSession: { limit: 20, windowMs: 15 * 60_000 },
  walletPerIp: { limit: 120, windowMs: 60_000 },
};

function hmacHex(secret: Buffer, parts: readonly string[]): string {
  return crypto.createHmac('sha256', secret).update(parts.join('\n')).digest('hex');
}

export function codeHmac(
  secret: Buffer,
  session: string,
  c: Contact,
  verificationId: string,
  code: string,
): string {
  return hmacHex(secret, ['checkout-otp', session, c.channel, c.contact, verificationId, code]);
}

/** A rate-limit bucket name for a destination, without the contact in clear text. */
export function destinationBucket(secret: Buffer, c: Contact): string {
  return `otp:dest:${hmacHex(secret, ['checkout-otp-destination', c.channel, c.contact]).slice(0, 32)}`;
}

export function hashWalletToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/**
 * Records a send: closes the session's open verifications and stores one HMAC per contact (the
 * code's when the gateway made one, else a random value's). Answers the new verification id.
 */
export async function createVerification(
  deps: CheckoutDeps,
  session: string,
  contacts: readonly (Contact & { code: string | null })[],
): Promise<{ verificationId: string; expiresAt: Date }> {
  const verificationId = crypto.randomBytes(16).toString('base64url');
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + OTP_TTL_MS);
  await deps.db.transaction(async (tx) => {
    await tx.query(
      `update checkout_otp_verifications set closed_at = $2, close_reason = 'superseded'
       where session_token = $1 and closed_at is null`,
      [session, now],
    );
    await tx.query(
      `insert into checkout_otp_verifications (id, session_token, expires_at, created_at)
       values ($1, $2, $3, $4)`,
      [verificationId, session, expiresAt, now],
    );
    for (const c of contacts) {
      const secretValue = c.code ?? crypto.randomBytes(32).toString('hex');
      await tx.query(
        `insert into checkout_otp_codes (verification_id, channel, contact, code_hmac)
         values ($1, $2, $3, $4)`,
        [
          verificationId,
          c.channel,
          c.contact,
          codeHmac(deps.secret, session, c, verificationId, secretValue),
        ],
      );
    }
  });
  return { verificationId, expiresAt };
}

export type VerifyOutcome =
  | { ok: true; walletToken: string; expiresAt: Date; contact: Contact }
  | { ok: false; reason: 'wrong' | 'closed' };

interface VerificationRow {
  failed_attempts: number;
  expires_at: Date;
  closed_at: Date | null;
}

/** Checks a code; on success closes the verification and issues the wallet credential, at once. */
export async function verifyCode(
  deps: CheckoutDeps,
  session: string,
  verificationId: string,
  code: string,
): Promise<VerifyOutcome> {
  return deps.db.transaction(async (tx): Promise<VerifyOutcome> => {
    const now = deps.now();
    const { rows } = await tx.query<VerificationRow>(
      `select failed_attempts, expires_at, closed_at from checkout_otp_verifications
       where id = $1 and session_token = $2 for update`,
      [verificationId, session],
    );
    const v = rows[0];
    if (
      !v ||
      v.closed_at !== null ||
      Number(v.failed_attempts) >= MAX_WRONG_TRIES ||
      new Date(v.expires_at).getTime() <= now.getTime()
    ) {
      return { ok: false, reason: 'closed' };
    }
    const codes = await tx.query<{ channel: OtpChannel; contact: string; code_hmac: string }>(
      'select channel, contact, code_hmac from checkout_otp_codes where verification_id = $1 order by channel',
      [verificationId],
    );
    let proven: Contact | null = null;
    for (const row of codes.rows) {
      const c: Contact = { channel: row.channel, contact: row.contact };
      const given = Buffer.from(codeHmac(deps.secret, session, c, verificationId, code), 'hex');
      const stored = Buffer.from(row.code_hmac, 'hex');
      // Every row is compared (no early exit), in constant time.
      if (given.length === stored.length && crypto.timingSafeEqual(given, stored) && !proven) proven = c;
    }
    if (!proven) {
      const failed = Number(v.failed_attempts) + 1;
      const burned = failed >= MAX_WRONG_TRIES;
      await tx.query(
        `update checkout_otp_verifications set failed_attempts = $2, closed_at = $3, close_reason = $4
         where id = $1`,
        [verificationId, failed, burned ? now : null, burned ? 'burned' : null],
      );
      return { ok: false, reason: failed >= MAX_WRONG_TRIES ? 'closed' : 'wrong' };
    }
    await tx.query(
      `update checkout_otp_verifications set closed_at = $2, close_reason = 'verified' where id = $1`,
      [verificationId, now],
    );
    const issued = await issueWalletToken(tx, session, proven, now);
    return { ok: true, ...issued, contact: proven };
  });
}

async function issueWalletToken(
  tx: Queryable,
  session: string,
  contact: Contact,
  now: Date,
): Promise<{ walletToken: string; expiresAt: Date }> {
  // One live credential per session: the older one dies (SESS-1).
  await tx.query(
    'update checkout_wallet_tokens set revoked_at = $2 where session_token = $1 and revoked_at is null',
    [session, now],
  );
  const walletToken = `wt_${crypto.randomBytes(32).toString('base64url')}`;
  const expiresAt = new Date(now.getTime() + WALLET_TOKEN_TTL_MS);
  await tx.query(
    `insert into checkout_wallet_tokens (token_hash, session_token, channel, contact, expires_at, created_at)
     values ($1, $2, $3, $4, $5, $6)`,
    [hashWalletToken(walletToken), session, contact.channel, contact.contact, expiresAt, now],
  );
  return { walletToken, expiresAt };
}

/** The contact a wallet credential proves on this session, or null (unknown, other session, expired, revoked). */
export async function walletContact(
  deps: CheckoutDeps,
  session: string,
  walletToken: string,
): Promise<Contact | null> {
  if (!/^wt_[A-Za-z0-9_-]{43}$/.test(walletToken)) return null;
  const { rows } = await deps.db.query<{ channel: OtpChannel; contact: string }>(
    `select channel, contact from checkout_wallet_tokens
     where token_hash = $1 and session_token = $2 and revoked_at is null and expires_at > $3`,
    [hashWalletToken(walletToken), session, deps.now()],
  );
  const row = rows[0];
  return row ? { channel: row.channel, contact: row.contact } : null;
}

/** Ends every wallet credential of a session (it is no longer open). */
export async function revokeWalletTokens(deps: CheckoutDeps, session: string): Promise<void> {
  await deps.db.query(
    'update checkout_wallet_tokens set revoked_at = $2 where session_token = $1 and revoked_at is null',
    [session, deps.now()],
  );
}

/** Codes and wallet credentials are kept a day after they were made (for support), then deleted. */
export const OTP_RETENTION_MS = 24 * 60 * 60 * 1000;

export async function pruneOtp(q: Queryable, now: Date): Promise<number> {
  const before = new Date(now.getTime() - OTP_RETENTION_MS);
  const codes = await q.query('delete from checkout_otp_verifications where created_at < $1', [before]);
  const tokens = await q.query('delete from checkout_wallet_tokens where created_at < $1', [before]);
  return codes.rowCount + tokens.rowCount;
}
