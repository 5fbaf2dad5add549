/**
 * Whole messages of the four bindings, built from the operation table: SOAP requests (for the
 * client), SOAP responses, and HTTP GET/POST response documents (asmx-compatibility.md §1.5).
 */
import { fieldsOf, findComplexType } from '../../../shared/contract/index.ts';
import { httpRootElement, isScalarType, type Operation } from '../../../shared/contract/model.ts';
import { missingRulesOfParams } from '../../../shared/contract/missing-values.ts';
import { formatScalar } from '../../../shared/contract/scalars.ts';
import { ENVELOPE_CLOSE, envelopeOpen, type SoapVersion, XSD_NS, XSI_NS } from '../soap-fault.ts';
import { childElements, type XmlElement } from '../xml/index.ts';
import { escapeAttr, escapeText } from '../xml-escape.ts';
import { decodeFields, decodeResult } from './decode.ts';
import { EncodeError, enumText, type Writer, writeFields, writeValue } from './encode.ts';

const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';

export function encodeSoapResponse(op: Operation, result: unknown, ns: string, version: SoapVersion): string {
  const w: Writer = { out: [], indent: undefined };
  w.out.push(envelopeOpen(version), `<${op.name}Response xmlns="${escapeAttr(ns)}">`);
  if (op.result !== null) writeValue(w, `${op.name}Result`, op.result, result, 0, `${op.name}Result`);
  w.out.push(`</${op.name}Response>`, ENVELOPE_CLOSE);
  return w.out.join('');
}

export function encodeSoapRequest(
  op: Operation,
  params: Record<string, unknown>,
  ns: string,
  version: SoapVersion,
): string {
  const w: Writer = { out: [], indent: undefined };
  w.out.push(envelopeOpen(version), `<${op.name} xmlns="${escapeAttr(ns)}">`);
  writeFields(w, params, op.params, 0, '');
  w.out.push(`</${op.name}>`, ENVELOPE_CLOSE);
  return w.out.join('');
}

/** The document an HTTP GET/POST call answers with: a root named after the return type, indented. */
export function encodeHttpResponse(op: Operation, result: unknown, ns: string): string {
  const root = httpRootElement(op);
  const type = op.result;
  if (root === null || type === null) throw new EncodeError(`${op.name} has no HTTP GET/POST binding`);
  if (type.kind === 'scalar' || type.kind === 'enum') {
    // A root that holds text, as ASMX writes `<boolean xmlns="…">true</boolean>`.
    const text =
      type.kind === 'enum'
        ? enumText(type, result, root)
        : escapeText(formatScalar(type.type, result as never));
    return `${XML_DECLARATION}\n<${root} xmlns="${escapeAttr(ns)}">${text}</${root}>`;
  }
  const w: Writer = { out: [], indent: 2 };
  if (type.kind === 'complex') {
    const complex = findComplexType(type.type);
    if (!complex || typeof result !== 'object' || result === null)
      throw new EncodeError(`${op.name}: bad result`);
    writeFields(w, result as Record<string, unknown>, fieldsOf(complex), 1, root);
  } else {
    if (!Array.isArray(result)) throw new EncodeError(`${op.name}: expected a list result`);
    result.forEach((item, i) => {
      const path = `${root}/${type.itemElement}[${i + 1}]`;
      if (item === null || item === undefined) w.out.push(`\n  <${type.itemElement} xsi:nil="true" />`);
      else if (isScalarType(type.item))
        writeValue(w, type.itemElement, { kind: 'scalar', type: type.item }, item, 1, path);
      else writeValue(w, type.itemElement, { kind: 'complex', type: type.item }, item, 1, path);
    });
  }
  const attrs = `xmlns:xsi="${XSI_NS}" xmlns:xsd="${XSD_NS}" xmlns="${escapeAttr(ns)}"`;
  if (w.out.length === 0) return `${XML_DECLARATION}\n<${root} ${attrs} />`;
  return `${XML_DECLARATION}\n<${root} ${attrs}>${w.out.join('')}\n</${root}>`;
}

/** The parameters carried by the operation's Body element (undefined: none were sent). */
export function decodeSoapParams(
  wrapper: XmlElement | undefined,
  op: Operation,
  ns: string,
): Record<string, unknown> {
  return decodeFields(wrapper, op.params, ns, '', missingRulesOfParams(op.name));
}

/** The result inside a SOAP response Body (client side). */
export function decodeSoapResult(body: XmlElement, op: Operation, ns: string): unknown {
  const response = childElements(body).find((c) => c.ns === ns && c.local === `${op.name}Response`);
  if (!response) throw new EncodeError(`The response Body has no ${op.name}Response element`);
  if (op.result === null) return undefined;
  const resultEl = childElements(response).find((c) => c.ns === ns && c.local === `${op.name}Result`);
  return decodeResult(resultEl, op.result, ns, `${op.name}Result`);
}
