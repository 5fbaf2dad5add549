/**
 * The reader as it was before issue 18, through fast-xml-parser: the strict scan, then
 * fast-xml-parser's ordered parse, then the same entity decoding and namespace resolution. The
 * request path no longer parses twice (read-xml.ts builds the tree from the scan); this one is
 * kept as the reference the single-pass reader is checked against (read-xml-reference.test.ts):
 * the same tree, or the same error, for every document.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { decodeAttributeValue, decodeReferences } from './decode-entities.ts';
import { NamespaceScope, splitQName, XMLNS_NS } from './namespace-scope.ts';
import type { XmlAttribute, XmlElement, XmlNode } from './xml-element.ts';
import { scanMarkup } from './scan-markup.ts';
import { NON_XML_CHAR } from './xml-chars.ts';
import { DEFAULT_XML_LIMITS, type XmlLimits } from './xml-limits.ts';
import { positionAt, XmlReadError } from './xml-read-error.ts';

/**
 * fast-xml-parser's ordered output → XmlElement, with our own entity decoding and namespace
 * resolution (docs: asmx-compatibility.md §4 "Full set" of options). The input has passed
 * scanMarkup, so it is well-formed and within limits; this step only interprets it.
 */

// Every tag name reaches the parser as TAG_MARK + name. The parser throws `[SECURITY] Invalid name`
// for `constructor`/`prototype`, renames `__proto__` and `toString`-like names (§4 "Names"), and
// our tree must keep them as ordinary elements the SOAP layer ignores (§2 row 22). `$` cannot start
// an XML name, so the mark never collides with `#text`, `#cdata` or `:@`, and the transform is
// idempotent: 5.12.1 applies it twice to self-closing tags.
const TAG_MARK = '$';
const ATTR_MARK = '@_';
const TEXT = '#text';
const CDATA = '#cdata';
// Typed as the `Symbol` wrapper in fxp.d.ts; it is a plain symbol at run time.
const META = XMLParser.getMetaDataSymbol() as unknown as symbol;

type OrderedNode = Record<string | symbol, unknown>;

// One parser per depth limit, built once: building one costs as much as parsing a small envelope.
const parsers = new Map<number, XMLParser>();

function parseOrdered(parserInput: string, maxDepth: number): OrderedNode[] {
  let parser = parsers.get(maxDepth);
  if (!parser) {
    parser = new XMLParser({
      preserveOrder: true,
      ignoreAttributes: false,
      attributeNamePrefix: ATTR_MARK,
      parseTagValue: false,
      parseAttributeValue: false,
      trimValues: false,
      processEntities: false,
      cdataPropName: CDATA,
      ignoreDeclaration: true,
      ignorePiTags: true,
      removeNSPrefix: false,
      captureMetaData: true,
      jPath: false,
      maxNestedTags: maxDepth + 1,
      transformTagName: (name) => (name.startsWith(TAG_MARK) ? name : TAG_MARK + name),
    });
    parsers.set(maxDepth, parser);
  }
  return parser.parse(parserInput) as OrderedNode[];
}

function buildTree(nodes: OrderedNode[], text: string): { root: XmlElement; elementCount: number } {
  const ctx = { scope: new NamespaceScope(), lineStarts: lineStartsOf(text), elementCount: 0 };
  const roots: XmlElement[] = [];
  for (const node of nodes) {
    const el = toElement(node, ctx);
    if (el !== undefined) roots.push(el);
  }
  const root = roots[0];
  if (roots.length !== 1 || root === undefined) throw new XmlReadError('malformed', 'Expected one root');
  return { root, elementCount: ctx.elementCount };
}

interface Context {
  scope: NamespaceScope;
  lineStarts: number[];
  elementCount: number;
}

// Hot path, once per element: plain loops, no closures made per call (under tsx every closure
// created costs a property definition for its name).
function tagKey(node: OrderedNode): string | undefined {
  for (const k in node) if (k.startsWith(TAG_MARK)) return k;
  return undefined;
}

