/**
 * Money as integer minor units (cents), never floats (DESIGN.md §3). The contract carries decimals
 * as strings that keep their scale ("10.50"); the domain converts them here.
 */

export class AmountError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AmountError';
  }
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;
/** The largest amount numeric(12,2) holds: 9,999,999,999.99. */
export const MAX_CENTS = 999_999_999_999n;

/** Cents from a decimal string; at most two decimals (trailing zeros beyond are fine: "1.500"). */
export function toCents(value: string): bigint {
  const m = DECIMAL.exec(value.trim());
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new AmountError(`'${value}' is not an amount.`);
  const [, sign, whole = '', frac = ''] = m;
  const significant = frac.replace(/0+$/, '');
  if (significant.length > 2) throw new AmountError(`'${value}' has more than two decimals.`);
  const cents = BigInt(whole || '0') * 100n + BigInt(`${significant}00`.slice(0, 2));
  const signed = sign === '-' ? -cents : cents;
  if (signed > MAX_CENTS || signed < -MAX_CENTS) throw new AmountError(`'${value}' is too large.`);
  return signed;
}

/** A positive amount in cents, or an AmountError a person can act on. */
export function toPositiveCents(value: string, what = 'Amount'): bigint {
  let cents: bigint;
  try {
    cents = toCents(value);
  } catch (err) {
    throw new AmountError(`${what} ${(err as Error).message.replace(/^'/, "'")}`);
  }
  if (cents <= 0n) throw new AmountError(`${what} must be greater than zero.`);
  return cents;
}

/** "10.50" from 1050n. */
export function fromCents(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const whole = abs / 100n;
  const frac = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${frac}`;
}
