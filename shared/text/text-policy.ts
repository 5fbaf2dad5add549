/**
 * One text policy for every field a person will see (DESIGN.md §18; issue 13 §4; security.md
 * XSS-1, TXT-*): order numbers, names, addresses, descriptions, custom values, merchant names —
 * whatever path they came by (the merchant REST API, SOAP 1.1/1.2, HTTP GET/POST, the widget, the
 * CLI). Text is stored in Unicode Normalization Form C, and refused when it holds:
 *   - a control character: C0 (U+0000–001F: tab and line breaks included), DEL, C1 (U+0080–009F);
 *   - a bidirectional control: ALM U+061C, LRM/RLM U+200E/200F, the embeddings and overrides
 *     U+202A–202E, the isolates U+2066–2069 — text that reads one way and shows another;
 *   - an invisible character: every format character (Cf: zero-width space, joiner and non-joiner,
 *     word joiner, BOM, soft hyphen, interlinear annotation, tags, …), every other default-ignorable
 *     code point (Hangul fillers, Mongolian and Khmer invisibles, combining grapheme joiner), the
 *     line and paragraph separators U+2028/2029, a lone surrogate and the noncharacters — each
 *     shows nothing, or is not text at all. A variation selector right after a visible character
 *     (an emoji's U+FE0F) is allowed: it only picks that character's glyph.
 * Refused rather than removed: silently changing what a merchant sent hides the attempt and changes
 * the text they signed for. The merchant's display name also passes the mixed-script check
 * (mixed-script.ts).
 *
 * Pure and zod-free: the widget's forms, the REST schemas and the gateway import it.
 */

export type TextProblem = 'control' | 'bidi' | 'invisible';

/** C0, DEL, C1. */
const CONTROL = /\p{Cc}/u;
/** The bidirectional controls (all Cf; named apart for the message). */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
/**
 * Format characters, other default-ignorables, line/paragraph separators, lone surrogates and
 * noncharacters; variation selectors are handled apart (allowed after a visible character).
 */
const INVISIBLE =
  /[\p{Cf}\p{Zl}\p{Zp}\p{Cs}\ufdd0-\ufdef\ufffe\uffff]|(?![\ufe00-\ufe0f\u{e0100}-\u{e01ef}])\p{Default_Ignorable_Code_Point}/u;
const VARIATION_SELECTOR = /[\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/u;
/** A noncharacter in the supplementary planes (U+1FFFE, U+1FFFF, … U+10FFFF). */
const isPlaneNonCharacter = (c: number) => c > 0xffff && (c & 0xfffe) === 0xfffe;

/** The first problem `value` has under the policy, or null when it may be shown as it is. */
export function textProblem(value: string): TextProblem | null {
  // The common case, plain printable ASCII, is answered without a regular expression.
  let ascii = true;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return 'control';
    if (c > 0x7e) {
      ascii = false;
      break;
    }
  }
  if (ascii) return null;
  let previousVisible = false;
  for (const ch of value) {
    if (CONTROL.test(ch)) return 'control';
    if (BIDI.test(ch)) return 'bidi';
    if (VARIATION_SELECTOR.test(ch)) {
      if (!previousVisible) return 'invisible';
      previousVisible = false; // one selector per character
      continue;
    }
    if (INVISIBLE.test(ch) || isPlaneNonCharacter(ch.codePointAt(0)!)) return 'invisible';
    previousVisible = !/\p{White_Space}/u.test(ch);
  }
  return null;
}

/** The text as stored: NFC. (Check it with `textProblem` after: NFC never adds a refused character.) */
export function normalizeText(value: string): string {
  return value.normalize('NFC');
}

/** How each problem is told to a person, after the field's name (`… must not contain …`). */
export const TEXT_PROBLEM_MESSAGES: Record<TextProblem, string> = {
  control: 'must not contain control characters or line breaks.',
  bidi: 'must not contain characters that change the text direction.',
  invisible: 'must not contain invisible characters.',
};

/** The stable code of each problem in field errors (REST `fields[].code`, SOAP `<detail>`). */
export const TEXT_PROBLEM_CODES: Record<TextProblem, string> = {
  control: 'control_characters',
  bidi: 'bidi_characters',
  invisible: 'invisible_characters',
};
