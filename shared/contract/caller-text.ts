/**
 * Caller text in an error message (issue 13 §11): a fault may quote what the caller sent — ASMX's
 * messages do ("Server did not recognize the value of HTTP Header SOAPAction: …", "Cannot convert
 * abc to System.Int64.") — but only once it is checked: short, printable ASCII, and no card number
 * (shared/card/card-number-in-text.ts). Anything else is replaced by a placeholder, so a fault never
 * carries a card number, markup-like control characters or a megabyte back to the caller or into
 * the log.
 *
 * Pure: no I/O, no Node imports.
 */
import { containsCardNumber } from '../card/card-number-in-text.ts';

/** What stands in a message for caller text that may not be quoted. */
export const NOT_SHOWN = '(value not shown)';

const MAX_QUOTED = 100;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export function quotable(text: string): boolean {
  return text.length <= MAX_QUOTED && PRINTABLE_ASCII.test(text) && !containsCardNumber(text);
}

/** `text` when it may be quoted in a message, else NOT_SHOWN. */
export function callerText(text: string): string {
  return quotable(text) ? text : NOT_SHOWN;
}
