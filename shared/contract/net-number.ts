/**
 * The grammar of .NET's Number.ParseNumber for the invariant culture, for the NumberStyles that
 * ASMX uses (asmx-compatibility.md §1.4–1.5):
 *   XmlConvert.ToInt32/ToInt64  AllowLeadingWhite | AllowTrailingWhite | AllowLeadingSign
 *   XmlConvert.ToDecimal        the same | AllowDecimalPoint
 *   Convert.ChangeType (HTTP)   Integer for int/long; Number (adds AllowTrailingSign, AllowThousands)
 *                               for decimal
 * No exponent, currency, parentheses or hex in any of them. Pure: no I/O, no Node imports.
 */

export interface NumberStyles {
  readonly decimalPoint?: boolean;
  /** ',' between integer digits (after the first digit, before the point), as NumberStyles.Number. */
  readonly thousands?: boolean;
  readonly trailingSign?: boolean;
}

export interface ParsedNumber {
  readonly negative: boolean;
  /** Integer digits with leading zeros removed ('' for zero). */
  readonly integer: string;
  /** Digits after the point, exactly as written ('' when none). */
  readonly fraction: string;
}

// .NET Number.IsWhite: U+0020 and U+0009..U+000D.
function isWhite(c: string | undefined): boolean {
  return c === ' ' || (c !== undefined && c >= '\t' && c <= '\r');
}

function isDigit(c: string | undefined): c is string {
  return c !== undefined && c >= '0' && c <= '9';
}

/** The number written in `text`, or null when .NET would throw "Input string was not in a correct format." */
export function parseNetNumber(text: string, styles: NumberStyles = {}): ParsedNumber | null {
  let i = 0;
  let sign: '+' | '-' | null = null;
  // Leading white space, then at most one sign; no white space after the sign (invariant culture).
  while (isWhite(text[i])) i++;
  const first = text[i];
  if (first === '+' || first === '-') {
    sign = first;
    i++;
  }
  let integer = '';
  let fraction = '';
  let sawDigit = false;
  let sawPoint = false;
  for (; i < text.length; i++) {
    const c = text[i];
    if (isDigit(c)) {
      sawDigit = true;
      if (sawPoint) fraction += c;
      else integer += c;
    } else if (c === '.' && styles.decimalPoint && !sawPoint) {
      sawPoint = true;
    } else if (c === ',' && styles.thousands && sawDigit && !sawPoint) {
      // Group separators are skipped wherever they stand after the first digit ("1,,000" is 1000).
    } else {
      break;
    }
  }
  if (!sawDigit) return null;
  // Trailing white space, and (NumberStyles.Number) one trailing sign if none led.
  for (; i < text.length; i++) {
    const c = text[i];
    if (isWhite(c)) continue;
    if (styles.trailingSign && sign === null && (c === '+' || c === '-')) {
      sign = c;
      continue;
    }
    return null;
  }
  return { negative: sign === '-', integer: integer.replace(/^0+/, ''), fraction };
}
