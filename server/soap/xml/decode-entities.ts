import { isXmlCodePoint, NAME_AT } from './xml-chars.ts';
import { XmlReadError } from './xml-read-error.ts';

/**
 * Our own reference decoder. fast-xml-parser runs with `processEntities:false`, which leaves
 * `&lt;` and `&#65;` as literal text, and its own decoder would accept HTML names such as `&nbsp;`
 * that ASMX rejects (docs: asmx-compatibility.md §4 "Entities", §2 rows 5, 19, 20).
 * Only the five predefined entities and numeric character references are decoded.
 *
 * Linear: each character is read once, and the numeric accumulator saturates, so neither a flood
 * of `&#65;` (row 5) nor a megabyte of digits in one reference can cost more than its bytes.
 */

// Each predefined name with its `;`, so one startsWith decides it.
const PREDEFINED: ReadonlyArray<readonly [string, string]> = [
  ['lt;', '<'],
  ['gt;', '>'],
  ['amp;', '&'],
  ['quot;', '"'],
  ['apos;', "'"],
];
const HASH = 0x23;
const SEMICOLON = 0x3b;
const LOWER_X = 0x78;
/** First value above the Unicode range; the accumulator stops growing there. */
const BEYOND_UNICODE = 0x110000;

export function decodeReferences(raw: string): string {
  let amp = raw.indexOf('&');
  if (amp === -1) return raw;
  let out = '';
  let copied = 0;
  while (amp !== -1) {
    let value: string;
    let end: number;
    if (raw.charCodeAt(amp + 1) === HASH) {
      // `&#` digits `;` or `&#x` hex digits `;` (XML 1.0 [66]); `&#X41;` is not a reference.
      const hex = raw.charCodeAt(amp + 2) === LOWER_X;
      const base = hex ? 16 : 10;
      const start = hex ? amp + 3 : amp + 2;
      let cp = 0;
      end = start;
      for (let d = digitValue(raw.charCodeAt(end), hex); d >= 0; d = digitValue(raw.charCodeAt(++end), hex)) {
        cp = Math.min(cp * base + d, BEYOND_UNICODE);
      }
      if (end === start || raw.charCodeAt(end) !== SEMICOLON) malformedReference();
      if (!isXmlCodePoint(cp)) {
        throw new XmlReadError('invalid-char', 'Character reference to a character XML 1.0 does not allow');
      }
      value = String.fromCodePoint(cp);
      end++;
    } else {
      const entry = PREDEFINED.find(([name]) => raw.startsWith(name, amp + 1));
      if (entry === undefined) throw unknownEntity(raw, amp + 1);
      value = entry[1];
      end = amp + 1 + entry[0].length;
    }
    out += raw.slice(copied, amp) + value;
    copied = end;
    amp = raw.indexOf('&', copied);
  }
  return out + raw.slice(copied);
}

/**
 * Attribute-value normalisation (XML 1.0 §3.3.3, which ASMX applies: `Normalization = true`,
 * §1.4 "Whitespace"): each literal tab or line feed becomes a space before references are decoded,
 * so `&#10;` still yields a line feed. Line ends were already normalised to LF.
 */
export function decodeAttributeValue(raw: string): string {
  return decodeReferences(raw.replace(/[\t\n\r]/g, ' '));
}

function digitValue(code: number, hex: boolean): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (!hex) return -1;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** `&name;` with a well-formed name is an undeclared entity; anything else is a bare `&`. */
function unknownEntity(raw: string, at: number): XmlReadError {
  NAME_AT.lastIndex = at;
  const name = NAME_AT.exec(raw)?.[0];
  if (name !== undefined && raw.charCodeAt(at + name.length) === SEMICOLON) {
    return new XmlReadError('undeclared-entity', 'Reference to an undeclared entity');
  }
  return new XmlReadError('malformed', 'An "&" does not start a valid reference');
}

function malformedReference(): never {
  throw new XmlReadError('malformed', 'An "&" does not start a valid reference');
}
