/**
 * A card number as a shopper or a merchant typed it: the one rule of what counts as a well-formed
 * number (digit groups with spaces or dashes between them, 12–19 digits, Luhn), used by the widget's
 * form, the checkout API's schema and the Transaction Service alike. Which brand a number is, and
 * its security code's length, need credit-card-type and live with their callers. Pure: no Node or
 * DOM imports.
 */
import { luhnValid } from './luhn.ts';

/** ISO/IEC 7812 numbers have 12 (some Maestro) to 19 digits. */
export const CARD_NUMBER_MIN_DIGITS = 12;
export const CARD_NUMBER_MAX_DIGITS = 19;

/**
 * The digits of a card number, spaces and dashes between digit groups removed; null unless 12–19
 * digits remain. A leading sign is not part of a card number ("-4242…" is refused, not read as
 * "4242…").
 */
export function normalizeCardNumber(text: string): string | null {
  const trimmed = text.trim();
  if (!/^\d/.test(trimmed)) return null;
  const digits = trimmed.replace(/[\s-]/g, '');
  if (!/^\d+$/.test(digits)) return null;
  return digits.length >= CARD_NUMBER_MIN_DIGITS && digits.length <= CARD_NUMBER_MAX_DIGITS ? digits : null;
}

/** The digits of a well-formed card number (see `normalizeCardNumber`) whose Luhn check holds; else null. */
export function validCardNumber(text: string): string | null {
  const digits = normalizeCardNumber(text);
  return digits !== null && luhnValid(digits) ? digits : null;
}
