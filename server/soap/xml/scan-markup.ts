import { isXmlSpace, NAME_AT, ONLY_SPACE } from './xml-chars.ts';
import type { XmlLimits } from './xml-limits.ts';
import { positionAt, XmlReadError, type XmlReadReason } from './xml-read-error.ts';

/**
 * The strict front-end in front of fast-xml-parser, which is not a validator
 * (docs: asmx-compatibility.md §4 "XMLParser.parse does not check well-formedness"; its
 * XMLValidator still accepts multiple roots, `<` in attribute values and unknown `<!…>` markup).
 *
 * One forward pass over LF-normalised text checks the XML 1.0 grammar the parser relies on:
 * the declaration only at offset 0 (row 16), one root with nothing but whitespace, comments and
 * PIs around it (row 21), matched tags, quoted and unique attributes without `<`, well-formed
 * comments, CDATA and PIs, no `]]>` in text; and it enforces the limits (rows 6, 7, 8, 12) before
 * anything is allocated per element. References are checked later by decode-entities.ts.
 *
 * Every search moves forward or is cached (`nextIndex`), so the scan is linear in the input.
 *
 * It returns the text fast-xml-parser should read: identical except that PI bodies are blanked,
 * because the parser scans PIs quote-aware and fails on `<?pi don't?>` or ends `<?pi "?>"?>` late.
 * Blanking keeps every offset, so element positions still point into the original text.
 */

export interface ScanResult {
  parserInput: string;
  elementCount: number;
}

const DECLARATION =
  /^<\?xml[ \t\n]+version[ \t\n]*=[ \t\n]*(?:"1\.0"|'1\.0')(?:[ \t\n]+encoding[ \t\n]*=[ \t\n]*(?:"[A-Za-z][\w.-]*"|'[A-Za-z][\w.-]*'))?(?:[ \t\n]+standalone[ \t\n]*=[ \t\n]*(?:"(?:yes|no)"|'(?:yes|no)'))?[ \t\n]*\?>$/;

export function scanMarkup(text: string, limits: XmlLimits): ScanResult {
  return new MarkupScanner(text, limits).scan();
}

const GT = 0x3e;
const EQUALS = 0x3d;

class MarkupScanner {
  private readonly text: string;
  private readonly limits: XmlLimits;
  private readonly nextLt: (from: number) => number;
  private readonly nextCdataEnd: (from: number) => number;
  /** Names of the open elements, innermost last. */
  private readonly open: string[] = [];
  /** Pieces of the parser input: the text with PI bodies blanked. */
  private readonly pieces: string[] = [];
  private copied = 0;
  private elementCount = 0;
  private totalAttributes = 0;
  private rootClosed = false;

  constructor(text: string, limits: XmlLimits) {
    this.text = text;
    this.limits = limits;
    this.nextLt = nextIndex(text, '<');
    this.nextCdataEnd = nextIndex(text, ']]>');
  }

  scan(): ScanResult {
    const { text } = this;
    let i = this.declaration();
    for (;;) {
      const lt = this.nextLt(i);
      this.charData(i, lt === -1 ? text.length : lt);
      if (lt === -1) break;
      if (text.startsWith('<!--', lt)) i = this.comment(lt);
      else if (text.startsWith('<![CDATA[', lt)) i = this.cdata(lt);
      else if (text.startsWith('<!DOCTYPE', lt)) this.fail('doctype', 'DTD is prohibited', lt);
      else if (text.startsWith('<!', lt)) this.fail('malformed', 'Unexpected markup declaration', lt);
      else if (text.startsWith('<?', lt)) i = this.processingInstruction(lt);
      else if (text.startsWith('</', lt)) i = this.endTag(lt);
      else i = this.startTag(lt);
    }
    if (this.elementCount === 0) this.fail('malformed', 'Root element is missing', text.length);
    if (this.open.length > 0) this.fail('malformed', 'Unclosed element', text.length);
    this.pieces.push(text.slice(this.copied));
    return { parserInput: this.pieces.join(''), elementCount: this.elementCount };
  }

  /** The XML declaration, only at offset 0 (row 16); returns where the document continues. */
  private declaration(): number {
    const { text } = this;
    if (!text.startsWith('<?xml') || !(isXmlSpace(text.charCodeAt(5)) || text.startsWith('?>', 5))) return 0;
    const end = text.indexOf('?>', 5);
    if (end === -1 || !DECLARATION.test(text.slice(0, end + 2)))
      this.fail('malformed', 'Bad XML declaration', 0);
    return end + 2;
  }

  /** Text between markup: only whitespace outside the root (row 21), never `]]>` inside it. */
  private charData(start: number, end: number): void {
    if (this.open.length === 0) {
      if (!ONLY_SPACE.test(this.text.slice(start, end)))
        this.fail('malformed', 'Text outside the root element', start);
      return;
    }
    const cdataEnd = this.nextCdataEnd(start);
    if (cdataEnd !== -1 && cdataEnd < end) this.fail('malformed', '"]]>" in text', cdataEnd);
  }

