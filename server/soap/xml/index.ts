// The SOAP layer's entry points into the XML reader (see README.md).
export { decodeBytes } from './decode-bytes.ts';
export { XML_NS, XMLNS_NS } from './namespace-scope.ts';
export { readXml } from './read-xml.ts';
export {
  attr,
  childElements,
  isElement,
  textOf,
  type XmlAttribute,
  type XmlElement,
  type XmlNode,
} from './xml-element.ts';
export { DEFAULT_XML_LIMITS, type XmlLimits } from './xml-limits.ts';
export { XmlReadError, type XmlReadReason } from './xml-read-error.ts';
