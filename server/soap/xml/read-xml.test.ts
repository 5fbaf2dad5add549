import { describe, expect, it } from 'vitest';
import { XML_NS, XMLNS_NS } from './namespace-scope.ts';
import { readXml } from './read-xml.ts';
import {
  child,
  envelope,
  expectReadError,
  operationOf,
  SERVICE,
  SOAP11,
  SOAP12,
} from '../../../test/kit/soap/xml-documents.ts';
import { attr, childElements, textOf } from './xml-element.ts';

// Envelope styles of the clients in docs: asmx-compatibility.md §3 "Client quirks".
const STYLES: [string, string, string][] = [
  [
    'ASMX soap: prefix, default-namespace operation',
    SOAP11,
    `<soap:Envelope xmlns:soap="${SOAP11}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soap:Body><GetHistory xmlns="${SERVICE}"><merchantId>M1</merchantId></GetHistory></soap:Body></soap:Envelope>`,
  ],
  [
    'PHP SOAP-ENV:/ns1:',
    SOAP11,
    `<?xml version="1.0" encoding="UTF-8"?>\n<SOAP-ENV:Envelope xmlns:SOAP-ENV="${SOAP11}" xmlns:ns1="${SERVICE}"><SOAP-ENV:Body><ns1:GetHistory><ns1:merchantId>M1</ns1:merchantId></ns1:GetHistory></SOAP-ENV:Body></SOAP-ENV:Envelope>`,
  ],
  [
    'zeep soap-env:/ns0:',
    SOAP11,
    `<soap-env:Envelope xmlns:soap-env="${SOAP11}"><soap-env:Body><ns0:GetHistory xmlns:ns0="${SERVICE}"><ns0:merchantId>M1</ns0:merchantId></ns0:GetHistory></soap-env:Body></soap-env:Envelope>`,
  ],
  [
    'default namespaces only',
    SOAP11,
    `<Envelope xmlns="${SOAP11}"><Body><GetHistory xmlns="${SERVICE}"><merchantId>M1</merchantId></GetHistory></Body></Envelope>`,
  ],
  [
    'SOAP 1.2 soap12: prefix',
    SOAP12,
    `<soap12:Envelope xmlns:soap12="${SOAP12}"><soap12:Body><GetHistory xmlns="${SERVICE}"><merchantId>M1</merchantId></GetHistory></soap12:Body></soap12:Envelope>`,
  ],
  [
    'SOAP 1.2 strong-soap pretty-printed with ns1:',
    SOAP12,
    `<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n<soap:Envelope xmlns:soap="${SOAP12}">\n  <soap:Header/>\n  <soap:Body>\n    <ns1:GetHistory xmlns:ns1="${SERVICE}">\n      <ns1:merchantId>M1</ns1:merchantId>\n    </ns1:GetHistory>\n  </soap:Body>\n</soap:Envelope>`,
  ],
];

describe('readXml: SOAP envelopes resolve by namespace URI, whatever the prefixes', () => {
  it.each(STYLES)('%s', (_label, soapNs, xml) => {
    const root = readXml(xml);
    expect([root.ns, root.local]).toEqual([soapNs, 'Envelope']);
    const body = child(root, 'Body');
    expect(body.ns).toBe(soapNs);
    const op = operationOf(root);
    expect([op.ns, op.local]).toEqual([SERVICE, 'GetHistory']);
    const merchant = child(op, 'merchantId');
    expect([merchant.ns, textOf(merchant)]).toEqual([SERVICE, 'M1']);
  });

  it('tells a look-alike prefix bound to another URI apart (§4 "Namespaces")', () => {
    const root = readXml(`<soap:Envelope xmlns:soap="urn:evil"><soap:Body/></soap:Envelope>`);
    expect(root.ns).toBe('urn:evil');
  });

  it('unqualified children under xmlns="" are in no namespace (node-soap#155 style)', () => {
    const op = operationOf(readXml(envelope('<merchantId xmlns="">M1</merchantId>')));
    expect(child(op, 'merchantId').ns).toBe('');
  });
});

describe('readXml: text fidelity', () => {
  it('preserves whitespace exactly, including whitespace-only values (§1.4 "Whitespace")', () => {
    const op = operationOf(readXml(envelope('<a>  x \t y  </a><b>   </b><c></c><d/>')));
    expect(['a', 'b', 'c', 'd'].map((n) => textOf(child(op, n)))).toEqual(['  x \t y  ', '   ', '', '']);
  });

  it('keeps values as strings: no number or boolean parsing', () => {
    const op = operationOf(readXml(envelope('<a>007</a><b>1.10</b><c>true</c>')));
    expect(['a', 'b', 'c'].map((n) => textOf(child(op, n)))).toEqual(['007', '1.10', 'true']);
  });

  it('normalises CRLF and lone CR to LF, in text and CDATA (XML 1.0 §2.11)', () => {
    const op = operationOf(readXml(envelope('<a>1\r\n2\r3</a><b><![CDATA[x\r\ny]]></b>')));
    expect([textOf(child(op, 'a')), textOf(child(op, 'b'))]).toEqual(['1\n2\n3', 'x\ny']);
  });

  it('decodes the five predefined entities and numeric references', () => {
    const op = operationOf(
      readXml(envelope('<a>&lt;&gt;&amp;&quot;&apos;&#65;&#x42;&#x1F600;&#0000067;&#13;</a>')),
    );
    expect(textOf(child(op, 'a'))).toBe('<>&"\'AB😀C\r');
  });

  it('decodes and normalises attribute values (XML 1.0 §3.3.3)', () => {
    const op = operationOf(readXml(envelope('<a v="x\ty\nz &amp; &#10;&#9;" w=\'"q"\'/>')));
    expect(attr(child(op, 'a'), '', 'v')).toBe('x y z & \n\t');
    expect(attr(child(op, 'a'), '', 'w')).toBe('"q"');
  });

  it('merges text split by comments, PIs and CDATA into one string', () => {
    const op = operationOf(readXml(envelope('<a>1<!-- c -->2<?pi x?>3<![CDATA[4]]>5</a>')));
    expect(child(op, 'a').children).toEqual(['12345']);
  });

  it('reads a closing "?>" inside a PI as the end of the PI, as XML does', () => {
    const op = operationOf(readXml(envelope(`<a>x<?pi don't "?>"</a>`)));
    expect(textOf(child(op, 'a'))).toBe('x"');
  });
});