  private comment(lt: number): number {
    const end = this.text.indexOf('-->', lt + 4);
    if (end === -1) this.fail('malformed', 'Unclosed comment', lt);
    if (this.text.indexOf('--', lt + 4) < end) this.fail('malformed', '"--" inside a comment', lt);
    return end + 3;
  }

  private cdata(lt: number): number {
    if (this.open.length === 0) this.fail('malformed', 'CDATA outside the root element', lt);
    const end = this.text.indexOf(']]>', lt + 9);
    if (end === -1) this.fail('malformed', 'Unclosed CDATA section', lt);
    return end + 3;
  }

  private processingInstruction(lt: number): number {
    const { text } = this;
    const target = this.name(lt + 2);
    const bodyStart = lt + 2 + target.length;
    // Targets matching [Xx][Mm][Ll] are reserved; `<?xml` anywhere but offset 0 is a misplaced
    // declaration, which ASMX rejects (row 16). Namespaces in XML §7: no colon in a PI target.
    if (target.toLowerCase() === 'xml') this.fail('malformed', 'XML declaration not at the start', lt);
    if (target.includes(':')) this.fail('malformed', 'Colon in a processing instruction target', lt);
    if (!text.startsWith('?>', bodyStart) && !isXmlSpace(text.charCodeAt(bodyStart))) {
      this.fail('malformed', 'Bad processing instruction', lt);
    }
    const end = text.indexOf('?>', bodyStart);
    if (end === -1) this.fail('malformed', 'Unclosed processing instruction', lt);
    this.pieces.push(text.slice(this.copied, bodyStart), ' '.repeat(end - bodyStart));
    this.copied = end;
    return end + 2;
  }

  private endTag(lt: number): number {
    const name = this.name(lt + 2);
    const gt = this.skipSpace(lt + 2 + name.length);
    if (this.text.charCodeAt(gt) !== GT) this.fail('malformed', 'Bad end tag', lt);
    if (this.open.pop() !== name) this.fail('malformed', 'End tag does not match start tag', lt);
    if (this.open.length === 0) this.rootClosed = true;
    return gt + 1;
  }

  private startTag(lt: number): number {
    const { text, limits, open } = this;
    if (this.rootClosed) this.fail('malformed', 'More than one root element', lt);
    const name = this.name(lt + 1);
    if (++this.elementCount > limits.maxElements) this.fail('limit', 'Too many elements', lt);
    if (open.length + 1 > limits.maxDepth) this.fail('limit', 'Elements nested too deeply', lt);
    const seen = new Set<string>();
    let at = lt + 1 + name.length;
    for (;;) {
      const next = this.skipSpace(at);
      if (text.charCodeAt(next) === GT) {
        open.push(name);
        return next + 1;
      }
      if (text.startsWith('/>', next)) {
        if (open.length === 0) this.rootClosed = true;
        return next + 2;
      }
      if (next === at) this.fail('malformed', 'Bad start tag', at);
      const attrName = this.name(next);
      if (seen.has(attrName)) this.fail('malformed', 'Duplicate attribute', next);
      seen.add(attrName);
      if (seen.size > limits.maxAttributesPerElement || ++this.totalAttributes > limits.maxTotalAttributes) {
        this.fail('limit', 'Too many attributes', next);
      }
      at = this.attributeValue(next + attrName.length);
    }
  }

  /** `S? = S? "…"` or `'…'` without `<`; returns the offset after the closing quote. */
  private attributeValue(afterName: number): number {
    const { text } = this;
    const eq = this.skipSpace(afterName);
    if (text.charCodeAt(eq) !== EQUALS) this.fail('malformed', 'Attribute without value', eq);
    const quoteAt = this.skipSpace(eq + 1);
    const quote = text[quoteAt];
    if (quote !== '"' && quote !== "'") this.fail('malformed', 'Unquoted attribute value', quoteAt);
    const close = text.indexOf(quote, quoteAt + 1);
    if (close === -1) this.fail('malformed', 'Unclosed attribute value', quoteAt);
    const lt = this.nextLt(quoteAt + 1);
    if (lt !== -1 && lt < close) this.fail('malformed', '"<" in attribute value', lt);
    return close + 1;
  }

  private name(at: number): string {
    NAME_AT.lastIndex = at;
    const name = NAME_AT.exec(this.text)?.[0];
    if (name === undefined) this.fail('malformed', 'Name expected', at);
    if (name.length > this.limits.maxNameLength) this.fail('limit', 'Name too long', at);
    return name;
  }

  private skipSpace(at: number): number {
    let i = at;
    while (isXmlSpace(this.text.charCodeAt(i))) i++;
    return i;
  }

  private fail(reason: XmlReadReason, message: string, at: number): never {
    throw new XmlReadError(reason, message, positionAt(this.text, at));
  }
}

/** `indexOf` with memory: repeated calls with growing `from` scan each character once in total. */
function nextIndex(text: string, needle: string): (from: number) => number {
  let found = -2;
  return (from) => {
    if (found === -1 || found >= from) return found;
    found = text.indexOf(needle, from);
    return found;
  };
}