function toElement(node: OrderedNode, ctx: Context): XmlElement | undefined {
  const key = tagKey(node);
  if (key === undefined) return undefined;
  ctx.elementCount++;
  const { prefix, local } = splitQName(key.slice(TAG_MARK.length));
  if (prefix === 'xmlns') throw new XmlReadError('malformed', 'Element names cannot use the xmlns prefix');

  const rawAttrs = node[':@'] as Record<string, string> | undefined;
  const raw: { prefix: string; local: string; value: string }[] = [];
  if (rawAttrs) {
    for (const name in rawAttrs) {
      const q = splitQName(name.slice(ATTR_MARK.length));
      raw.push({ prefix: q.prefix, local: q.local, value: decodeAttributeValue(rawAttrs[name] as string) });
    }
  }
  // Declarations first: they apply to the element's own name and to all of its attributes.
  const declared: string[] = [];
  for (const a of raw) {
    if (a.prefix === '' && a.local === 'xmlns') declared.push(ctx.scope.declare('', a.value));
    else if (a.prefix === 'xmlns') declared.push(ctx.scope.declare(a.local, a.value));
  }

  const attrs: XmlAttribute[] = [];
  const expanded = raw.length > 1 ? new Set<string>() : undefined;
  for (const a of raw) {
    const isDeclaration = a.prefix === 'xmlns' || (a.prefix === '' && a.local === 'xmlns');
    const ns = isDeclaration ? XMLNS_NS : a.prefix === '' ? '' : ctx.scope.resolve(a.prefix);
    if (expanded) {
      // `p:a` and `q:a` with p and q bound to one URI are duplicates (Namespaces in XML §6.3).
      const id = `${ns} ${a.local}`;
      if (expanded.has(id)) throw new XmlReadError('malformed', 'Duplicate attribute');
      expanded.add(id);
    }
    attrs.push({ ns, local: a.local, prefix: a.prefix, value: a.value });
  }

  const ns = ctx.scope.resolve(prefix);
  const meta = node[META] as { startIndex?: number } | undefined;
  const { line, col } = locate(meta?.startIndex ?? 0, ctx.lineStarts);
  const children = toChildren(node[key] as OrderedNode[], ctx);
  ctx.scope.end(declared);
  return { ns, local, prefix, attrs, children, line, col };
}

function toChildren(nodes: OrderedNode[], ctx: Context): XmlNode[] {
  const children: XmlNode[] = [];
  let text = '';
  for (const node of nodes) {
    if (TEXT in node) {
      text += decodeReferences(node[TEXT] as string);
    } else if (CDATA in node) {
      // CDATA is literal: `<![CDATA[M&1<]]>` is `M&1<` (§2 row 17).
      text += ((node[CDATA] as OrderedNode[])[0]?.[TEXT] as string | undefined) ?? '';
    } else {
      const child = toElement(node, ctx);
      if (child === undefined) continue;
      if (text !== '') children.push(text);
      text = '';
      children.push(child);
    }
  }
  if (text !== '') children.push(text);
  return children;
}

/** Offsets at which each line starts; lines are LF-separated after normalisation. */
function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', nl + 1)) starts.push(nl + 1);
  return starts;
}

/** Line and column of the name after the `<` at `offset`, by binary search over line starts. */
function locate(offset: number, lineStarts: number[]): { line: number; col: number } {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((lineStarts[mid] as number) <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, col: offset - (lineStarts[low] as number) + 2 };
}

/** readXml as it was: the scan, fast-xml-parser's parse, the tree built from the parser's output. */
export function readXmlThroughParser(text: string, limits: Partial<XmlLimits> = {}): XmlElement {
  const effective: XmlLimits = { ...DEFAULT_XML_LIMITS, ...limits };
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (source.includes('<!DOCTYPE')) throw new XmlReadError('doctype', 'DTD is prohibited');
  const normalized = source.replace(/\r\n?/g, '\n');
  const bad = NON_XML_CHAR.exec(normalized);
  if (bad !== null) {
    throw new XmlReadError(
      'invalid-char',
      'Character XML 1.0 does not allow',
      positionAt(normalized, bad.index),
    );
  }
  const scan = scanMarkup(normalized, effective);
  if (/[\uD800-\uDFFF]/.test(scan.parserInput) && XMLValidator.validate(scan.parserInput) !== true) {
    throw new XmlReadError('malformed', 'Document is not well-formed');
  }
  const { root, elementCount } = buildTree(parseOrdered(scan.parserInput, effective.maxDepth), normalized);
  if (elementCount !== scan.elementCount) {
    throw new XmlReadError('malformed', 'Parser and front-end disagree on the document structure');
  }
  return root;
}
