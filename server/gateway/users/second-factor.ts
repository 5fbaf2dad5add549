/**
 * The dashboard's second factor (issue 15; PCI DSS 8.4, OWASP ASVS V6): every merchant user enrols
 * a TOTP authenticator at its first sign-in and gets ten single-use recovery codes, shown once.
 *
 * - The setup key is stored encrypted under the vault's secret key (SecretBox), as TransactionKeys
 *   are. Enrolment keeps it pending on the session that asked until a code made with it is verified.
 * - A code is accepted at most once: the step it matched must be later than the last accepted one,
 *   checked and recorded in one statement, so two instances cannot both accept the same code.
 * - Recovery codes carry 80 random bits; each is stored as its SHA-256 and marked used in the
 *   statement that accepts it.
 * - A wrong code counts as a failed sign-in (user-store.ts): the tenth in a row locks the user.
 */
import crypto from 'node:crypto';
import type { Queryable } from '../../db/database.ts';
import type { SecretBox } from '../secret-box.ts';
import { base32Encode, matchingStep, newTotpSecret } from './totp.ts';

export const RECOVERY_CODE_COUNT = 10;

export interface SecondFactorRow {
  totp_secret_enc: string | null;
  totp_enrolled_at: Date | null;
  /** The pending setup key of the session asking (enrolment only). */
  totp_pending_enc: string | null;
}

/** The user's second factor, with the pending key of one of its sessions. */
export async function secondFactorOf(
  q: Queryable,
  userId: string,
  sessionId: string,
): Promise<SecondFactorRow | null> {
  const { rows } = await q.query<SecondFactorRow>(
    `select u.totp_secret_enc, u.totp_enrolled_at, s.totp_pending_enc
       from merchant_users u left join login_sessions s on s.token_hash = $2 and s.user_id = u.id
      where u.id = $1`,
    [userId, sessionId],
  );
  return rows[0] ?? null;
}

/**
 * A new pending setup key for the session of a user not enrolled yet (null when it is enrolled).
 * The key is the session's: each sign-in enrolling sees its own, and only a code of that key
 * completes the enrolment from that session.
 */
export async function beginEnrolment(
  q: Queryable,
  secrets: SecretBox,
  userId: string,
  sessionId: string,
): Promise<string | null> {
  const setupKey = newTotpSecret();
  const { rowCount } = await q.query(
    `update login_sessions s set totp_pending_enc = $3
       from merchant_users u
      where s.token_hash = $2 and s.user_id = $1 and u.id = s.user_id and u.totp_enrolled_at is null`,
    [userId, sessionId, secrets.encrypt(setupKey)],
  );
  return rowCount === 1 ? setupKey : null;
}

/**
 * Accepts a TOTP code against the user's key (the session's pending one while enrolling): true
 * when the code matches a step later than any accepted before, which is then recorded. Completing
 * an enrolment makes the pending key the user's.
 */
export async function acceptTotp(
  q: Queryable,
  secrets: SecretBox,
  userId: string,
  row: SecondFactorRow,
  code: string,
  now: Date,
): Promise<boolean> {
  const enrolling = row.totp_enrolled_at === null;
  const blob = enrolling ? row.totp_pending_enc : row.totp_secret_enc;
  if (!blob) return false;
  const step = matchingStep(secrets.decrypt(blob), code, now);
  if (step === null) return false;
  const { rowCount } = enrolling
    ? await q.query(
        `update merchant_users set totp_secret_enc = $4, totp_enrolled_at = $3, totp_last_step = $2
         where id = $1 and totp_enrolled_at is null`,
        [userId, step, now, blob],
      )
    : await q.query(
        `update merchant_users set totp_last_step = $2
         where id = $1 and totp_secret_enc = $3 and (totp_last_step is null or totp_last_step < $2)`,
        [userId, step, blob],
      );
  return rowCount === 1;
}

const recoveryHash = (code: string) =>
  crypto.createHash('sha256').update(normalizeRecoveryCode(code)).digest('base64url');

/** Recovery codes as typed: any case, with or without the dashes and spaces. */
export function normalizeRecoveryCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}

/** Looks like a recovery code (16 base32 characters once normalised) rather than a TOTP code. */
export function isRecoveryCodeShape(code: string): boolean {
  return /^[A-Z2-7]{16}$/.test(normalizeRecoveryCode(code));
}

/** Ten new recovery codes for the user, replacing any it had; answered once, stored hashed. */
export async function newRecoveryCodes(q: Queryable, userId: string, now: Date): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    base32Encode(crypto.randomBytes(10)).match(/.{4}/g)!.join('-'),
  );
  await q.query('delete from user_recovery_codes where user_id = $1', [userId]);
  await q.query(
    `insert into user_recovery_codes (user_id, code_hash, created_at)
     select $1, h, $3 from unnest($2::text[]) as h`,
    [userId, codes.map(recoveryHash), now],
  );
  return codes;
}

/** Uses a recovery code: true when it was the user's and unused (it is spent now). */
export async function useRecoveryCode(
  q: Queryable,
  userId: string,
  code: string,
  now: Date,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `update user_recovery_codes set used_at = $3
     where user_id = $1 and code_hash = $2 and used_at is null`,
    [userId, recoveryHash(code), now],
  );
  return rowCount === 1;
}
