/**
 * Reading a SOAP request the way ASMX does (asmx-compatibility.md §1.2): the content type decides
 * whether it is SOAP at all; the Envelope's namespace decides the version the answer is written in;
 * the operation comes from SOAPAction (1.1), the `action` parameter (1.2), or else the first element
 * of the Body.
 */

import { callerText } from '../../shared/contract/caller-text.ts';
import { SOAP11_NS, SOAP12_NS, SoapFault, type SoapVersion } from './soap-fault.ts';
import { childElements, type XmlElement } from './xml/index.ts';

export interface ContentType {
  /** Lower-cased media type without parameters, e.g. `text/xml`. */
  base: string;
  charset: string | undefined;
  action: string | undefined;
}

const NO_CONTENT_TYPE: Readonly<ContentType> = Object.freeze({
  base: '',
  charset: undefined,
  action: undefined,
});
// A client sends the same Content-Type and SOAPAction on every call, and each request reads them
// twice (the check before the body, before-reading.ts, and the binding): the last header read is
// kept with its answer (issue 18). The answers are frozen, so sharing one is safe.
let lastContentType: { header: string; parsed: Readonly<ContentType> } | undefined;
let lastSoapAction: { header: string; action: string } | undefined;

/** Parses a Content-Type header: media type plus the `charset` and `action` parameters. */
export function parseContentType(header: string | undefined): Readonly<ContentType> {
  if (!header) return NO_CONTENT_TYPE;
  if (lastContentType?.header === header) return lastContentType.parsed;
  const parsed = Object.freeze(readContentType(header));
  lastContentType = { header, parsed };
  return parsed;
}

function readContentType(header: string): ContentType {
  const [base = '', ...params] = header.split(';');
  const out: ContentType = { base: base.trim().toLowerCase(), charset: undefined, action: undefined };
  for (const p of params) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    const name = p.slice(0, eq).trim().toLowerCase();
    let value = p.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (name === 'charset') out.charset = value;
    else if (name === 'action') out.action = value;
  }
  return out;
}

export function isSoapContentType(ct: ContentType): boolean {
  return ct.base === 'text/xml' || ct.base === 'application/soap+xml';
}

export interface SoapMessage {
  version: SoapVersion;
  header: XmlElement | undefined;
  body: XmlElement;
}

/** Finds Envelope, Header and Body; faults as ASMX does when they are missing or of another version. */
export function openEnvelope(root: XmlElement): SoapMessage {
  if (root.local !== 'Envelope') {
    throw new SoapFault('Client', 'Request format is invalid: Missing required soap:Envelope element.');
  }
  if (root.ns !== SOAP11_NS && root.ns !== SOAP12_NS) {
    throw new SoapFault(
      'VersionMismatch',
      `Possible SOAP version mismatch: Envelope namespace ${callerText(root.ns)} was unexpected. Expecting ${SOAP11_NS}.`,
    );
  }
  const version: SoapVersion = root.ns === SOAP11_NS ? '1.1' : '1.2';
  let header: XmlElement | undefined;
  let body: XmlElement | undefined;
  for (const child of childElements(root)) {
    if (child.ns !== root.ns) continue;
    if (child.local === 'Header' && !header && !body) header = child;
    else if (child.local === 'Body' && !body) body = child;
  }
  if (!body) throw new SoapFault('Client', 'Request format is invalid: Missing required soap:Body element.');
  return { version, header, body };
}

/**
 * Header blocks marked mustUnderstand: Payframe understands none, so such a block is a
 * MustUnderstand fault, as the SOAP specifications require.
 */
export function checkMustUnderstand(message: SoapMessage): void {
  if (!message.header) return;
  const envNs = message.version === '1.1' ? SOAP11_NS : SOAP12_NS;
  for (const block of childElements(message.header)) {
    const mu = block.attrs.find((a) => a.ns === envNs && a.local === 'mustUnderstand');
    if (mu && (mu.value.trim() === '1' || mu.value.trim() === 'true')) {
      throw new SoapFault('MustUnderstand', `SOAP header ${callerText(block.local)} was not understood.`);
    }
  }
}

/** The SOAPAction header's value without quotes, URL-decoded; undefined when the header is absent. */
export function soapActionOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header === 'string' && lastSoapAction?.header === header) return lastSoapAction.action;
  const action = readSoapAction(header);
  if (typeof header === 'string') lastSoapAction = { header, action };
  return action;
}

function readSoapAction(header: string | string[]): string {
  let value = (Array.isArray(header) ? (header[0] ?? '') : header).trim();
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export interface Route<Op> {
  operation: Op;
  /** The Body element carrying the parameters, or undefined when the Body holds another element. */
  wrapper: XmlElement | undefined;
  /** True when SOAPAction named one operation and the Body carried another (logged: attack row 24). */
  mismatched: boolean;
}

/**
 * Chooses the operation. `byAction` maps a full action URI (`{ns}{Op}`) and `byElement` maps a
 * Body element's local name in the service namespace.
 */
export function routeRequest<Op>(
  message: SoapMessage,
  soapAction: string | undefined,
  contentTypeAction: string | undefined,
  serviceNs: string,
  byAction: (action: string) => Op | undefined,
  byElement: (local: string) => Op | undefined,
): Route<Op> {
  const first = childElements(message.body)[0];
  const fromBody = first && first.ns === serviceNs ? byElement(first.local) : undefined;
  const action = soapAction ?? contentTypeAction;

  if (message.version === '1.1' && soapAction !== undefined) {
    const op = byAction(soapAction);
    if (op === undefined) {
      throw new SoapFault(
        'Client',
        `Server did not recognize the value of HTTP Header SOAPAction: ${callerText(soapAction)}.`,
      );
    }
    return withWrapper(op, first, fromBody);
  }
  if (action !== undefined) {
    const op = byAction(action);
    if (op !== undefined) return withWrapper(op, first, fromBody);
  }
  if (fromBody !== undefined) return { operation: fromBody, wrapper: first, mismatched: false };
  if (action !== undefined && action !== '') {
    throw new SoapFault(
      'Client',
      `Unable to handle request. The action '${callerText(action)}' was not recognized.`,
    );
  }
  throw new SoapFault(
    'Client',
    'Unable to handle request without a valid action parameter. Please supply a valid soap action.',
  );
}

function withWrapper<Op>(op: Op, first: XmlElement | undefined, fromBody: Op | undefined): Route<Op> {
  // ASMX skips a Body element that does not match the action and runs the operation with default
  // arguments; Payframe's Required-element check then faults on what is missing.
  return fromBody === op
    ? { operation: op, wrapper: first, mismatched: false }
    : { operation: op, wrapper: undefined, mismatched: first !== undefined };
}
