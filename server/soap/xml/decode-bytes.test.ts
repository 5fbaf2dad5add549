import { describe, expect, it } from 'vitest';
import { charsetLabel, decodeBytes } from './decode-bytes.ts';
import { readXml } from './read-xml.ts';
import { expectReadError } from '../../../test/kit/soap/xml-documents.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);
const bytes = (...parts: (number[] | Uint8Array)[]) => Uint8Array.from(parts.flatMap((p) => [...p]));
const utf16le = (s: string) => bytes([0xff, 0xfe], new Uint8Array(Buffer.from(s, 'utf16le')));
const utf16be = (s: string) => bytes([0xfe, 0xff], new Uint8Array(Buffer.from(s, 'utf16le').swap16()));
const doc = '<?xml version="1.0"?><r>é€😀</r>';

describe('charsetLabel', () => {
  it('reads token and quoted-string charsets, skipping other parameters', () => {
    expect(charsetLabel(undefined)).toBeUndefined();
    expect(charsetLabel('text/xml')).toBeUndefined();
    expect(charsetLabel('text/xml; charset=utf-8')).toBe('utf-8');
    expect(charsetLabel('text/xml;charset=UTF-8 ')).toBe('UTF-8');
    expect(charsetLabel('application/soap+xml; action="urn:a;charset=x"; charset="utf-8"')).toBe('utf-8');
  });
});

describe('decodeBytes: accepted encodings', () => {
  it('decodes UTF-8 without BOM or charset', () => {
    expect(decodeBytes(utf8(doc))).toBe(doc);
  });

  it('decodes UTF-8 with a charset in any case and with the utf8 alias', () => {
    expect(decodeBytes(utf8(doc), 'text/xml; charset=UTF-8')).toBe(doc);
    expect(decodeBytes(utf8(doc), 'text/xml; charset=utf8')).toBe(doc);
  });

  it('strips a UTF-8 BOM (§2 row 15)', () => {
    expect(decodeBytes(bytes([0xef, 0xbb, 0xbf], utf8(doc)), 'text/xml; charset=utf-8')).toBe(doc);
  });

  it('decodes UTF-16LE and UTF-16BE with a BOM (§2 row 15)', () => {
    const le = '<?xml version="1.0" encoding="utf-16"?><r>é€😀</r>';
    expect(decodeBytes(utf16le(le))).toBe(le);
    expect(decodeBytes(utf16le(le), 'text/xml; charset=utf-16')).toBe(le);
    expect(decodeBytes(utf16le(le), 'text/xml; charset=utf-16le')).toBe(le);
    expect(decodeBytes(utf16be(le), 'text/xml; charset=UTF-16')).toBe(le);
    expect(decodeBytes(utf16be(doc), 'text/xml; charset=utf-16be')).toBe(doc);
  });

  it('accepts a declaration that agrees with the bytes', () => {
    const upper = '<?xml version="1.0" encoding="UTF-8"?><r/>';
    expect(decodeBytes(utf8(upper))).toBe(upper);
  });
});

describe('decodeBytes: refused encodings (§2 row 14)', () => {
  it('refuses encoding="utf-16" over UTF-8 bytes', () => {
    expectReadError(() => decodeBytes(utf8('<?xml version="1.0" encoding="utf-16"?><r/>')), 'encoding');
  });

  it('refuses encoding="utf-8" over UTF-16 bytes', () => {
    expectReadError(() => decodeBytes(utf16le('<?xml version="1.0" encoding="utf-8"?><r/>')), 'encoding');
  });

  it('refuses UTF-7 by charset and by declaration', () => {
    expectReadError(() => decodeBytes(utf8('<r/>'), 'text/xml; charset=utf-7'), 'encoding');
    expectReadError(() => decodeBytes(utf8('<?xml version="1.0" encoding="UTF-7"?><r/>')), 'encoding');
  });

  it('refuses unknown and unsupported charsets', () => {
    for (const charset of ['bogus', 'iso-8859-1', 'utf-32', '""']) {
      expectReadError(() => decodeBytes(utf8('<r/>'), `text/xml; charset=${charset}`), 'encoding');
    }
  });

  it('refuses a charset that contradicts the BOM', () => {
    expectReadError(() => decodeBytes(utf16le(doc), 'text/xml; charset=utf-8'), 'encoding');
    expectReadError(() => decodeBytes(utf16le(doc), 'text/xml; charset=utf-16be'), 'encoding');
    expectReadError(
      () => decodeBytes(bytes([0xef, 0xbb, 0xbf], utf8(doc)), 'text/xml; charset=utf-16'),
      'encoding',
    );
  });

  it('refuses UTF-16 without a BOM (XML 1.0 §4.3.3), labelled or not', () => {
    const bare = new Uint8Array(Buffer.from('<r/>', 'utf16le'));
    expectReadError(() => decodeBytes(bare, 'text/xml; charset=utf-16le'), 'encoding');
    expectReadError(() => decodeBytes(bare), 'encoding');
  });

  it('refuses UTF-32 byte order marks', () => {
    expectReadError(() => decodeBytes(bytes([0xff, 0xfe, 0, 0], [0x3c, 0, 0, 0])), 'encoding');
    expectReadError(() => decodeBytes(bytes([0, 0, 0xfe, 0xff], [0, 0, 0, 0x3c])), 'encoding');
  });

  it('refuses invalid UTF-8: bad continuation, overlong form, encoded surrogate, truncation', () => {
    for (const bad of [
      [0xc3, 0x28],
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xe2, 0x82],
    ]) {
      expectReadError(() => decodeBytes(bytes(utf8('<r>'), bad, utf8('</r>'))), 'encoding');
    }
  });

  it('refuses an odd number of UTF-16 bytes', () => {
    expectReadError(() => decodeBytes(bytes(utf16le('<r/>'), [0x3c])), 'encoding');
  });
});

describe('decodeBytes then readXml', () => {
  it('reads a UTF-16LE body with BOM end to end', () => {
    const root = readXml(decodeBytes(utf16le('<?xml version="1.0" encoding="utf-16"?><r>€</r>')));
    expect(root.children).toEqual(['€']);
  });

  it('refuses a BOM followed by text before the declaration (§2 rows 15–16)', () => {
    const text = decodeBytes(bytes([0xef, 0xbb, 0xbf], utf8(' <?xml version="1.0"?><r/>')));
    expectReadError(() => readXml(text), 'malformed');
  });
});
