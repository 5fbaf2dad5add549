/**
 * Enumerations (model.ts `EnumFieldType`) through everything that reads the contract table: the codec
 * both ways, the fault a bad value gets, the SOAP client, the WSDL's simpleTypes and the help page.
 */
import { XMLParser } from 'fast-xml-parser';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  CheckoutPaymentOutcome,
  CheckoutSessionStatus,
  enumTypes,
  getOperation,
  requiredDefaults,
  type ValueOf,
} from '../../shared/contract/index.ts';
import { SoapContractError } from './client/errors.ts';
import { TransactionServiceClient } from './client/transaction-service-client.ts';
import { DecodeError, decodeComplex } from './codec/decode.ts';
import { EncodeError, type Writer, writeValue } from './codec/encode.ts';
import { encodeHttpResponse, encodeSoapResponse } from './codec/messages.ts';
import { faultFromError } from './fault-mapping.ts';
import { renderOperationHelp } from './help-page.ts';
import { renderWsdl } from './wsdl.ts';
import { childElements, readXml } from './xml/index.ts';

const NS = 'http://tempuri.org/';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const RESULT = { kind: 'complex', type: 'CheckoutPaymentResult' } as const;

const paymentResult = (
  over: Partial<ValueOf<'CheckoutPaymentResult'>> = {},
): ValueOf<'CheckoutPaymentResult'> => ({
  ...requiredDefaults('CheckoutPaymentResult'),
  Outcome: 'Declined',
  Status: 'Open',
  DeclineReason: 'InsufficientFunds',
  PaymentMethod: 'Card',
  Amount: '10.50',
  MerchantID: '9007199254740993',
  ...over,
});

function encode(value: unknown): string {
  const w: Writer = { out: [], indent: undefined };
  writeValue(w, 'Probe', RESULT, value, 0, 'Probe');
  return w.out.join('');
}

function decode(inner: string) {
  const xml = `<Root xmlns="${NS}" xmlns:xsi="${XSI}"><Probe>${inner}</Probe></Root>`;
  return decodeComplex(childElements(readXml(xml))[0]!, 'CheckoutPaymentResult', NS, 'Probe');
}

/** Probe's children with one element's text replaced. */
const withOutcome = (text: string) =>
  encode(paymentResult())
    .replace(/^<Probe>|<\/Probe>$/g, '')
    .replace('<Outcome>Declined</Outcome>', text);

describe('enumerations in the codec', () => {
  it.each(CheckoutPaymentOutcome.values)('writes and reads Outcome %s by name', (outcome) => {
    const value = paymentResult({ Outcome: outcome });
    const xml = encode(value);
    expect(xml).toContain(`<Outcome>${outcome}</Outcome>`);
    expect(xml).toContain('<Status>Open</Status><DeclineReason>InsufficientFunds</DeclineReason><PaidAt');
    expect(decode(xml.replace(/^<Probe>|<\/Probe>$/g, ''))).toEqual(value);
  });

  it('leaves an absent optional enumeration out', () => {
    const { DeclineReason: _, ...value } = paymentResult();
    expect(encode(value)).not.toContain('DeclineReason');
    expect(decode(encode(value).replace(/^<Probe>|<\/Probe>$/g, ''))).toEqual(value);
  });

  it.each(['declined', ' Declined', 'Refused', ''])(
    'refuses Outcome %j, naming the allowed values',
    (text) => {
      const read = () => decode(withOutcome(`<Outcome>${text}</Outcome>`));
      expect(read).toThrow(DecodeError);
      expect(read).toThrow(
        `Element 'Probe/Outcome': Instance validation error: '${text}' is not a valid value for ` +
          'CheckoutPaymentOutcome. Allowed values: Approved, Declined, ChallengeRequired, InProgress, AlreadyPaid, Closed.',
      );
    },
  );

  it('refuses a nil or element-holding Required enumeration (a value type)', () => {
    expect(() => decode(withOutcome('<Outcome xsi:nil="true" />'))).toThrow(
      "Element 'Probe/Outcome' may not be nil.",
    );
    expect(() => decode(withOutcome('<Outcome><x /></Outcome>'))).toThrow('must hold text');
  });

  it('turns a bad value into the soap:Client fault a bad scalar gets', () => {
    let err: unknown;
    try {
      decode(withOutcome('<Outcome>Refused</Outcome>'));
    } catch (e) {
      err = e;
    }
    const { fault, status } = faultFromError(err, {} as FastifyBaseLogger);
    expect(status).toBe(500);
    expect(fault).toMatchObject({ faultCode: 'Client', errorCode: 'invalid_request' });
    expect(fault.message).toMatch(
      /^Server was unable to read request\. ---> There is an error in XML document \(1, \d+\)\. ---> Element 'Probe\/Outcome': Instance validation error: 'Refused' is not a valid value for CheckoutPaymentOutcome\. Allowed values: Approved, /,
    );
  });

  it('refuses to write a value outside the enumeration (a handler bug, never sent)', () => {
    expect(() => encode(paymentResult({ Status: 'Closed' as never }))).toThrow(EncodeError);
    expect(() => encode(paymentResult({ Status: 'Closed' as never }))).toThrow(
      "Probe/Status: 'Closed' is not a CheckoutSessionStatus value (Open, Paid, Expired, Canceled)",
    );
    expect(() => encode(paymentResult({ Status: 0 as never }))).toThrow(
      'number is not a CheckoutSessionStatus',
    );
  });

  it('writes enumerations in the HTTP GET/POST document of GetCheckoutSession', () => {
    const op = getOperation('GetCheckoutSession');
    const doc = encodeHttpResponse(op, { ...requiredDefaults('CheckoutSessionDetail'), Status: 'Paid' }, NS);
    expect(doc).toContain('\n<CheckoutSessionDetail ');
    expect(doc).toContain('\n  <Status>Paid</Status>\n');
  });
});

