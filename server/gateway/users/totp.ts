/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP), the dashboard's second factor as
 * every authenticator app makes them: HMAC-SHA-1, a 30-second step counted from the Unix epoch,
 * six digits. A code is accepted one step either side of now (clocks drift; a code typed as it
 * turns), and the step it matched is kept so the same code is never accepted twice (RFC 6238 §5.2).
 *
 * The setup key is the secret in base32 (RFC 4648, no padding), as apps take it when typed in and
 * as the `otpauth://` URI in the QR code carries it.
 */
import crypto from 'node:crypto';

export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of now that still match (RFC 6238 §5.2 recommends at most one). */
export const TOTP_WINDOW = 1;
/** 160 bits: the size of SHA-1's output, as RFC 4226 §4 recommends. */
const SECRET_BYTES = 20;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes base32 as people type it: any case, spaces and padding ignored; null when malformed. */
export function base32Decode(text: string): Buffer | null {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of clean) {
    const index = ALPHABET.indexOf(ch);
    if (index < 0) return null;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new random secret, as its base32 setup key. */
export function newTotpSecret(): string {
  return base32Encode(crypto.randomBytes(SECRET_BYTES));
}

/** The step a moment falls in. */
export function totpStep(at: Date): number {
  return Math.floor(at.getTime() / 1000 / TOTP_STEP_SECONDS);
}

/** HOTP (RFC 4226 §5.3): the code of one counter value, with its leading zeros. */
export function hotp(secret: Uint8Array, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = crypto.createHmac('sha1', secret).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** TOTP_DIGITS).padStart(TOTP_DIGITS, '0');
}

/** The code an authenticator app shows at a moment for a setup key. */
export function totpCode(setupKey: string, at: Date): string {
  const secret = base32Decode(setupKey);
  if (!secret) throw new RangeError('The setup key is not base32.');
  return hotp(secret, totpStep(at));
}

/**
 * The step a code matches within the window around `at`, or null. Every step of the window is
 * compared in constant time, so the answer's time does not tell which one (or whether one) matched.
 */
export function matchingStep(setupKey: string, code: string, at: Date): number | null {
  const secret = base32Decode(setupKey);
  if (!secret || !/^\d{6}$/.test(code)) return null;
  const now = totpStep(at);
  let found: number | null = null;
  for (let step = now - TOTP_WINDOW; step <= now + TOTP_WINDOW; step++) {
    const same = crypto.timingSafeEqual(Buffer.from(hotp(secret, step)), Buffer.from(code));
    if (same && found === null) found = step;
  }
  return found;
}

/** The `otpauth://` URI an authenticator app reads from the QR code (Key Uri Format). */
export function otpAuthUri(issuer: string, account: string, setupKey: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({
    secret: setupKey,
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
