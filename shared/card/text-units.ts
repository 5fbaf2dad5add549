/**
 * Reads text as the card-number detector sees it (card-number-in-text.ts): one unit at a time, each
 * a digit, a separator or anything else, whatever way it was written. A card number can reach a
 * field, a URL or a log line spelled many ways, and each must read as the same digits:
 * - digits of any script (`\p{Nd}`: fullwidth ４, Arabic-Indic ٤, …) count as their value;
 * - separators are spaces of every kind (NBSP, U+2000–200A, U+202F, U+3000, tabs, line breaks), the
 *   dots, dashes, slashes and plus signs of every width (`.` `-` `/` `+`, en dash, minus sign,
 *   fullwidth forms, …), and invisible characters (controls, zero-width and other format
 *   characters), which a reader does not see between two digits;
 * - a percent-encoded character (`%20`, `%C2%A0`, `%34`) and a backslash escape (`\n`, `\u00A0`,
 *   `\u0034`, `\x20`) read as the character they encode: URLs and query strings reach the log
 *   percent-encoded, and a log line is JSON, where line breaks and controls are escaped.
 * Pure: no imports.
 */

export const UNIT_OTHER = 0;
export const SEPARATOR = 1;
export const DIGIT = 2;
export type UnitKind = typeof UNIT_OTHER | typeof SEPARATOR | typeof DIGIT;

/** One unit read at a position: its kind, the digit's value (0–9, digits only) and where it ends. */
export interface Unit {
  kind: UnitKind;
  digit: number;
  end: number;
}

const ASCII_SEPARATORS = new Set([0x20, 0x2b, 0x2d, 0x2e, 0x2f]); // space + - . /

/**
 * Separators outside ASCII: spaces and line separators (Zs, Zl, Zp), dashes (Pd), format characters
 * (Cf: zero-width, bidi marks, soft hyphen, BOM), and the dots, slashes and plus signs that look like
 * `.` `/` `+` (one-dot leader, hyphenation point, middle dots, ideographic and fullwidth full stop,
 * fraction and division slash, fullwidth solidus, minus sign, small and fullwidth plus, super- and
 * subscript plus).
 */
const UNICODE_SEPARATOR =
  /^[\p{Zs}\p{Zl}\p{Zp}\p{Pd}\p{Cf}\u2024\u2027\u00b7\u30fb\u3002\uff0e\uff61\u2044\u2215\uff0f\u2212\ufe62\uff0b\u207a\u208a]$/u;
const DECIMAL_DIGIT = /^\p{Nd}$/u;

function isUnicodeDigit(cp: number): boolean {
  return DECIMAL_DIGIT.test(String.fromCodePoint(cp));
}

/**
 * The value of a decimal digit of any script. Unicode assigns decimal digits only in contiguous runs
 * of ten, 0 to 9 (its stability policy), so the value is the distance from the run's start, mod 10
 * (the mathematical digits are five such runs back to back).
 */
function unicodeDigitValue(cp: number): number {
  let back = 0;
  while (back < 60 && isUnicodeDigit(cp - back - 1)) back++;
  return back % 10;
}

function classify(cp: number, end: number, out: Unit): Unit {
  out.end = end;
  out.digit = 0;
  if (cp >= 0x30 && cp <= 0x39) {
    out.kind = DIGIT;
    out.digit = cp - 0x30;
  } else if (ASCII_SEPARATORS.has(cp) || cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
    out.kind = SEPARATOR;
  } else if (cp < 0x80) {
    out.kind = UNIT_OTHER;
  } else if (isUnicodeDigit(cp)) {
    out.kind = DIGIT;
    out.digit = unicodeDigitValue(cp);
  } else {
    out.kind = UNICODE_SEPARATOR.test(String.fromCodePoint(cp)) ? SEPARATOR : UNIT_OTHER;
  }
  return out;
}

function hexAt(text: string, at: number, count: number): number {
  if (at + count > text.length) return -1;
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const c = text.charCodeAt(i);
    const d =
      c >= 0x30 && c <= 0x39
        ? c - 0x30
        : c >= 0x41 && c <= 0x46
          ? c - 55
          : c >= 0x61 && c <= 0x66
            ? c - 87
            : -1;
    if (d < 0) return -1;
    value = value * 16 + d;
  }
  return value;
}

/** `%XX` (one byte) or a UTF-8 sequence of them at `i`: the code point and where it ends, or null. */
function percentDecoded(text: string, i: number): { cp: number; end: number } | null {
  const lead = hexAt(text, i + 1, 2);
  if (lead < 0) return null;
  if (lead < 0x80) return { cp: lead, end: i + 3 };
  const count = lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : lead >= 0xc0 ? 1 : -1;
  if (count < 0) return null;
  let cp = lead & (0x3f >> count);
  let at = i + 3;
  for (let k = 0; k < count; k++) {
    if (text.charCodeAt(at) !== 0x25) return null;
    const b = hexAt(text, at + 1, 2);
    if (b < 0 || (b & 0xc0) !== 0x80) return null;
    cp = (cp << 6) | (b & 0x3f);
    at += 3;
  }
  return cp <= 0x10ffff ? { cp, end: at } : null;
}

/** A backslash escape at `i` (`\n`, `\uXXXX`, `\xXX`, `\/`): the character and where it ends, or null. */
function escapeDecoded(text: string, i: number): { cp: number; end: number } | null {
  const c = text[i + 1];
  switch (c) {
    case 'n':
    case 't':
    case 'r':
    case 'f':
    case 'v':
    case 'b':
      return { cp: 0x0a, end: i + 2 }; // a line break or a control: a separator either way
    case '/':
      return { cp: 0x2f, end: i + 2 };
    case 'u': {
      const cp = hexAt(text, i + 2, 4);
      return cp < 0 ? null : { cp, end: i + 6 };
    }
    case 'x': {
      const cp = hexAt(text, i + 2, 2);
      return cp < 0 ? null : { cp, end: i + 4 };
    }
    default:
      return null;
  }
}

/** Reads the unit at `i` into `out` (reused, so a scan allocates nothing per character). */
export function readUnit(text: string, i: number, out: Unit): Unit {
  const c = text.charCodeAt(i);
  if (c === 0x25 /* % */) {
    const decoded = percentDecoded(text, i);
    if (decoded) return classify(decoded.cp, decoded.end, out);
  } else if (c === 0x5c /* \ */) {
    const decoded = escapeDecoded(text, i);
    if (decoded) return classify(decoded.cp, decoded.end, out);
    // `\\` and `\"` are one character each: the second is not read on its own.
    out.kind = UNIT_OTHER;
    out.digit = 0;
    out.end = Math.min(i + 2, text.length);
    return out;
  }
  const cp = text.codePointAt(i) ?? c;
  return classify(cp, i + (cp > 0xffff ? 2 : 1), out);
}
