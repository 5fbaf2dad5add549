import { XmlReadError } from './xml-read-error.ts';

/**
 * Request bytes → text. fast-xml-parser silently accepts a BOM and `encoding="utf-16"` over any
 * bytes (docs: asmx-compatibility.md §4 "Fidelity"), so the encoding is decided here, as ASMX's
 * reader does: Content-Type charset, then BOM, then the XML declaration; every source present
 * must agree, and a disagreement is an XmlException → 400 (§2 rows 14 and 15).
 *
 * Supported: UTF-8 with or without BOM, and UTF-16LE/BE with a BOM, which XML 1.0 §4.3.3
 * requires of UTF-16. Everything else (UTF-7, UTF-32, Latin-1, unknown labels) is refused: every
 * client we target sends UTF-8 (§3).
 */

type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be';

// Labels accepted in a charset parameter or a declaration, case-insensitively. 'utf-16' leaves the
// byte order to the BOM.
const LABELS: ReadonlyMap<string, Encoding | 'utf-16'> = new Map([
  ['utf-8', 'utf-8'],
  ['utf8', 'utf-8'],
  ['utf-16', 'utf-16'],
  ['utf-16le', 'utf-16le'],
  ['utf-16be', 'utf-16be'],
]);

// One decoder per encoding, made once: making one costs more than decoding a small envelope, and a
// decode without `stream` keeps no state between calls.
const DECODERS: Readonly<Record<Encoding, { decode(bytes: Uint8Array): string }>> = {
  'utf-8': new TextDecoder('utf-8', { fatal: true }),
  'utf-16le': new TextDecoder('utf-16le', { fatal: true }),
  'utf-16be': new TextDecoder('utf-16be', { fatal: true }),
};

/**
 * @param bytes the raw request body.
 * @param contentType the request's Content-Type header, if any; only its charset parameter is used.
 * @returns the document text without a BOM.
 */
export function decodeBytes(bytes: Uint8Array, contentType?: string): string {
  const declared = charsetLabel(contentType);
  const fromCharset = declared === undefined ? undefined : label(declared);
  const bom = sniffBom(bytes);

  let encoding: Encoding;
  if (bom !== undefined) {
    if (fromCharset !== undefined && !compatible(fromCharset, bom)) refuse('Charset and BOM disagree');
    encoding = bom;
  } else if (fromCharset !== undefined && fromCharset !== 'utf-8') {
    refuse('UTF-16 without a byte order mark');
  } else if (bytes[0] === 0 || bytes[1] === 0) {
    // `<` in BOM-less UTF-16 or UTF-32: decoding it as UTF-8 would only produce NULs.
    refuse('Unsupported encoding without a byte order mark');
  } else {
    encoding = 'utf-8';
  }

  let text: string;
  try {
    // `fatal` turns invalid sequences into errors instead of U+FFFD; the BOM is consumed.
    text = DECODERS[encoding].decode(bytes);
  } catch {
    refuse('Bytes are not valid in the document encoding');
  }

  const inDeclaration = declarationEncoding(text);
  if (inDeclaration !== undefined && !compatible(label(inDeclaration), encoding)) {
    refuse('The XML declaration names a different encoding');
  }
  return text;
}

function refuse(message: string): never {
  throw new XmlReadError('encoding', message);
}

function label(name: string): Encoding | 'utf-16' {
  const encoding = LABELS.get(name.toLowerCase());
  if (encoding === undefined) refuse('Unsupported encoding');
  return encoding;
}

function compatible(named: Encoding | 'utf-16', actual: Encoding): boolean {
  return named === actual || (named === 'utf-16' && actual !== 'utf-8');
}

function sniffBom(bytes: Uint8Array): Encoding | undefined {
  const [b0, b1, b2, b3] = bytes;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return 'utf-8';
  // FF FE 00 00 is the UTF-32LE BOM, not UTF-16LE followed by U+0000.
  if (b0 === 0xff && b1 === 0xfe) {
    if (b2 === 0 && b3 === 0) refuse('UTF-32 is not supported');
    return 'utf-16le';
  }
  if (b0 === 0xfe && b1 === 0xff) return 'utf-16be';
  if (b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff) refuse('UTF-32 is not supported');
  return undefined;
}

// RFC 9110 §5.6.6 parameters: `; name = token | quoted-string`.
const PARAMETER = /;[ \t]*([!#$%&'*+.^_`|~0-9A-Za-z-]+)[ \t]*=[ \t]*(?:"((?:[^"\\]|\\.)*)"|([^;"]*))/gy;

/** The charset parameter of a Content-Type, or undefined when there is none. */
export function charsetLabel(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const semicolon = contentType.indexOf(';');
  if (semicolon === -1) return undefined;
  PARAMETER.lastIndex = semicolon;
  for (let m = PARAMETER.exec(contentType); m !== null; m = PARAMETER.exec(contentType)) {
    if (m[1]?.toLowerCase() === 'charset') {
      return m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] ?? '').trim();
    }
    // The sticky regex must restart exactly at the next `;`, so step over trailing blanks.
    PARAMETER.lastIndex = skipSpaces(contentType, PARAMETER.lastIndex);
  }
  return undefined;
}

function skipSpaces(s: string, from: number): number {
  let i = from;
  while (s[i] === ' ' || s[i] === '\t') i++;
  return i;
}

// The declaration must be at offset 0 to count; readXml rejects one anywhere else.
const DECLARED_ENCODING =
  /^<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])[^"'<>]*\1[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(["'])([^"'<>]*)\2/;

function declarationEncoding(text: string): string | undefined {
  return DECLARED_ENCODING.exec(text.slice(0, 512))?.[3];
}
