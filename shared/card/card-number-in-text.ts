/**
 * Finds a card number inside free text: a run of 13 or more digits (one space or dash allowed
 * between digits, as card numbers are typed) with a Luhn-valid window of 13–19 digits — the rule of
 * the log scrubber (server/logger.ts), so the API refuses what the log would mask. Text fields of
 * the checkout API refuse such values (security-requirements.md PCI-351-1, attack row 31): stored,
 * they would be a PAN in the clear in a column no one encrypts.
 */
import { luhnValid } from './luhn.ts';

// Whole runs only, and not the fraction of a decimal number.
const DIGIT_RUN = /(?<!\d)(?<!\d\.\d*)\d(?:[ -]?\d){12,}/g;

export function containsCardNumber(text: string): boolean {
  for (const [run] of text.matchAll(DIGIT_RUN)) {
    const digits = run.replace(/\D/g, '');
    for (let start = 0; start + 13 <= digits.length; start++) {
      for (let len = 13; len <= 19 && start + len <= digits.length; len++) {
        if (luhnValid(digits.slice(start, start + len))) return true;
      }
    }
  }
  return false;
}