describe('readXml: helpers and positions', () => {
  it('childElements keeps order and duplicates; textOf is undefined for complex content', () => {
    const op = operationOf(readXml(envelope('<a>1</a> <b><c/></b> <a>2</a>')));
    expect(childElements(op).map((e) => e.local)).toEqual(['a', 'b', 'a']);
    expect(textOf(child(op, 'b'))).toBeUndefined();
    expect(textOf(op)).toBeUndefined();
  });

  it('attr matches the expanded name; prefixed attributes need their namespace', () => {
    const root = readXml(
      '<r xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true" nil="no" xml:lang="en"/>',
    );
    expect(attr(root, 'http://www.w3.org/2001/XMLSchema-instance', 'nil')).toBe('true');
    expect(attr(root, '', 'nil')).toBe('no');
    expect(attr(root, XML_NS, 'lang')).toBe('en');
    expect(attr(root, XMLNS_NS, 'xsi')).toBe('http://www.w3.org/2001/XMLSchema-instance');
    expect(attr(root, '', 'missing')).toBeUndefined();
  });

  it('records the 1-based line and the column of the name, as IXmlLineInfo does', () => {
    const root = readXml('<?xml version="1.0"?>\r\n<r>\r\n  <a/>\r\n\t<b x="1&#10;2"\r\n/><c/></r>');
    expect([root.line, root.col]).toEqual([2, 2]);
    expect(childElements(root).map((e) => [e.local, e.line, e.col])).toEqual([
      ['a', 3, 4],
      ['b', 4, 3],
      ['c', 5, 4],
    ]);
  });

  it('positions count UTF-16 code units, as .NET does', () => {
    const root = readXml('<r>😀<a/></r>');
    expect(child(root, 'a').col).toBe(7);
  });
});

describe('readXml: namespace errors', () => {
  it('rejects undeclared prefixes on elements and attributes', () => {
    expectReadError(() => readXml('<p:r/>'), 'undeclared-prefix');
    expectReadError(() => readXml('<r p:a="1"/>'), 'undeclared-prefix');
  });

  it('scopes a declaration to its element', () => {
    expectReadError(() => readXml('<r><a xmlns:p="urn:p"/><p:b/></r>'), 'undeclared-prefix');
    const root = readXml('<r xmlns="urn:a"><b xmlns="urn:b"/><c/></r>');
    expect(childElements(root).map((e) => e.ns)).toEqual(['urn:b', 'urn:a']);
  });

  it('rejects misuse of the reserved prefixes and empty prefixed declarations', () => {
    for (const xml of [
      '<r xmlns:p=""/>',
      '<r xmlns:xml="urn:other"/>',
      `<r xmlns:x="${XML_NS}"/>`,
      '<r xmlns:xmlns="urn:x"/>',
      `<r xmlns="${XMLNS_NS}"/>`,
      '<xmlns:r/>',
      '<a:b:c xmlns:a="urn:a"/>',
      '<r :a="1"/>',
      // Found by differential fuzzing against expat: NCName parts, colon-free PI targets.
      '<r xml:-lang="x"/>',
      '<r><?a:b?></r>',
    ]) {
      expectReadError(() => readXml(xml), 'malformed');
    }
  });

  it('rejects two attributes with the same expanded name (Namespaces in XML §6.3)', () => {
    expectReadError(() => readXml('<r xmlns:p="urn:x" xmlns:q="urn:x" p:a="1" q:a="2"/>'), 'malformed');
  });
});

describe('readXml: limits are overridable', () => {
  it('applies the caller’s limits instead of the defaults', () => {
    expect(readXml('<a><b><c/></b></a>', { maxDepth: 3 }).local).toBe('a');
    expectReadError(() => readXml('<a><b><c/></b></a>', { maxDepth: 2 }), 'limit');
    expectReadError(() => readXml('<a><b/><b/></a>', { maxElements: 2 }), 'limit');
    expectReadError(() => readXml('<a x="1" y="2"/>', { maxAttributesPerElement: 1 }), 'limit');
    expectReadError(() => readXml('<a x="1"><b y="2"/></a>', { maxTotalAttributes: 1 }), 'limit');
    expectReadError(() => readXml('<abcd/>', { maxNameLength: 3 }), 'limit');
  });
});
