/**
 * Escaping for the string-built responses (asmx-compatibility.md §1.5). Characters XML 1.0 cannot
 * carry are written as character references, as ASMX does (`&#x1D;`); lone surrogates, which no
 * XML can carry, become U+FFFD.
 */
const TEXT_CLASS = '[&<>\\r\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uD800-\\uDFFF\\uFFFE\\uFFFF]';
const ATTR_CLASS = '[&<>"\\t\\n\\r\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uD800-\\uDFFF\\uFFFE\\uFFFF]';
// A test without /g has no lastIndex state to carry between calls; the /g copy does the replacing.
const TEXT_TEST = new RegExp(TEXT_CLASS);
const TEXT_SPECIAL = new RegExp(TEXT_CLASS, 'g');
const ATTR_TEST = new RegExp(ATTR_CLASS);
const ATTR_SPECIAL = new RegExp(ATTR_CLASS, 'g');

function replaceChar(ch: string, offset: number, whole: string): string {
  switch (ch) {
    case '&':
      return '&amp;';
    case '<':
      return '&lt;';
    case '>':
      return '&gt;';
    case '"':
      return '&quot;';
    default: {
      const code = ch.charCodeAt(0);
      if (code >= 0xd800 && code <= 0xdbff) {
        const next = whole.charCodeAt(offset + 1);
        if (next >= 0xdc00 && next <= 0xdfff) return ch; // high half of a valid pair
        return '\uFFFD';
      }
      if (code >= 0xdc00 && code <= 0xdfff) {
        const prev = whole.charCodeAt(offset - 1);
        if (prev >= 0xd800 && prev <= 0xdbff) return ch; // low half of a valid pair
        return '\uFFFD';
      }
      return `&#x${code.toString(16).toUpperCase()};`;
    }
  }
}

export function escapeText(value: string): string {
  return TEXT_TEST.test(value) ? value.replace(TEXT_SPECIAL, replaceChar) : value;
}

export function escapeAttr(value: string): string {
  return ATTR_TEST.test(value) ? value.replace(ATTR_SPECIAL, replaceChar) : value;
}
