/**
 * The `?WSDL` document against the contract table and the ASMX shape (asmx-compatibility.md §1.6):
 * parsed back with fast-xml-parser (python3-zeep loads it as a real client would in
 * test/system/conformance/wsdl-zeep.test.ts).
 */
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import {
  complexTypes,
  field,
  hasSimpleParams,
  httpRootElement,
  type Operation,
  operation,
  operations,
} from '../../shared/contract/index.ts';
import { buildWsdl, renderWsdl, type WsdlOptions } from './wsdl.ts';

const NS = 'http://tempuri.org/';
const LOCATION = 'http://127.0.0.1:3000/TransactionService.asmx';
const ON: WsdlOptions = {
  serviceName: 'TransactionService',
  namespace: NS,
  location: LOCATION,
  httpBindings: true,
};
const OFF: WsdlOptions = { ...ON, httpBindings: false };

const HTTP_OPERATIONS = [
  'GetCustomerPaymentProfileList',
  'GetRecurringCustomerDetail',
  'GetTransactionHistories',
  'GetMerchantInfo',
  'GetMerchantDetails',
  'Verify3DSecureMerchant',
  'GetCardDetailsFromEncryptedData',
  'GetHostedPaymentDetails',
  'GetStoredCards',
  'SendVerificationCode',
  // Payframe extensions with simple parameters get GET/POST forms too, as ASMX would give them.
  'RemoveStoredCard',
  'CancelHostedPayment',
  'SignForMerchant',
  'GetCheckoutSession',
  'ListEndedCheckoutSessions',
  // The merchant dashboard's (issue 15): the user's session and the merchant's payments.
  'GetUserSession',
  'BeginSecondFactorEnrolment',
  'VerifySecondFactor',
  'EndUserSession',
  'GetPayment',
  'GetPaymentOverview',
  'GetSettlementSummary',
  // Issue 16: the merchant's settings (UpdateMerchantSettings takes a complex type).
  'GetMerchantSettings',
  // Developers: the TransactionKey's status (RollTransactionKey and AuthorizeWebhookDelivery take
  // an enumeration), the webhooks.
  'GetTransactionKeyStatus',
  'GetWebhookSettings',
  'SetWebhookEndpoint',
  'RollWebhookSecret',
  'SignWebhook',
  // The team (InviteUser and ChangeUserRole take an enumeration).
  'ListUsers',
  'RevokeInvitation',
  'DisableUser',
  'EnableUser',
  'ResetUserSecondFactor',
  'GetInvitation',
  'AcceptInvitation',
];
/** HTTP GET serves the reads only, unless SOAP_HTTP_GET_CHANGES (shared/contract/effects.ts). */
const GET_OPERATIONS = HTTP_OPERATIONS.filter(
  (name) =>
    ![
      'SendVerificationCode',
      'RemoveStoredCard',
      'CancelHostedPayment',
      'BeginSecondFactorEnrolment',
      'VerifySecondFactor',
      'EndUserSession',
      'SetWebhookEndpoint',
      'RollWebhookSecret',
      'RevokeInvitation',
      'DisableUser',
      'EnableUser',
      'ResetUserSecondFactor',
      'AcceptInvitation',
    ].includes(name),
);

type Node = Record<string, unknown>;
const REPEATED = new Set([
  's:element',
  's:complexType',
  'wsdl:message',
  'wsdl:part',
  'wsdl:operation',
  'wsdl:portType',
  'wsdl:binding',
  'wsdl:port',
]);
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseAttributeValue: false,
  isArray: (name) => REPEATED.has(name),
});

function definitionsOf(xml: string): Node {
  return (parser.parse(xml) as Node)['wsdl:definitions'] as Node;
}
const list = (node: unknown, name: string): Node[] => ((node as Node | undefined)?.[name] as Node[]) ?? [];
const named = (nodes: Node[], name: string): Node => {
  const found = nodes.find((n) => n['@name'] === name);
  if (found === undefined) throw new Error(`nothing named ${name}`);
  return found;
};
const names = (nodes: Node[]): unknown[] => nodes.map((n) => n['@name']);

