/**
 * The namespace-resolved tree the reader produces. Names are compared by (ns, local); the prefix is
 * kept only for diagnostics, since clients use any prefix or a default namespace
 * (docs: asmx-compatibility.md §3 "Server rules").
 */

export interface XmlAttribute {
  /** Namespace URI; '' for unprefixed attributes (they never take the default namespace). */
  readonly ns: string;
  readonly local: string;
  readonly prefix: string;
  /** Decoded and attribute-value-normalised (XML 1.0 §3.3.3). */
  readonly value: string;
}

export interface XmlElement {
  /** Namespace URI; '' when the element is in no namespace. */
  readonly ns: string;
  readonly local: string;
  readonly prefix: string;
  /**
   * In document order. Namespace declarations are included, as DOM does: `xmlns:p` has
   * ns XMLNS_NS, prefix 'xmlns', local 'p'; `xmlns` has ns XMLNS_NS, prefix '', local 'xmlns'.
   */
  readonly attrs: readonly XmlAttribute[];
  /** Elements and text in document order; adjacent text and CDATA are merged into one string. */
  readonly children: readonly XmlNode[];
  /** 1-based line of the start tag. */
  readonly line: number;
  /** 1-based column of the element's name (just after `<`), as .NET's IXmlLineInfo reports it. */
  readonly col: number;
}

export type XmlNode = XmlElement | string;

export function isElement(node: XmlNode): node is XmlElement {
  return typeof node !== 'string';
}

/** Child elements in document order, duplicates included (the SOAP layer applies first-wins, §1.4). */
export function childElements(el: XmlElement): XmlElement[] {
  return el.children.filter(isElement);
}

/**
 * The text content of a simple-content element: '' for `<x/>`, the merged text otherwise.
 *
 * Returns `undefined` when the element has child elements. XmlSerializer's ReadElementString fails
 * on such content; the SOAP layer turns `undefined` into that fault with the element's (line, col),
 * which this module cannot phrase (docs: asmx-compatibility.md §1.3 "(l, p)").
 */
export function textOf(el: XmlElement): string | undefined {
  let text = '';
  for (const child of el.children) {
    if (typeof child !== 'string') return undefined;
    text += child;
  }
  return text;
}

/** The value of the attribute with this expanded name, or `undefined`. Use ns '' for unprefixed. */
export function attr(el: XmlElement, ns: string, local: string): string | undefined {
  return el.attrs.find((a) => a.ns === ns && a.local === local)?.value;
}
