/**
 * Money, dates and amounts typed by a user. Amounts stay decimal strings: shown with the hosted
 * page's formatter (Intl from the string, never a float), compared and checked as integer cents
 * (shared/money.ts).
 */
import { AmountError, fromCents, toCents } from '../../../shared/money.ts';

export { formatDateTime, formatMoney } from '../pay/format.ts';

/** A day `YYYY-MM-DD` (UTC) in the user's words, e.g. "24 Nov". */
export function formatDay(day: string, locale: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return day;
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(d);
}

export type AmountProblem = 'amountInvalid' | 'amountPositive' | 'amountTooLarge';

/**
 * What is wrong with an amount a user typed (a dot for decimals, at most two), null when it is a
 * positive amount no larger than `max`. The gateway checks again: this only saves a round trip.
 */
export function amountProblem(typed: string, max?: string): AmountProblem | null {
  let cents: bigint;
  try {
    cents = toCents(typed);
  } catch (error) {
    if (error instanceof AmountError) return 'amountInvalid';
    throw error;
  }
  if (cents <= 0n) return 'amountPositive';
  if (max !== undefined && cents > toCents(max)) return 'amountTooLarge';
  return null;
}

/** The sum of decimal amounts, exactly (cents as bigint). */
export function sumAmounts(amounts: readonly string[]): string {
  return fromCents(amounts.reduce((sum, a) => sum + toCents(a), 0n));
}
