/**
 * SOAP faults as ASMX writes them (asmx-compatibility.md §1.3): one unindented line, the `soap`
 * prefix in both versions, unqualified faultcode/faultstring/detail in 1.1, Code/Reason/Detail in
 * 1.2 with Client → Sender and Server → Receiver. Always HTTP 500; malformed XML (400) and a wrong
 * content type (415) are answered with an empty body instead, so they are not faults here.
 */
import { maskCardNumbers } from '../../shared/card/card-number-in-text.ts';
import { escapeText } from './xml-escape.ts';

export const SOAP11_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';
export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
export const XSD_NS = 'http://www.w3.org/2001/XMLSchema';

export type SoapVersion = '1.1' | '1.2';

export type FaultCode = 'Client' | 'Server' | 'VersionMismatch' | 'MustUnderstand';

/** A fault to send back; thrown by the binding and the codec, rendered by `renderFault`. */
export class SoapFault extends Error {
  constructor(
    readonly faultCode: FaultCode,
    message: string,
    /** A Payframe error code for `<detail>`; protocol faults leave detail empty as ASMX does. */
    readonly errorCode?: string,
  ) {
    // Caller text is quoted only once checked (shared/contract/caller-text.ts); masking here is the
    // last guard, for a message that quotes what no check saw.
    super(maskCardNumbers(message));
    this.name = 'SoapFault';
  }
}

export function contentTypeOf(version: SoapVersion): string {
  return version === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8';
}

export function envelopeOpen(version: SoapVersion): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?>' +
    `<soap:Envelope xmlns:soap="${version === '1.1' ? SOAP11_NS : SOAP12_NS}" xmlns:xsi="${XSI_NS}" xmlns:xsd="${XSD_NS}">` +
    '<soap:Body>'
  );
}

export const ENVELOPE_CLOSE = '</soap:Body></soap:Envelope>';

function detail(fault: SoapFault, version: SoapVersion, serviceNs: string): string {
  const tag = version === '1.1' ? 'detail' : 'soap:Detail';
  if (!fault.errorCode) return `<${tag} />`;
  return `<${tag}><ErrorCode xmlns="${escapeText(serviceNs)}">${escapeText(fault.errorCode)}</ErrorCode></${tag}>`;
}

const SOAP12_CODES: Record<FaultCode, string> = {
  Client: 'Sender',
  Server: 'Receiver',
  VersionMismatch: 'VersionMismatch',
  MustUnderstand: 'MustUnderstand',
};

export function renderFault(fault: SoapFault, version: SoapVersion, serviceNs: string): string {
  const body =
    version === '1.1'
      ? `<soap:Fault><faultcode>soap:${fault.faultCode}</faultcode><faultstring>${escapeText(fault.message)}</faultstring>${detail(fault, version, serviceNs)}</soap:Fault>`
      : `<soap:Fault><soap:Code><soap:Value>soap:${SOAP12_CODES[fault.faultCode]}</soap:Value></soap:Code>` +
        `<soap:Reason><soap:Text xml:lang="en">${escapeText(fault.message)}</soap:Text></soap:Reason>${detail(fault, version, serviceNs)}</soap:Fault>`;
  return envelopeOpen(version) + body + ENVELOPE_CLOSE;
}
