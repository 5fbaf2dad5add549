/**
 * Finds card numbers inside free text: the one detector for every place that looks (DESIGN.md §18).
 * The checkout API's schemas and the gateway (every free-text element of every operation, whatever
 * the binding) refuse text that holds one (PCI-351-1, attack row 31: stored, it would be a card
 * number in the clear in a column no one encrypts); the notifier refuses to send one and webhooks
 * mask one; the log masks every one (server/logger.ts, PCI-10-5). So the API refuses exactly what
 * the log would mask.
 *
 * The rule, in three steps:
 * 1. Separators are normalised: digit groups joined by any run of spaces (Unicode spaces included),
 *    `.`, `-`, `/`, `+` or invisible characters form one chain, however they are written
 *    (text-units.ts: other scripts' digits, percent-encoding and backslash escapes too).
 * 2. The candidates of a chain are the ways a card number is written:
 *    - any one group ("ORD-4111111111111111", "4111111111111111 123");
 *    - runs of groups laid out as on cards, whatever the separators: fours and a last group of one
 *      to four digits (4-4-4-4, 4-4-4-4-3, 4-4-4-3), 4-6-5 and 4-6-4 — so
 *      "4111 1111 1111 1111 12/27" and "Flat 12 4111.1111.1111.1111" hold one;
 *    - the whole chain, when its groups have at most four digits and one separator joins them all
 *      ("4 1 1 1 …", "41 11 11 …").
 *    A group is never cut, and a run of more than 19 digits is not a card number. Ids and dates made
 *    of other groups ("503-1234567-1234567", "30.05.2024 - 30.06.2024") are not candidates.
 * 3. A candidate is a card number when it has a card brand's IIN prefix and one of that brand's
 *    lengths (card-iin.ts) and passes Luhn. An order number, a timestamp or an id that merely passes
 *    Luhn is left alone: card-number-in-text.test.ts holds a corpus of them that must all pass.
 *
 * Pure: no zod, no Node or DOM imports.
 */
import { brandOfDigits, CARD_MAX_DIGITS, CARD_MIN_DIGITS } from './card-iin.ts';
import { luhnValid } from './luhn.ts';
import { DIGIT, readUnit, SEPARATOR, type Unit, UNIT_OTHER } from './text-units.ts';

/** One card number found: where its digits are in the text, and its brand. */
export interface CardNumberMatch {
  brand: string;
  /** Index of its first digit's first character, and just past its last digit's last one. */
  start: number;
  end: number;
  /** Where each of its digits is written in the text (one or more characters each: `%34`, `４`). */
  digitSpans: Array<[number, number]>;
}

/**
 * A chain being read: its digits (values and spans), where each group starts, and where the
 * separator run before each group but the first lies. One is reused for a whole scan: a log line
 * holds many short chains (a time, a port), and each would otherwise cost five arrays.
 */
class Chain {
  // Arrays are overwritten in place and their used length kept apart: truncating an array
  // (`length = 0`) costs more than the whole scan of a short chain.
  readonly digits: number[] = [];
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  readonly groupStarts: number[] = [];
  /** Where the separator run before group k (k ≥ 1) starts and ends, at index k - 1. */
  readonly separatorStarts: number[] = [];
  readonly separatorEnds: number[] = [];
  length = 0;
  groups = 0;

  constructor(readonly text: string) {}

  clear(): void {
    this.length = 0;
    this.groups = 0;
  }

  addDigit(digit: number, start: number, end: number, separatorStart: number): void {
    if (this.length === 0 || separatorStart >= 0) {
      if (this.groups > 0) {
        this.separatorStarts[this.groups - 1] = separatorStart;
        this.separatorEnds[this.groups - 1] = start;
      }
      this.groupStarts[this.groups++] = this.length;
    }
    this.digits[this.length] = digit;
    this.starts[this.length] = start;
    this.ends[this.length] = end;
    this.length++;
  }

  groupStart(g: number): number {
    return g < this.groups ? this.groupStarts[g]! : this.length;
  }

  groupLength(g: number): number {
    return this.groupStart(g + 1) - this.groupStarts[g]!;
  }

  /** Whether every separator run is written the same way. */
  private oneSeparator(): boolean {
    const { text, separatorStarts: from, separatorEnds: to } = this;
    const first = text.slice(from[0], to[0]);
    for (let k = 1; k < this.groups - 1; k++) if (text.slice(from[k], to[k]) !== first) return false;
    return true;
  }

