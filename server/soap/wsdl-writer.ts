/**
 * A small indenting XML writer for the `?WSDL` document. ASMX writes its service description with an
 * indenting XmlTextWriter: two spaces per level, CRLF line ends, empty elements as `<x />`
 * (asmx-compatibility.md §1.6). Every attribute value and text is escaped here, so callers pass
 * plain strings.
 */
import { escapeAttr, escapeText } from './xml-escape.ts';

/** Attributes in document order; an undefined value leaves the attribute out. */
export type Attrs = Readonly<Record<string, string | undefined>>;

const NEWLINE = '\r\n';

function attrString(attrs: Attrs): string {
  let out = '';
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined) out += ` ${name}="${escapeAttr(value)}"`;
  }
  return out;
}

export class XmlWriter {
  private readonly lines: string[] = ['<?xml version="1.0" encoding="utf-8"?>'];
  private depth = 0;

  private push(line: string): void {
    this.lines.push('  '.repeat(this.depth) + line);
  }

  /** `<name … />`. */
  empty(name: string, attrs: Attrs = {}): void {
    this.push(`<${name}${attrString(attrs)} />`);
  }

  /** `<name …>text</name>` on one line. */
  text(name: string, attrs: Attrs, text: string): void {
    this.push(`<${name}${attrString(attrs)}>${escapeText(text)}</${name}>`);
  }

  /** An element whose children `body` writes; written as `<name … />` when it writes none. */
  element(name: string, attrs: Attrs, body: () => void): void {
    const start = this.lines.length;
    this.push(`<${name}${attrString(attrs)}>`);
    this.depth++;
    body();
    this.depth--;
    if (this.lines.length === start + 1) {
      this.lines[start] = `${'  '.repeat(this.depth)}<${name}${attrString(attrs)} />`;
    } else {
      this.push(`</${name}>`);
    }
  }

  toString(): string {
    return this.lines.join(NEWLINE);
  }
}
