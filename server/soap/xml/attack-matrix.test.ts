import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeBytes } from './decode-bytes.ts';
import { readXml } from './read-xml.ts';
import { child, envelope, expectReadError, operationOf } from '../../../test/kit/soap/xml-documents.ts';
import { attr, childElements, textOf } from './xml-element.ts';

/**
 * One test per row of docs: asmx-compatibility.md §2 "XML attack matrix" that concerns the reader.
 * Rows 9 (oversized body), 10 (compression bomb), 24 (SOAPAction spoofing) and 25 (signature
 * wrapping) belong to the HTTP and SOAP layers. Timings on the 2-core CI box are noisy, so bounds
 * are generous and the outcome is what is asserted.
 */

const utf8 = (s: string) => new TextEncoder().encode(s);
const timed = <T>(f: () => T): { value: T; ms: number } => {
  const start = performance.now();
  const value = f();
  return { value, ms: performance.now() - start };
};
const repeat = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join(' ');

describe('§2 XML attack matrix', () => {
  it('row 1: XXE external entity → doctype, and the reader cannot touch files or the network', () => {
    const xml = `<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>${envelope('<merchantId>&x;</merchantId>')}`;
    expectReadError(() => readXml(xml), 'doctype');
    // The guarantee is structural: no module here imports anything but fast-xml-parser and siblings.
    for (const file of readdirSync(import.meta.dirname).filter((f) => /(?<!\.test)\.ts$/.test(f))) {
      const source = readFileSync(new URL(file, import.meta.url), 'utf8');
      for (const [, from] of source.matchAll(/from '([^']+)'/g)) {
        expect(from, file).toMatch(/^(\.\/|fast-xml-parser$)/);
      }
      expect(source, file).not.toMatch(/\b(fetch|require|import)\s*\(/);
    }
  });

  it('row 2: parameter entity and external DTD → doctype', () => {
    expectReadError(() => readXml('<!DOCTYPE r SYSTEM "http://attacker/x.dtd"><r/>'), 'doctype');
    expectReadError(
      () => readXml('<!DOCTYPE r [<!ENTITY % pe SYSTEM "http://attacker/x">%pe;]><r/>'),
      'doctype',
    );
    // Anywhere, even after the root or inside a comment, as the design asks.
    expectReadError(() => readXml('<r/><!DOCTYPE r>'), 'doctype');
    expectReadError(() => readXml('<r><!-- <!DOCTYPE --></r>'), 'doctype');
  });

  it('row 3: billion laughs → doctype, fast', () => {
    const entities = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`);
    const xml = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">${entities.join('')}]><lolz>&lol9;</lolz>`;
    const { ms } = timed(() => expectReadError(() => readXml(xml), 'doctype'));
    expect(ms).toBeLessThan(1000);
  });

  it('row 4: quadratic blowup (50 KB entity × 50k references) → doctype', () => {
    const xml = `<!DOCTYPE r [<!ENTITY a "${'x'.repeat(50_000)}">]><r>${'&a;'.repeat(50_000)}</r>`;
    expectReadError(() => readXml(xml), 'doctype');
  });

  it('row 5: numeric char-ref flood is decoded in linear, bounded time', () => {
    const oneMiB = timed(() => readXml(envelope(`<note>${'&#65;'.repeat(200_000)}</note>`)));
    const million = timed(() => readXml(envelope(`<note>${'&#65;'.repeat(1_000_000)}</note>`)));
    expect(textOf(child(operationOf(oneMiB.value), 'note'))).toBe('A'.repeat(200_000));
    expect(textOf(child(operationOf(million.value), 'note'))).toBe('A'.repeat(1_000_000));
    expect(million.ms).toBeLessThan(10_000);
    // A megabyte of digits in one reference is refused without big-number arithmetic.
    expectReadError(() => readXml(`<r>&#${'9'.repeat(1_000_000)};</r>`), 'invalid-char');
  });

  it('row 6: deep nesting, 10k and 1M levels → limit, rejected at depth 65', () => {
    const nest = (n: number) => envelope(`${'<a>'.repeat(n)}${'</a>'.repeat(n)}`);
    expectReadError(() => readXml(nest(10_000)), 'limit');
    const { ms } = timed(() => expectReadError(() => readXml(nest(1_000_000)), 'limit'));
    expect(ms).toBeLessThan(2000);
    // Envelope, Body and GetHistory use 3 of the 64 levels.
    expect(readXml(nest(61)).local).toBe('Envelope');
    expectReadError(() => readXml(nest(62)), 'limit');
  });

  it('row 7: attribute blowup, 100k attributes on one element → limit', () => {
    expectReadError(() => readXml(envelope(`<a ${repeat(100_000, (i) => `a${i}="1"`)}/>`)), 'limit');
    expect(readXml(`<a ${repeat(256, (i) => `a${i}="1"`)}/>`).attrs).toHaveLength(256);
  });

  it('row 8: overlong element and attribute names → limit; the error does not echo them', () => {
    const long = 'n'.repeat(1_000_000);
    expectReadError(() => readXml(`<${long}/>`), 'limit');
    expectReadError(() => readXml(`<r ${long}="1"/>`), 'limit');
    expectReadError(() => readXml(`<r><?${long}?></r>`), 'limit');
    // Huge values are the body limit's job (413); the reader just copes with them.
    expect(attr(readXml(`<r v="${'x'.repeat(1_000_000)}"/>`), '', 'v')).toHaveLength(1_000_000);
  });

  it('row 11: hash-collision attribute names stay linear and are still capped', () => {
    // "Ez" and "FY" collide under DJBX31A, so every name below has the same classic hash.
    const colliding = (i: number) =>
      [...i.toString(2).padStart(8, '0')].map((b) => (b === '0' ? 'Ez' : 'FY')).join('');
    expect(readXml(`<r ${repeat(256, (i) => `${colliding(i)}="1"`)}/>`).attrs).toHaveLength(256);
    expectReadError(() => readXml(`<r ${repeat(257, (i) => `x${colliding(i)}="1"`)}/>`), 'limit');
  });

  it('row 12: namespace declaration flood, 100k xmlns:pN on Envelope → limit', () => {
    const decls = repeat(100_000, (i) => `xmlns:p${i}="urn:p${i}"`);
    expectReadError(() => readXml(`<soap:Envelope xmlns:soap="urn:s" ${decls}/>`), 'limit');
    // Under the caps, many nested scopes still resolve (scope stack, not map copies).
    const nested = `${'<e xmlns:p="urn:x">'.repeat(60)}<p:leaf/>${'</e>'.repeat(60)}`;
    expect(readXml(nested).local).toBe('e');
  });

  it('row 13: SOAP array attack attributes are just attributes', () => {
    const op = operationOf(
      readXml(
        envelope(
          '<a xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" soapenc:arrayType="x[1000000000]"/>',
        ),
      ),
    );
    expect(attr(child(op, 'a'), 'http://schemas.xmlsoap.org/soap/encoding/', 'arrayType')).toBe(
      'x[1000000000]',
    );
  });

  it('row 14: odd encodings → encoding', () => {
    expectReadError(() => decodeBytes(utf8('<?xml version="1.0" encoding="utf-16"?><r/>')), 'encoding');
    expectReadError(() => decodeBytes(utf8('<r/>'), 'text/xml; charset=utf-7'), 'encoding');
    expectReadError(() => decodeBytes(utf8('<?xml version="1.0" encoding="utf-7"?><r/>')), 'encoding');
    expectReadError(
      () => decodeBytes(Uint8Array.of(0xef, 0xbb, 0xbf, 0x3c, 0x72, 0x2f, 0x3e), 'text/xml; charset=utf-16'),
      'encoding',
    );
    expectReadError(
      () => decodeBytes(Uint8Array.of(0x3c, 0x72, 0x3e, 0xff, 0x3c, 0x2f, 0x72, 0x3e)),
      'encoding',
    );
  });

  it('row 15: UTF-8 BOM and UTF-16LE BOM bodies are accepted', () => {
    const xml = envelope('<merchantId>M€</merchantId>');
    const withBom = Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8(xml)]);
    const le = Uint8Array.from([0xff, 0xfe, ...Buffer.from(xml.replace('utf-8', 'utf-16'), 'utf16le')]);
    for (const body of [withBom, le]) {
      expect(textOf(child(operationOf(readXml(decodeBytes(body))), 'merchantId'))).toBe('M€');
    }
  });

  it('row 16: a declaration that is not first → malformed', () => {
    for (const xml of [
      ` ${envelope('')}`,
      `<!-- c -->${envelope('')}`,
      '<r><?xml version="1.0"?></r>',
      '<?XML version="1.0"?><r/>',
    ]) {
      expectReadError(() => readXml(xml), 'malformed');
    }
  });

  it('row 17: CDATA gives its literal content; CDATA between structure elements is ignorable text', () => {
    const root = readXml(
      envelope('<merchantId><![CDATA[M&1<]]></merchantId>').replace(
        '<soap:Body>',
        '<soap:Body><![CDATA[ ]]>',
      ),
    );
    expect(textOf(child(operationOf(root), 'merchantId'))).toBe('M&1<');
    expect(childElements(child(root, 'Body')).map((e) => e.local)).toEqual(['GetHistory']);
  });

  it('row 18: comments and PIs in Body are ignored', () => {
    const root = readXml(
      envelope('<!-- x --><amount>1<!-- y -->0<?pi z?></amount><?pi?>').replace(
        '<soap:Body>',
        '<soap:Body><?pi?><!---->',
      ),
    );
    expect(childElements(operationOf(root)).map((e) => e.local)).toEqual(['amount']);
    expect(textOf(child(operationOf(root), 'amount'))).toBe('10');
  });

  it('row 19: characters outside XML 1.0, raw or as references → invalid-char', () => {
    for (const bad of [
      '\u0001',
      '\u0000',
      '\uFFFE',
      '\uD800',
      '&#x1D;',
      '&#0;',
      '&#xD800;',
      '&#x110000;',
      '&#1;',
    ]) {
      expectReadError(() => readXml(envelope(`<v>${bad}</v>`)), 'invalid-char');
      expectReadError(() => readXml(envelope(`<v a="${bad}"/>`)), 'invalid-char');
    }
  });

  it('row 20: undeclared entities → undeclared-entity; a bare & → malformed', () => {
    expectReadError(() => readXml(envelope('<v>&nbsp;</v>')), 'undeclared-entity');
    expectReadError(() => readXml(envelope('<v a="&copy;"/>')), 'undeclared-entity');
    for (const bad of ['a & b', '&amp', '&#;', '&#x;', '&#X41;', '&#12a;']) {
      expectReadError(() => readXml(envelope(`<v>${bad}</v>`)), 'malformed');
    }
  });

  it('row 21: multiple roots and trailing junk → malformed', () => {
    for (const xml of [
      `${envelope('')}<x/>`,
      `${envelope('')}junk`,
      '<a/><b/>',
      'x<a/>',
      '',
      '  ',
      '<!-- only -->',
    ]) {
      expectReadError(() => readXml(xml), 'malformed');
    }
    // Whitespace, comments and PIs around the root are fine.
    expect(readXml(`\n<!-- a --><?pi?>\n${envelope('').slice(38)}\n<!-- b -->\n`).local).toBe('Envelope');
  });

  it('row 22: prototype-pollution names are ordinary elements and attributes', () => {
    const names = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
    const body = names
      .map((n) => `<${n} ${n}="1" xmlns:${n}="urn:${n}"><polluted>yes</polluted></${n}><${n}/>`)
      .join('');
    const root = readXml(envelope(`${body}<x __proto__:polluted="yes" xmlns:__proto__="urn:p"/>`));
    const op = operationOf(root);
    expect(childElements(op).map((e) => e.local)).toEqual([...names.flatMap((n) => [n, n]), 'x']);
    expect(attr(child(op, 'constructor'), '', 'constructor')).toBe('1');
    expect(attr(child(op, 'x'), 'urn:p', 'polluted')).toBe('yes');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });

  it('row 23: duplicate elements are all kept, in document order (the SOAP layer takes the first)', () => {
    const op = operationOf(readXml(envelope('<amount>1</amount><amount>999</amount>')));
    expect(childElements(op).map((e) => textOf(e))).toEqual(['1', '999']);
  });

  it('row 26: XInclude and xsi:schemaLocation are never resolved', () => {
    const root = readXml(
      envelope(
        '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="file:///etc/passwd" parse="text"/>' +
          '<m xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="urn:x http://attacker/x.xsd">1</m>',
      ),
    );
    const include = child(operationOf(root), 'include');
    expect([include.ns, include.children]).toEqual(['http://www.w3.org/2001/XInclude', []]);
    expect(textOf(child(operationOf(root), 'm'))).toBe('1');
  });
});