describe('enumerations in the SOAP client', () => {
  it('reads them from a response, and reports an unknown value as SoapContractError', async () => {
    const op = getOperation('PayCheckoutSession');
    let answer = encodeSoapResponse(op, paymentResult({ Outcome: 'ChallengeRequired' }), NS, '1.1');
    const fetch = async () =>
      new Response(answer, { status: 200, headers: { 'content-type': 'text/xml; charset=utf-8' } });
    const client = new TransactionServiceClient({ baseUrl: 'http://127.0.0.1:9', namespace: NS, fetch });
    const read = await client.PayCheckoutSession({ token: 'cs_x' }, undefined);
    expect(read.Outcome).toBe('ChallengeRequired');
    expect(read.DeclineReason).toBe('InsufficientFunds');

    answer = answer.replace('<Outcome>ChallengeRequired</Outcome>', '<Outcome>Maybe</Outcome>');
    const err = await client.PayCheckoutSession({ token: 'cs_x' }, undefined).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SoapContractError);
    expect(err).toMatchObject({ direction: 'response', path: 'PayCheckoutSessionResult/Outcome' });
  });
});

type Node = Record<string, unknown>;
const asList = (v: unknown): Node[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]) as Node[];

describe('enumerations in the WSDL', () => {
  const xml = renderWsdl({
    serviceName: 'TransactionService',
    namespace: NS,
    location: 'http://h/x',
    httpBindings: true,
  });
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' });
  const defs = (parser.parse(xml) as Node)['wsdl:definitions'] as Node;
  const schema = (defs['wsdl:types'] as Node)['s:schema'] as Node;
  const simpleTypes = asList(schema['s:simpleType']);
  const complexTypes = asList(schema['s:complexType']);

  it('declares each enumeration once as a string restriction listing its values in order', () => {
    expect(simpleTypes.map((t) => t['@name']).sort()).toEqual(enumTypes.map((t) => t.type).sort());
    for (const t of enumTypes) {
      const declared = simpleTypes.find((s) => s['@name'] === t.type)!;
      const restriction = declared['s:restriction'] as Node;
      expect(restriction['@base']).toBe('s:string');
      expect(asList(restriction['s:enumeration']).map((e) => e['@value'])).toEqual([...t.values]);
    }
    expect(xml).toContain(
      [
        '<s:simpleType name="CheckoutSessionStatus">',
        '  <s:restriction base="s:string">',
        '    <s:enumeration value="Open" />',
      ]
        .map((line) => `      ${line}`)
        .join('\r\n'), // ASMX's line ends
    );
  });

  it('refers to them as tns:Name, Required ones with minOccurs 1 and never nillable', () => {
    const particles = (name: string) =>
      asList((complexTypes.find((t) => t['@name'] === name)!['s:sequence'] as Node)['s:element']);
    const detail = particles('CheckoutSessionDetail');
    expect(detail.find((e) => e['@name'] === 'Status')).toEqual({
      '@minOccurs': '1',
      '@maxOccurs': '1',
      '@name': 'Status',
      '@type': 'tns:CheckoutSessionStatus',
    });
    expect(detail.find((e) => e['@name'] === 'PaymentMethod')).toMatchObject({
      '@minOccurs': '0',
      '@type': 'tns:PaymentMethodKind',
    });
    expect(detail.find((e) => e['@name'] === 'Origins')).toMatchObject({ '@type': 'tns:ArrayOfString' });
    const result = particles('CheckoutPaymentResult');
    expect(result.find((e) => e['@name'] === 'Outcome')).toMatchObject({
      '@minOccurs': '1',
      '@type': 'tns:CheckoutPaymentOutcome',
    });
    expect(result.find((e) => e['@name'] === 'DeclineReason')).toMatchObject({
      '@type': 'tns:DeclineReason',
    });
    // The simpleType follows the complex type that first refers to it, as XmlSchemaExporter writes it.
    expect(xml.indexOf('name="CheckoutSessionStatus"')).toBeGreaterThan(
      xml.indexOf('name="CheckoutSessionDetail"'),
    );
  });
});

describe('enumerations on the help page', () => {
  it('shows the first value as the sample', () => {
    const html = renderOperationHelp({
      serviceName: 'TransactionService',
      namespace: NS,
      path: '/TransactionService.asmx',
      host: '127.0.0.1:3000',
      httpBindings: true,
      local: true,
      operation: getOperation('PayCheckoutSession'),
    });
    expect(html).toContain(
      `&lt;Outcome&gt;<font class=value>${CheckoutPaymentOutcome.values[0]}</font>&lt;/Outcome&gt;`,
    );
    expect(html).toContain(
      `&lt;Status&gt;<font class=value>${CheckoutSessionStatus.values[0]}</font>&lt;/Status&gt;`,
    );
    expect(html).toContain(
      '&lt;DeclineReason&gt;<font class=value>CardDeclined</font>&lt;/DeclineReason&gt;',
    );
  });
});
