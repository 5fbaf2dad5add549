import { XMLValidator } from 'fast-xml-parser';
import { buildTree } from './build-tree.ts';
import { scanMarkup } from './scan-markup.ts';
import { NON_XML_CHAR } from './xml-chars.ts';
import type { XmlElement } from './xml-element.ts';
import { DEFAULT_XML_LIMITS, type XmlLimits } from './xml-limits.ts';
import { positionAt, XmlReadError } from './xml-read-error.ts';

/**
 * Reads a request document into its namespace-resolved document element, or throws XmlReadError.
 * This is ASMX's `XmlTextReader` with `DtdProcessing = Prohibit`, `XmlResolver = null` and
 * `Normalization = true` (docs: asmx-compatibility.md §1.2 point 5), built as §4 recommends:
 * a strict front-end, then our own entity decoding and namespace resolution. The front-end's one
 * pass also records the tree it walked (scan-markup.ts `RawElement`), so the document is parsed
 * once: fast-xml-parser's ordered parse of the same text, which this reader used to run after the
 * scan, cost more than the rest of a small request's XML work together (issue 18); it is kept as the
 * reference this reader is tested against (reference-reader.ts).
 *
 * `text` is the decoded body (see decode-bytes.ts); a leading U+FEFF is tolerated. Linear time:
 * every step is a forward pass or bounded by the limits.
 */
export function readXml(text: string, limits: Partial<XmlLimits> = {}): XmlElement {
  const effective: XmlLimits = { ...DEFAULT_XML_LIMITS, ...limits };
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;

  // Any DOCTYPE, before anything else looks at the text: this alone closes XXE, parameter
  // entities, external DTDs, billion laughs and quadratic blowup (§2 rows 1–4, §4 "DOCTYPE").
  // Checked everywhere, even inside comments or CDATA, as the design asks; XML is case-sensitive,
  // so `<!doctype` is not a DOCTYPE (the scan rejects it as unknown markup).
  if (source.includes('<!DOCTYPE')) throw new XmlReadError('doctype', 'DTD is prohibited');

  // End-of-line handling (XML 1.0 §2.11): CRLF and lone CR become LF everywhere, CDATA included.
  // Line numbers do not change, so reported positions still match the raw request.
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

  // fast-xml-parser's own validator parses the whole document again, so it runs only where it
  // adds something: the scan is stricter everywhere except names with characters outside the BMP,
  // which only the validator refuses (the scan was checked against expat on ~50k documents).
  if (/[\uD800-\uDFFF]/.test(scan.parserInput) && XMLValidator.validate(scan.parserInput) !== true) {
    throw new XmlReadError('malformed', 'Document is not well-formed');
  }

  return buildTree(scan.root, normalized).root;
}