  /** Whether groups g..h are a candidate (step 2 above). */
  isCandidate(g: number, h: number): boolean {
    if (g === h) return true;
    const last = this.groupLength(h);
    if (h - g === 2 && this.groupLength(g) === 4 && this.groupLength(g + 1) === 6) {
      if (last === 4 || last === 5) return true;
    }
    let fours = true;
    for (let k = g; k < h && fours; k++) fours = this.groupLength(k) === 4;
    if (fours && last <= 4) return true;
    if (g !== 0 || h !== this.groups - 1) return false;
    for (let k = 0; k <= h; k++) if (this.groupLength(k) > 4) return false;
    return this.oneSeparator();
  }
}

/** The card numbers in one chain; `firstOnly` stops at the first. */
function cardsInChain(chain: Chain, firstOnly: boolean, found: CardNumberMatch[]): void {
  const { digits, groups } = chain;
  for (let g = 0; g < groups; g++) {
    const from = chain.groupStart(g);
    for (let h = g; h < groups; h++) {
      const to = chain.groupStart(h + 1);
      const length = to - from;
      if (length > CARD_MAX_DIGITS) break;
      if (length < CARD_MIN_DIGITS || !chain.isCandidate(g, h)) continue;
      let candidate = '';
      for (let i = from; i < to; i++) candidate += String.fromCharCode(0x30 + digits[i]!);
      const brand = brandOfDigits(candidate);
      if (brand === null || !luhnValid(candidate)) continue;
      const digitSpans: Array<[number, number]> = [];
      for (let i = from; i < to; i++) digitSpans.push([chain.starts[i]!, chain.ends[i]!]);
      found.push({ brand, start: chain.starts[from]!, end: chain.ends[to - 1]!, digitSpans });
      if (firstOnly) return;
    }
  }
}

// What can begin a digit: an ASCII digit, `%`, a backslash, or anything non-ASCII. Between chains
// the scan skips to the next one natively (`test` with lastIndex allocates nothing).
const MAY_BEGIN_DIGIT = /[0-9%\\\u0080-\uffff]/g;

function scan(text: string, firstOnly: boolean): CardNumberMatch[] {
  const found: CardNumberMatch[] = [];
  const n = text.length;
  if (n < CARD_MIN_DIGITS) return found;
  const unit: Unit = { kind: UNIT_OTHER, digit: 0, end: 0 };
  const chain = new Chain(text);
  // Where the separator run after the chain's last group started, or -1 right after a digit.
  let separatorStart = -1;
  let i = 0;
  while (i < n) {
    if (chain.length === 0) {
      // Between chains only a digit matters: most of a log line is skipped here.
      MAY_BEGIN_DIGIT.lastIndex = i;
      if (!MAY_BEGIN_DIGIT.test(text)) break;
      i = MAY_BEGIN_DIGIT.lastIndex - 1;
    }
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) {
      unit.kind = DIGIT;
      unit.digit = c - 0x30;
      unit.end = i + 1;
    } else {
      readUnit(text, i, unit);
    }
    if (unit.kind === DIGIT) {
      chain.addDigit(unit.digit, i, unit.end, separatorStart);
      separatorStart = -1;
    } else if (unit.kind === SEPARATOR && chain.length > 0) {
      if (separatorStart < 0) separatorStart = i; // the chain goes on if a digit follows
    } else if (chain.length > 0) {
      if (chain.length >= CARD_MIN_DIGITS) {
        cardsInChain(chain, firstOnly, found);
        if (firstOnly && found.length > 0) return found;
      }
      chain.clear();
      separatorStart = -1;
    }
    i = unit.end;
  }
  if (chain.length >= CARD_MIN_DIGITS) cardsInChain(chain, firstOnly, found);
  return found;
}

/** Every card number in `text`, in order (overlapping ones included). */
export function findCardNumbers(text: string): CardNumberMatch[] {
  return scan(text, false);
}

export function containsCardNumber(text: string): boolean {
  return scan(text, true).length > 0;
}

/**
 * `text` with every digit of each card number found replaced by `*` except its last four,
 * separators kept ("**** **** **** 4242"); text without one comes back unchanged.
 */
export function maskCardNumbers(text: string): string {
  const found = scan(text, false);
  if (found.length === 0) return text;
  const masked = new Map<number, number>(); // start -> end of each digit to replace
  for (const { digitSpans } of found) {
    for (const [start, end] of digitSpans.slice(0, -4)) masked.set(start, end);
  }
  let out = '';
  let at = 0;
  for (const start of [...masked.keys()].sort((a, b) => a - b)) {
    out += `${text.slice(at, start)}*`;
    at = masked.get(start)!;
  }
  return out + text.slice(at);
}
