import { decodeAttributeValue, decodeReferences } from './decode-entities.ts';
import { NamespaceScope, splitQName, XMLNS_NS } from './namespace-scope.ts';
import type { RawElement } from './scan-markup.ts';
import type { XmlAttribute, XmlElement, XmlNode } from './xml-element.ts';
import { XmlReadError } from './xml-read-error.ts';

/**
 * The scan's raw tree → XmlElement, with our own entity decoding and namespace resolution
 * (docs: asmx-compatibility.md §4: fast-xml-parser's options as the "Full set" gives them —
 * values untrimmed and unconverted, references decoded by decode-entities.ts only, names resolved
 * by URI). The input has passed scanMarkup, so it is well-formed and within limits; this step only
 * interprets it. Element names like `__proto__` or `constructor` are ordinary elements: the tree
 * holds no name-keyed objects.
 */
export function buildTree(raw: RawElement, text: string): { root: XmlElement; elementCount: number } {
  const ctx: Context = { scope: new NamespaceScope(), lineStarts: lineStartsOf(text), elementCount: 0 };
  return { root: toElement(raw, ctx), elementCount: ctx.elementCount };
}

interface Context {
  scope: NamespaceScope;
  lineStarts: number[];
  elementCount: number;
}

// Hot path, once per element: plain loops, no closures made per call (under tsx every closure
// created costs a property definition for its name).
function toElement(node: RawElement, ctx: Context): XmlElement {
  ctx.elementCount++;
  const { prefix, local } = splitQName(node.name);
  if (prefix === 'xmlns') throw new XmlReadError('malformed', 'Element names cannot use the xmlns prefix');

  const raw: { prefix: string; local: string; value: string }[] = [];
  for (let i = 0; i < node.attrs.length; i += 2) {
    const q = splitQName(node.attrs[i] as string);
    raw.push({ prefix: q.prefix, local: q.local, value: decodeAttributeValue(node.attrs[i + 1] as string) });
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
  const { line, col } = locate(node.at, ctx.lineStarts);
  const children = toChildren(node.children, ctx);
  ctx.scope.end(declared);
  return { ns, local, prefix, attrs, children, line, col };
}

function toChildren(nodes: RawElement['children'], ctx: Context): XmlNode[] {
  const children: XmlNode[] = [];
  let text = '';
  for (const node of nodes) {
    if (typeof node === 'string') {
      text += decodeReferences(node);
    } else if ('cdata' in node) {
      // CDATA is literal: `<![CDATA[M&1<]]>` is `M&1<` (§2 row 17).
      text += node.cdata;
    } else {
      const child = toElement(node, ctx);
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
