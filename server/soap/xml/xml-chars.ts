/**
 * XML 1.0 (Fifth Edition) character classes. ASMX's XmlTextReader rejects anything outside `Char`,
 * raw or as a character reference (docs: asmx-compatibility.md §1.2 point 5, §2 row 19).
 */

/** Matches the first character that is not an XML 1.0 `Char` [2]; with /u a lone surrogate matches too. */
export const NON_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

export function isXmlCodePoint(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

// NameStartChar [4] without ':', which Namespaces in XML reserves as the prefix separator.
const NC_NAME_START =
  'A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D' +
  '\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
const NAME_START = `:${NC_NAME_START}`;
const NAME_CHAR = `${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040`;

/**
 * `Name` [5], sticky: set `lastIndex` and `exec` to read a name in place without slicing.
 * One character class per position, so matching is linear in the name's length.
 */
// XML's name classes include combining marks on purpose (XML 1.0 §2.3 NameChar).
// eslint-disable-next-line no-misleading-character-class
export const NAME_AT = new RegExp(`[${NAME_START}][${NAME_CHAR}]*`, 'uy');

/** True when `name` starts with a character that may begin an NCName (Namespaces in XML [4]). */
export const STARTS_NC_NAME = new RegExp(`^[${NC_NAME_START}]`, 'u');

/** XML `S` [3]. */
export function isXmlSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d;
}

export const ONLY_SPACE = /^[ \t\n\r]*$/;
