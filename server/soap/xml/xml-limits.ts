/**
 * Structural caps checked by the front-end scan as it reads the document.
 * They bound the attack-matrix rows that a 1 MiB body cap alone does not make cheap
 * (docs: asmx-compatibility.md §2 rows 6, 7, 8, 11, 12). A SOAP request for this service is a few
 * dozen elements, so the defaults leave a wide margin.
 */
export interface XmlLimits {
  /** Nesting depth; the document element is depth 1 (row 6, coercive parsing). */
  maxDepth: number;
  /** Elements in the whole document (WS-Attacker XmlElementCount). */
  maxElements: number;
  /** Attributes on one element, `xmlns` declarations included (rows 7 and 12). */
  maxAttributesPerElement: number;
  /** Length of an element, attribute or PI-target name, prefix included (row 8). */
  maxNameLength: number;
  /** Attributes in the whole document (rows 7, 11, 12). */
  maxTotalAttributes: number;
}

export const DEFAULT_XML_LIMITS: Readonly<XmlLimits> = Object.freeze({
  maxDepth: 64,
  maxElements: 20_000,
  maxAttributesPerElement: 256,
  maxNameLength: 512,
  maxTotalAttributes: 50_000,
});
