/**
 * Finds card numbers inside free text: a run of 13 or more digits (one space or dash allowed
 * between digits, as card numbers are typed) with a Luhn-valid window of 13–19 digits. One detector
 * for every place that looks (DESIGN.md §18): the checkout API and the gateway refuse text that
 * holds one (security-requirements.md PCI-351-1, attack row 31: stored, it would be a PAN in the
 * clear in a column no one encrypts), the notifier refuses to send it, and the log masks it
 * (server/logger.ts, PCI-10-5) — so the API refuses exactly what the log would mask.
 */
import { luhnValid } from './luhn.ts';

// Whole runs only, and not the fraction of a decimal number ("responseTime":1.0000000000998899).
const DIGIT_RUN = /(?<!\d)(?<!\d\.\d*)\d(?:[ -]?\d){12,}/g;
const MIN_LENGTH = 13;
const MAX_LENGTH = 19;

/** Each Luhn-valid window of 13–19 digits in `digits`, as [start, end) indexes into it. */
function cardWindows(digits: string, firstOnly: boolean): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (let start = 0; start + MIN_LENGTH <= digits.length; start++) {
    for (let len = MIN_LENGTH; len <= MAX_LENGTH && start + len <= digits.length; len++) {
      if (luhnValid(digits.slice(start, start + len))) {
        found.push([start, start + len]);
        if (firstOnly) return found;
      }
    }
  }
  return found;
}

export function containsCardNumber(text: string): boolean {
  for (const [run] of text.matchAll(DIGIT_RUN)) {
    if (cardWindows(run.replace(/\D/g, ''), true).length > 0) return true;
  }
  return false;
}

/**
 * `text` with every digit of each card number found replaced by `*` except its last four, spaces
 * and dashes kept ("**** **** **** 4242"); text without one comes back unchanged.
 */
export function maskCardNumbers(text: string): string {
  return text.replace(DIGIT_RUN, (run) => {
    const positions: number[] = [];
    for (let i = 0; i < run.length; i++)
      if (run.charCodeAt(i) >= 48 && run.charCodeAt(i) <= 57) positions.push(i);
    const windows = cardWindows(positions.map((p) => run[p]).join(''), false);
    if (windows.length === 0) return run;
    const chars = run.split('');
    for (const [start, end] of windows) for (let i = start; i < end - 4; i++) chars[positions[i]!] = '*';
    return chars.join('');
  });
}