function schemaOf(defs: Node): Node {
  return (defs['wsdl:types'] as Node)['s:schema'] as Node;
}
/** The `<s:element>`s of a named complex type's sequence (its own fields, for a derived type). */
function typeFields(defs: Node, typeName: string): Node[] {
  const type = named(list(schemaOf(defs), 's:complexType'), typeName);
  return list(type['s:sequence'], 's:element');
}
/** The `<s:element>`s of an element's anonymous complex type (`Op`, `OpResponse`). */
function anonymousSequence(element: Node): Node[] {
  return list(list(element, 's:complexType')[0]?.['s:sequence'], 's:element');
}
function fieldOf(defs: Node, typeName: string, fieldName: string): Node {
  return named(typeFields(defs, typeName), fieldName);
}

const on = definitionsOf(renderWsdl(ON));
const off = definitionsOf(renderWsdl(OFF));

describe('renderWsdl document', () => {
  it('is an indented WSDL 1.1 document with the usual ASMX prefixes', () => {
    const xml = renderWsdl(ON);
    expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>\r\n<wsdl:definitions ')).toBe(true);
    expect(xml).toContain('\r\n  <wsdl:types>\r\n    <s:schema ');
    expect(on['@targetNamespace']).toBe(NS);
    expect(on['@xmlns:tns']).toBe(NS);
    for (const prefix of ['soap', 'tm', 'soapenc', 'mime', 's', 'soap12', 'http', 'wsdl']) {
      expect(on[`@xmlns:${prefix}`], prefix).toMatch(/^http:\/\//);
    }
  });

  it('has one qualified schema in the service namespace', () => {
    const schema = schemaOf(on);
    expect(schema['@elementFormDefault']).toBe('qualified');
    expect(schema['@targetNamespace']).toBe(NS);
  });

  it('declares Op and OpResponse elements for every operation, params in table order', () => {
    const elements = list(schemaOf(on), 's:element');
    for (const op of operations) {
      const request = named(elements, op.name);
      const params = anonymousSequence(request);
      expect(names(params), op.name).toEqual(op.params.map((p) => p.name));
      const response = named(elements, `${op.name}Response`);
      const result = anonymousSequence(response);
      expect(names(result)).toEqual([`${op.name}Result`]);
    }
  });

  it('writes minOccurs and nillable from the table', () => {
    expect(fieldOf(on, 'Request', 'Amount')).toMatchObject({
      '@minOccurs': '1',
      '@maxOccurs': '1',
      '@type': 's:decimal',
    });
    expect(fieldOf(on, 'Request', 'Amount')['@nillable']).toBeUndefined();
    expect(fieldOf(on, 'Request', 'CardNumber')).toMatchObject({ '@minOccurs': '0', '@type': 's:string' });
    expect(fieldOf(on, 'TransactionHistory', 'TransactionDate')).toMatchObject({
      '@minOccurs': '1',
      '@maxOccurs': '1',
      '@nillable': 'true',
      '@type': 's:dateTime',
    });
    const process = named(list(schemaOf(on), 's:element'), 'ProcessTransaction');
    const request = anonymousSequence(process)[0];
    expect(request).toMatchObject({ '@minOccurs': '0', '@name': 'request', '@type': 'tns:Request' });
  });

  it('defines every complex type of the table exactly once', () => {
    const defined = names(list(schemaOf(on), 's:complexType'));
    for (const t of complexTypes)
      expect(
        defined.filter((n) => n === t.name),
        t.name,
      ).toHaveLength(1);
  });

  it('writes lists as ArrayOf types with nillable unbounded items', () => {
    expect(fieldOf(on, 'InvoiceRequest', 'Invoices')['@type']).toBe('tns:ArrayOfInvoiceDetails');
    expect(fieldOf(on, 'InvoiceResponse', 'Errors')['@type']).toBe('tns:ArrayOfString');
    expect(typeFields(on, 'ArrayOfInvoiceDetails')).toEqual([
      {
        '@minOccurs': '0',
        '@maxOccurs': 'unbounded',
        '@name': 'InvoiceDetails',
        '@nillable': 'true',
        '@type': 'tns:InvoiceDetails',
      },
    ]);
    expect(typeFields(on, 'ArrayOfString')[0]).toMatchObject({
      '@name': 'string',
      '@type': 's:string',
      '@nillable': 'true',
    });
    expect(typeFields(on, 'ArrayOfTransactionHistory')[0]).toMatchObject({
      '@maxOccurs': 'unbounded',
      '@type': 'tns:TransactionHistory',
    });
    const response = named(list(schemaOf(on), 's:element'), 'GetTransactionHistoriesResponse');
    const result = anonymousSequence(response)[0];
    expect(result).toMatchObject({ '@minOccurs': '0', '@type': 'tns:ArrayOfTransactionHistory' });
  });

  it('writes LoginResponse as an extension of OperationStatus', () => {
    const login = named(list(schemaOf(on), 's:complexType'), 'LoginResponse');
    const extension = (login['s:complexContent'] as Node)['s:extension'] as Node;
    expect(extension['@base']).toBe('tns:OperationStatus');
    expect(names(list(extension['s:sequence'], 's:element'))).toEqual(['Data']);
    expect(names(typeFields(on, 'OperationStatus'))).toEqual(['Status', 'Message']);
  });
});

describe('renderWsdl bindings', () => {
  it('has a SOAP 1.1 and a SOAP 1.2 binding operation for every operation', () => {
    const bindings = list(on, 'wsdl:binding');
    for (const [name, prefix] of [
      ['TransactionServiceSoap', 'soap'],
      ['TransactionServiceSoap12', 'soap12'],
    ] as const) {
      const binding = named(bindings, name);
      expect(binding['@type']).toBe('tns:TransactionServiceSoap');
      expect(binding[`${prefix}:binding`]).toEqual({ '@transport': 'http://schemas.xmlsoap.org/soap/http' });
      const ops = list(binding, 'wsdl:operation');
      expect(names(ops)).toEqual(operations.map((op) => op.name));
      for (const op of ops) {
        expect(op[`${prefix}:operation`]).toEqual({
          '@soapAction': `${NS}${op['@name']}`,
          '@style': 'document',
        });
        expect(op['wsdl:input']).toEqual({ [`${prefix}:body`]: { '@use': 'literal' } });
        expect(op['wsdl:output']).toEqual({ [`${prefix}:body`]: { '@use': 'literal' } });
      }
    }
  });

  it("has GET and POST bindings for exactly the operations with simple parameters (the spec's ten and extensions)", () => {
    expect(operations.filter(hasSimpleParams).map((op) => op.name)).toEqual(HTTP_OPERATIONS);
    const bindings = list(on, 'wsdl:binding');
    expect(names(bindings)).toEqual([
      'TransactionServiceSoap',
      'TransactionServiceSoap12',
      'TransactionServiceHttpGet',
      'TransactionServiceHttpPost',
    ]);
    const get = named(bindings, 'TransactionServiceHttpGet');
    const post = named(bindings, 'TransactionServiceHttpPost');
    expect(get['http:binding']).toEqual({ '@verb': 'GET' });
    expect(post['http:binding']).toEqual({ '@verb': 'POST' });
    expect(names(list(get, 'wsdl:operation'))).toEqual(GET_OPERATIONS);
    expect(names(list(post, 'wsdl:operation'))).toEqual(HTTP_OPERATIONS);
    for (const binding of [get, post]) {
      for (const op of list(binding, 'wsdl:operation')) {
        expect(op['http:operation']).toEqual({ '@location': `/${op['@name']}` });
        expect(op['wsdl:output']).toEqual({ 'mime:mimeXml': { '@part': 'Body' } });
      }
    }
    expect(list(get, 'wsdl:operation')[0]?.['wsdl:input']).toEqual({ 'http:urlEncoded': '' });
    expect(list(post, 'wsdl:operation')[0]?.['wsdl:input']).toEqual({
      'mime:content': { '@type': 'application/x-www-form-urlencoded' },
    });
    expect(names(list(on, 'wsdl:portType'))).toEqual([
      'TransactionServiceSoap',
      'TransactionServiceHttpGet',
      'TransactionServiceHttpPost',
    ]);
  });

  it('lists operations that change state under HTTP GET only when SOAP_HTTP_GET_CHANGES allows them', () => {
    const asmx = definitionsOf(buildWsdl({ ...ON, httpGetChanges: true }));
    const get = named(list(asmx, 'wsdl:binding'), 'TransactionServiceHttpGet');
    expect(names(list(get, 'wsdl:operation'))).toEqual(HTTP_OPERATIONS);
    const getType = named(list(asmx, 'wsdl:portType'), 'TransactionServiceHttpGet');
    expect(names(list(getType, 'wsdl:operation'))).toEqual(HTTP_OPERATIONS);
    const byDefault = named(list(on, 'wsdl:portType'), 'TransactionServiceHttpGet');
    expect(names(list(byDefault, 'wsdl:operation'))).toEqual(GET_OPERATIONS);
    expect(list(on, 'wsdl:message').map((m) => m['@name'])).not.toContain('CancelHostedPaymentHttpGetIn');
  });

  it('has GET/POST messages with string parts in and the return-type element out', () => {
    const messages = list(on, 'wsdl:message');
    const getIn = named(messages, 'GetTransactionHistoriesHttpGetIn');
    expect(list(getIn, 'wsdl:part')).toEqual([
      { '@name': 'startDate', '@type': 's:string' },
      { '@name': 'endDate', '@type': 's:string' },
      { '@name': 'merchantID', '@type': 's:string' },
    ]);
    for (const op of operations.filter(hasSimpleParams)) {
      for (const verb of GET_OPERATIONS.includes(op.name) ? ['HttpGet', 'HttpPost'] : ['HttpPost']) {
        const out = named(messages, `${op.name}${verb}Out`);
        expect(list(out, 'wsdl:part')).toEqual([
          { '@name': 'Body', '@element': `tns:${httpRootElement(op)}` },
        ]);
      }
    }
    const soapIn = named(messages, 'ProcessTransactionSoapIn');
    expect(list(soapIn, 'wsdl:part')).toEqual([
      { '@name': 'parameters', '@element': 'tns:ProcessTransaction' },
    ]);
  });

  it('declares the top-level elements the GET/POST Out messages name', () => {
    const elements = list(schemaOf(on), 's:element');
    expect(named(elements, 'ArrayOfTransactionHistory')).toEqual({
      '@name': 'ArrayOfTransactionHistory',
      '@nillable': 'true',
      '@type': 'tns:ArrayOfTransactionHistory',
    });
    expect(named(elements, 'boolean')).toEqual({ '@name': 'boolean', '@type': 's:boolean' });
    expect(named(elements, 'MerchantInfo')).toEqual({
      '@name': 'MerchantInfo',
      '@nillable': 'true',
      '@type': 'tns:MerchantInfo',
    });
  });

  it('leaves out everything HTTP GET/POST when those protocols are off', () => {
    expect(names(list(off, 'wsdl:binding'))).toEqual(['TransactionServiceSoap', 'TransactionServiceSoap12']);
    expect(names(list(off, 'wsdl:portType'))).toEqual(['TransactionServiceSoap']);
    expect(names(list(off['wsdl:service'], 'wsdl:port'))).toEqual([
      'TransactionServiceSoap',
      'TransactionServiceSoap12',
    ]);
    expect(names(list(off, 'wsdl:message')).filter((n) => String(n).includes('Http'))).toEqual([]);
    const elements = names(list(schemaOf(off), 's:element'));
    expect(elements).not.toContain('boolean');
    expect(elements).not.toContain('ArrayOfTransactionHistory');
    expect(elements).toHaveLength(operations.length * 2);
  });

  it('puts every port at the location built from the request', () => {
    const service = on['wsdl:service'] as Node;
    expect(service['@name']).toBe('TransactionService');
    const ports = list(service, 'wsdl:port');
    expect(ports.map((p) => [p['@name'], p['@binding']])).toEqual([
      ['TransactionServiceSoap', 'tns:TransactionServiceSoap'],
      ['TransactionServiceSoap12', 'tns:TransactionServiceSoap12'],
      ['TransactionServiceHttpGet', 'tns:TransactionServiceHttpGet'],
      ['TransactionServiceHttpPost', 'tns:TransactionServiceHttpPost'],
    ]);
    expect(ports.map((p) => Object.values(p).find((v) => typeof v === 'object'))).toEqual([
      { '@location': LOCATION },
      { '@location': LOCATION },
      { '@location': LOCATION },
      { '@location': LOCATION },
    ]);
    expect(Object.keys(ports[0] ?? {})).toContain('soap:address');
    expect(Object.keys(ports[1] ?? {})).toContain('soap12:address');
    expect(Object.keys(ports[2] ?? {})).toContain('http:address');
  });
});

describe('renderWsdl inputs', () => {
  it('escapes the location and namespace', () => {
    const location = 'http://h"<x>&y/TransactionService.asmx';
    const namespace = 'urn:a&b"c/';
    const raw = renderWsdl({ ...ON, location, namespace });
    expect(raw).toContain('location="http://h&quot;&lt;x&gt;&amp;y/TransactionService.asmx"');
    const defs = definitionsOf(raw);
    expect(defs['@targetNamespace']).toBe(namespace);
    const soapPort = named(list(defs['wsdl:service'], 'wsdl:port'), 'TransactionServiceSoap');
    expect((soapPort['soap:address'] as Node)['@location']).toBe(location);
  });

  it('caches per options and changes with them', () => {
    expect(renderWsdl(ON)).toBe(renderWsdl({ ...ON }));
    expect(renderWsdl(ON)).not.toBe(renderWsdl(OFF));
    expect(renderWsdl({ ...ON, location: 'http://other/TransactionService.asmx' })).toContain(
      'location="http://other/TransactionService.asmx"',
    );
  });

  it('marks extension operations and follows a new table entry with no other edit', () => {
    const extra: Operation = operation({
      name: 'CreateHostedPayment',
      doc: 'Creates a <checkout> session & returns its token.',
      params: [field('merchantID', 'long', { required: true }), field('orderNumber', 'string')],
      result: 'string',
      extension: true,
    });
    const xml = buildWsdl(ON, [...operations, extra]);
    expect(xml).toContain(
      '<wsdl:documentation xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">Payframe extension: Creates a &lt;checkout&gt; session &amp; returns its token.</wsdl:documentation>',
    );
    const defs = definitionsOf(xml);
    const soap = named(list(defs, 'wsdl:binding'), 'TransactionServiceSoap');
    expect(named(list(soap, 'wsdl:operation'), 'CreateHostedPayment')['soap:operation']).toMatchObject({
      '@soapAction': `${NS}CreateHostedPayment`,
    });
    const post = named(list(defs, 'wsdl:binding'), 'TransactionServiceHttpPost');
    expect(names(list(post, 'wsdl:operation'))).toContain('CreateHostedPayment');
    expect(named(list(schemaOf(defs), 's:element'), 'string')).toEqual({
      '@name': 'string',
      '@nillable': 'true',
      '@type': 's:string',
    });
  });
});
