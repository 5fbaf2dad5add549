/**
 * Password hashing with scrypt from node:crypto (DESIGN.md "What the spec leaves open": Login).
 * Encoded in the PHC string style with its parameters, so they can be raised later without
 * invalidating stored hashes:
 *
 *   $scrypt$ln=15,r=8,p=1$<16-byte salt, base64>$<32-byte hash, base64>
 *
 * N = 2^15, r = 8, p = 1 (OWASP Password Storage Cheat Sheet's scrypt minimum: 32 MiB, ~50–100 ms).
 * Verification recomputes with the stored parameters and compares in constant time.
 */
import crypto from 'node:crypto';

export interface ScryptParams {
  /** log2 of the cost N. */
  ln: number;
  r: number;
  p: number;
}

export const DEFAULT_PARAMS: ScryptParams = { ln: 15, r: 8, p: 1 };
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Refuse stored parameters that would take unbounded memory or time (a corrupted row). */
const MAX_LN = 20;

function scrypt(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const N = 2 ** params.ln;
  // node's default limit (32 MiB) is just below what N=2^15, r=8 needs (128·N·r plus overhead).
  const maxmem = 128 * N * params.r * params.p + 16 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    crypto.scrypt(
      password.normalize('NFC'),
      salt,
      KEY_BYTES,
      { N, r: params.r, p: params.p, maxmem },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');

export async function hashPassword(password: string, params: ScryptParams = DEFAULT_PARAMS): Promise<string> {
  const salt = crypto.randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, params);
  return `$scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${b64(salt)}$${b64(key)}`;
}

const ENCODED = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/** Does `password` match `encoded`? A malformed `encoded` never matches (and costs the same work). */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const m = ENCODED.exec(encoded);
  const params = m ? { ln: Number(m[1]), r: Number(m[2]), p: Number(m[3]) } : DEFAULT_PARAMS;
  const valid = !!m && params.ln >= 1 && params.ln <= MAX_LN && params.r >= 1 && params.p >= 1;
  const salt = valid ? Buffer.from(m[4] ?? '', 'base64') : crypto.randomBytes(SALT_BYTES);
  const expected = valid ? Buffer.from(m[5] ?? '', 'base64') : crypto.randomBytes(KEY_BYTES);
  const actual = await scrypt(password, salt, valid ? params : DEFAULT_PARAMS);
  return valid && expected.length === actual.length && crypto.timingSafeEqual(expected, actual);
}

let dummy: Promise<string> | undefined;

/**
 * A hash of a random password, made once: Login verifies against it when the user does not exist,
 * so an unknown user name costs the same scrypt work as a wrong password.
 */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(crypto.randomBytes(16).toString('hex'));
  return dummy;
}
