import { isXmlSpace, NAME_AT, ONLY_SPACE } from './xml-chars.ts';
import type { XmlLimits } from './xml-limits.ts';
import { positionAt, XmlReadError, type XmlReadReason } from './xml-read-error.ts';

/**
 * The strict front-end of the reader. fast-xml-parser is not a validator
 * (docs: asmx-compatibility.md §4 "XMLParser.parse does not check well-formedness"; its
 * XMLValidator still accepts multiple roots, `<` in attribute values and unknown `<!…>` markup), so
 * this scan is what decides well-formedness.
 *
 * One forward pass over LF-normalised text checks the XML 1.0 grammar: the declaration only at
 * offset 0 (row 16), one root with nothing but whitespace, comments and PIs around it (row 21),
 * matched tags, quoted and unique attributes without `<`, well-formed comments, CDATA and PIs, no
 * `]]>` in text; and it enforces the limits (rows 6, 7, 8, 12) as it goes. References are checked
 * later by decode-entities.ts.
 *
 * The same pass records what it walked as a raw tree (`RawElement`: names, raw attribute values,
 * raw text and CDATA, `<` offsets), which build-tree.ts interprets; so the document is parsed once
 * (issue 18; until then fast-xml-parser parsed it a second time, reference-reader.ts).
 *
 * Every search moves forward or is cached (`nextIndex`), so the scan is linear in the input.
 *
 * It also returns the text for fast-xml-parser's validator, which still judges names outside the
 * BMP (read-xml.ts): identical except that PI bodies are blanked, because fast-xml-parser scans PIs
 * quote-aware and fails on `<?pi don't?>` or ends `<?pi "?>"?>` late. Blanking keeps every offset.
 */

export interface ScanResult {
  /** The text with PI bodies blanked, for fast-xml-parser's validator (read-xml.ts). */
  parserInput: string;
  elementCount: number;
  /** The document element as scanned: names, raw attribute values and raw text, in order. */
  root: RawElement;
}

/**
 * An element as the scan found it, before any interpretation (build-tree.ts resolves namespaces and
 * decodes references): its qualified name, the offset of its `<`, its attributes as name/raw value
 * pairs in document order, and its content. Text is raw (references undecoded); CDATA content is
 * literal, so it is kept apart; comments and PIs are left out.
 */
export interface RawElement {
  name: string;
  at: number;
  /** name, value, name, value, …: the values as written between the quotes. */
  attrs: string[];
  children: (RawElement | string | RawCdata)[];
}

export interface RawCdata {
  cdata: string;
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
  /** The open elements, innermost last. */
  private readonly open: RawElement[] = [];
  private root: RawElement | undefined;
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
    // elementCount > 0: the first start tag set the root.
    return {
      parserInput: this.pieces.join(''),
      elementCount: this.elementCount,
      root: this.root as RawElement,
    };
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
    if (end > start) this.current().children.push(this.text.slice(start, end));
  }

  /** The innermost open element (only called inside the root). */
  private current(): RawElement {
    return this.open[this.open.length - 1] as RawElement;
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
    this.current().children.push({ cdata: this.text.slice(lt + 9, end) });
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
    if (this.open.pop()?.name !== name) this.fail('malformed', 'End tag does not match start tag', lt);
    if (this.open.length === 0) this.rootClosed = true;
    return gt + 1;
  }

  private startTag(lt: number): number {
    const { text, limits, open } = this;
    if (this.rootClosed) this.fail('malformed', 'More than one root element', lt);
    const name = this.name(lt + 1);
    if (++this.elementCount > limits.maxElements) this.fail('limit', 'Too many elements', lt);
    if (open.length + 1 > limits.maxDepth) this.fail('limit', 'Elements nested too deeply', lt);
    const element: RawElement = { name, at: lt, attrs: [], children: [] };
    const { attrs } = element;
    let at = lt + 1 + name.length;
    for (;;) {
      const next = this.skipSpace(at);
      if (text.charCodeAt(next) === GT) {
        this.attach(element);
        open.push(element);
        return next + 1;
      }
      if (text.startsWith('/>', next)) {
        this.attach(element);
        if (open.length === 0) this.rootClosed = true;
        return next + 2;
      }
      if (next === at) this.fail('malformed', 'Bad start tag', at);
      const attrName = this.name(next);
      // Attributes are few (the limit bounds them): a scan of the names so far beats a Set per tag.
      for (let i = 0; i < attrs.length; i += 2) {
        if (attrs[i] === attrName) this.fail('malformed', 'Duplicate attribute', next);
      }
      if (
        attrs.length / 2 + 1 > limits.maxAttributesPerElement ||
        ++this.totalAttributes > limits.maxTotalAttributes
      ) {
        this.fail('limit', 'Too many attributes', next);
      }
      const quoteAt = this.attributeValue(next + attrName.length);
      const close = this.attributeEnd;
      attrs.push(attrName, text.slice(quoteAt + 1, close));
      at = close + 1;
    }
  }

  /** A new element into its parent's content, or as the root. */
  private attach(element: RawElement): void {
    if (this.open.length === 0) this.root = element;
    else this.current().children.push(element);
  }

  /** Where the last attribute value's closing quote is (attributeValue sets it). */
  private attributeEnd = 0;

  /**
   * `S? = S? "…"` or `'…'` without `<`; returns the offset of the opening quote and leaves that of
   * the closing one in `attributeEnd`.
   */
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
    this.attributeEnd = close;
    return quoteAt;
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
