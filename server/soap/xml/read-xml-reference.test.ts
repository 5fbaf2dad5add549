/**
 * The single-pass reader (read-xml.ts: the tree built from the strict scan) against the reader it
 * replaced (reference-reader.ts: the same scan, then fast-xml-parser's parse): for generated
 * documents (namespaces, attributes, references, CDATA, comments, PIs, white space and line ends,
 * names like `__proto__` or outside the BMP) and for mutations of them that break them in every
 * way, both give the same tree with the same positions, or both throw XmlReadError with the same
 * reason and message.
 */
import { describe, expect, it } from 'vitest';
import { readXml } from './read-xml.ts';
import { readXmlThroughParser } from './reference-reader.ts';

/** A small deterministic generator (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Good material, and (in some documents, now and then) what a namespace-aware reader refuses: an
// undeclared prefix, two colons, `xml` bound elsewhere, an HTML entity, a reference to U+0000, a
// name outside the BMP (fast-xml-parser's validator's case).
const NAMES = {
  good: ['a', 'b', 'c', 'p:c', 'q:d', '__proto__', 'constructor', 'toString', 'x-y.z', 'Ω'],
  bad: ['\u{10000}n', 'r:s', 'r:s:t', 'xmlns:e'],
};
const ATTRS = {
  good: ['id', 'p:k', 'q:k', 'k', 'xml:lang', 'j', 'l', 'xmlns'],
  bad: ['xmlns:r', 'xmlns:xml', 'r:k'],
};
const VALUES = {
  good: ['v', 'w', 'urn:one', 'urn:two', 'a&amp;b', '&#65;&#x42;', 'tab\there', 'line\nend', "'quoted'", ''],
  bad: ['&nbsp;', '&#0;', 'http://www.w3.org/XML/1998/namespace'],
};
const TEXTS = {
  good: ['t', 'u', ' v ', ' ', '\n  ', '\r\n', 'a&lt;b', '&#x1F600;', '1 &amp; 2', ']]', 'é', '\u{1F600}'],
  bad: ['&undefined;', '&#xFFFF;'],
};
const EDITS = ['<', '>', '&', '"', "'", '/', '=', '!', '?', '[', ']', '-', ':', ' ', 'x', '\u0001', '\uD800'];

function documentOf(r: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  // Two documents in five may hold something a reader refuses, one part in twenty of them.
  const badRate = r() < 0.4 ? 0.05 : 0;
  const from = (pool: { good: string[]; bad: string[] }) => pick(r() < badRate ? pool.bad : pool.good);
  const element = (depth: number): string => {
    const name = from(NAMES);
    let attrs = '';
    const n = Math.floor(r() * 4);
    const used = new Set<string>();
    for (let i = 0; i < n; i++) {
      const attr = from(ATTRS);
      if (used.has(attr) && r() < 0.95) continue; // now and then a repeated attribute
      used.add(attr);
      const value = from(VALUES);
      attrs +=
        pick(['"', "'"]) === '"'
          ? ` ${attr}="${value.replace(/"/g, '')}"`
          : ` ${attr} = '${value.replace(/'/g, '')}'`;
    }
    if (depth > 3 || r() < 0.2) return `<${name}${attrs}${pick(['/>', ' />'])}`;
    let content = '';
    const parts = Math.floor(r() * 5);
    for (let i = 0; i < parts; i++) {
      const kind = r();
      if (kind < 0.4) content += element(depth + 1);
      else if (kind < 0.7) content += from(TEXTS);
      else if (kind < 0.8) content += `<![CDATA[${pick(['x', ' x ', '<&>', ']]', ''])}]]>`;
      else if (kind < 0.9) content += `<!--${pick(['c', ' - ', ''])}-->`;
      else content += `<?${pick(['pi', 'p2'])} ${pick(['x', "don't", '"?'])}?>`;
    }
    return `<${name}${attrs}>${content}</${name}>`;
  };
  const decl = pick(['', '', '<?xml version="1.0" encoding="utf-8"?>', '<?xml version="1.0"?>\n']);
  const ns = pick([
    ' xmlns:p="urn:one" xmlns:q="urn:two"',
    ' xmlns:p="urn:one" xmlns:q="urn:one"',
    ' xmlns="urn:two" xmlns:p="urn:p" xmlns:q="urn:q"',
    '',
  ]);
  const body = element(0).replace(/^<([^\s/>]+)/, `<$1${ns}`);
  return `${decl}${pick(['', '\n', '<!-- c -->'])}${body}${pick(['', '\n', ' <?pi?>'])}`;
}

function mutate(r: () => number, doc: string): string {
  let s = doc;
  const edits = 1 + Math.floor(r() * 3);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(r() * (s.length + 1));
    const kind = r();
    if (kind < 0.4) s = s.slice(0, at) + s.slice(at + 1);
    else if (kind < 0.8) s = s.slice(0, at) + EDITS[Math.floor(r() * EDITS.length)] + s.slice(at);
    else {
      const from = Math.floor(r() * s.length);
      s = s.slice(0, at) + s.slice(from, from + 1 + Math.floor(r() * 8)) + s.slice(at);
    }
  }
  return s;
}

function outcome(read: (text: string) => unknown, text: string): string {
  try {
    return `tree ${JSON.stringify(read(text))}`;
  } catch (err) {
    const e = err as Error & { reason?: string };
    return `${e.name} ${e.reason ?? ''} ${e.message}`;
  }
}

describe('single-pass reader against the fast-xml-parser reference', () => {
  it('reads generated documents, and their mutations, exactly as the reference does', () => {
    const r = random(1804);
    let trees = 0;
    for (let i = 0; i < 6_000; i++) {
      const doc = documentOf(r);
      for (const text of [doc, mutate(r, doc), mutate(r, doc)]) {
        const expected = outcome(readXmlThroughParser, text);
        expect(outcome(readXml, text), JSON.stringify(text)).toBe(expected);
        if (expected.startsWith('tree')) trees++;
      }
    }
    // Both kinds are well represented: the comparison is not all errors, nor all trees.
    expect(trees).toBeGreaterThan(3_000);
    expect(trees).toBeLessThan(15_000);
  });
});
