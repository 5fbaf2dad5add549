/**
 * The help pages against the contract table and the ASMX shape (asmx-compatibility.md §1.7).
 */
import { changesState } from '../../shared/contract/effects.ts';
import { describe, expect, it } from 'vitest';
import {
  type Field,
  type FieldType,
  field,
  fieldsOf,
  findComplexType,
  findOperation,
  hasSimpleParams,
  httpRootElement,
  type Operation,
  operation,
  operations,
} from '../../shared/contract/index.ts';
import { type HelpPageOptions, renderOperationHelp, renderServiceHelp } from './help-page.ts';

const NS = 'http://tempuri.org/';
const LOCAL: HelpPageOptions = {
  serviceName: 'TransactionService',
  namespace: NS,
  path: '/TransactionService.asmx',
  host: '127.0.0.1:3000',
  httpBindings: true,
  local: true,
};
const REMOTE: HelpPageOptions = { ...LOCAL, local: false };

function op(name: string): Operation {
  const found = findOperation(name);
  if (found === undefined) throw new Error(`no operation ${name}`);
  return found;
}

/** Every element name a sample shows for this field, nested fields included. */
function elementNames(f: Pick<Field, 'name' | 'type'>): string[] {
  const inner = (type: FieldType): string[] => {
    if (type.kind === 'scalar' || type.kind === 'enum') return [];
    const typeName = type.kind === 'complex' ? type.type : type.item;
    const complex = findComplexType(typeName);
    const fields = complex ? fieldsOf(complex).flatMap(elementNames) : [];
    return type.kind === 'list' ? [type.itemElement, ...fields] : fields;
  };
  return [f.name, ...inner(f.type)];
}

const extension: Operation = operation({
  name: 'CreateHostedPayment',
  doc: 'Creates a <script>alert(1)</script> & "session".',
  params: [field('merchantID', 'long', { required: true })],
  result: 'string',
  extension: true,
});

describe('renderServiceHelp', () => {
  const html = renderServiceHelp(LOCAL);

  it('lists every operation (the 21 of the spec and the extensions) alphabetically, linking their pages', () => {
    const linked = [...html.matchAll(/<a href="TransactionService\.asmx\?op=(\w+)">(\w+)<\/a>/g)];
    const sorted = operations.map((o) => o.name).sort();
    expect(linked).toHaveLength(operations.length);
    expect(linked.map((m) => m[1])).toEqual(sorted);
    expect(linked.map((m) => m[2])).toEqual(sorted);
    for (const o of operations) expect(html).toContain(o.doc);
  });

  it('has the ASMX head, heading and introduction, and a modern, accessible page', () => {
    expect(html).toContain('<title>TransactionService Web Service</title>');
    expect(html).toContain('<link rel="alternate" type="text/xml" href="/TransactionService.asmx?disco" />');
    expect(html).toContain('<p class="heading1" role="heading" aria-level="1">TransactionService</p>');
    expect(html).toContain(
      'The following operations are supported.  For a formal definition, please review the <a href="TransactionService.asmx?WSDL">Service Description</a>.',
    );
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\sstyle=/i);
  });

  it('takes the links from the path', () => {
    const page = renderServiceHelp({ ...LOCAL, path: '/gw/TransactionService.asmx' });
    expect(page).toContain('href="/gw/TransactionService.asmx?disco"');
    expect(page).toContain('href="TransactionService.asmx?WSDL"');
  });

  it('warns about http://tempuri.org/ only when the service uses it', () => {
    expect(html).toContain('This web service uses http://tempuri.org/ as its namespace.');
    expect(html).toContain('SOAP_NAMESPACE');
    const own = renderServiceHelp({ ...LOCAL, namespace: 'https://payframe.example/ts/' });
    expect(own).not.toContain('tempuri');
  });

  it('marks extension operations and escapes what it shows', () => {
    const page = renderServiceHelp({ ...LOCAL, serviceName: 'Svc<b>' }, [...operations, extension]);
    expect(page).toContain(
      '<a href="TransactionService.asmx?op=CreateHostedPayment">CreateHostedPayment</a> (Payframe extension)',
    );
    expect(page).toContain('Creates a &lt;script&gt;alert(1)&lt;/script&gt; &amp; "session".');
    expect(page).toContain('<title>Svc&lt;b&gt; Web Service</title>');
    expect(page).not.toMatch(/<script/i);
    expect(page).not.toContain('<b>');
  });
});

describe('renderOperationHelp', () => {
  it.each(operations.map((o) => [o.name, o] as const))(
    '%s: SOAP samples with its action and all its fields',
    (name, o) => {
      const html = renderOperationHelp({ ...LOCAL, operation: o });
      expect(html).toContain(
        'Click <a href="TransactionService.asmx">here</a> for a complete list of operations.',
      );
      expect(html).toContain(`<h2>${name}</h2>`);
      expect(html).toContain('<h3>Test</h3>');
      expect(html).toContain(`SOAPAction: "${NS}${name}"`);
      expect(html).toContain('<h3>SOAP 1.1</h3>');
      expect(html).toContain('<h3>SOAP 1.2</h3>');
      expect(html).toContain(
        'The following is a sample SOAP 1.1 request and response.  The <font class=value>placeholders</font> shown need to be replaced with actual values.',
      );
      expect(html).toContain('Content-Length: <font class=value>length</font>');
      expect(html).toContain('Content-Type: application/soap+xml; charset=utf-8');
      // An operation without parameters sends its element empty, as ASMX shows it.
      expect(html).toContain(
        o.params.length > 0 ? `&lt;${name} xmlns="${NS}"&gt;` : `&lt;${name} xmlns="${NS}" /&gt;`,
      );
      expect(html).toContain(`&lt;${name}Response xmlns="${NS}"&gt;`);
      for (const p of o.params) {
        for (const element of elementNames(p)) expect(html, element).toContain(`&lt;${element}&gt;`);
      }
      if (o.result !== null) {
        for (const element of elementNames({ name: `${name}Result`, type: o.result })) {
          expect(html, element).toContain(`&lt;${element}&gt;`);
        }
      }
      const http = hasSimpleParams(o);
      // HTTP GET only for operations that change nothing (shared/contract/effects.ts).
      expect(html.includes('<h3>HTTP GET</h3>')).toBe(http && !changesState(name));
      expect(
        renderOperationHelp({ ...LOCAL, httpGetChanges: true, operation: o }).includes('<h3>HTTP GET</h3>'),
      ).toBe(http);
      expect(html.includes('<h3>HTTP POST</h3>')).toBe(http);
      if (http) expect(html).toContain(`&lt;${httpRootElement(o)} xmlns="${NS}"&gt;`);
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/\sstyle=/i);
    },
  );

  it('shows scalar placeholders by XSD type name and list items twice', () => {
    const html = renderOperationHelp({ ...LOCAL, operation: op('CreateInvoice') });
    expect(html).toContain('&lt;MerchantID&gt;<font class=value>long</font>&lt;/MerchantID&gt;');
    expect(html).toContain('&lt;ConvenienceFee&gt;<font class=value>decimal</font>&lt;/ConvenienceFee&gt;');
    expect(html).toContain('&lt;InvoiceDate&gt;<font class=value>dateTime</font>&lt;/InvoiceDate&gt;');
    expect(html).toContain(
      '&lt;ConvenienceFeePercentage&gt;<font class=value>boolean</font>&lt;/ConvenienceFeePercentage&gt;',
    );
    // Two items in each of the SOAP 1.1 and 1.2 requests.
    expect(html.match(/&lt;InvoiceDetails&gt;/g)).toHaveLength(4);
    expect(html.match(/&lt;string&gt;<font class=value>string<\/font>&lt;\/string&gt;/g)).toHaveLength(4);
    const cards = renderOperationHelp({ ...LOCAL, operation: op('GetCustomerPaymentProfileList') });
    expect(cards).toContain('&lt;CardExpirationMonth&gt;<font class=value>string</font>');
    expect(cards).toContain('&lt;customerID&gt;<font class=value>long</font>&lt;/customerID&gt;');
  });

  it('shows HTTP GET and POST samples with string parameters under the return-type root', () => {
    const html = renderOperationHelp({ ...LOCAL, operation: op('GetTransactionHistories') });
    const s = '<font class=value>string</font>';
    expect(html).toContain(
      `GET /TransactionService.asmx/GetTransactionHistories?startDate=${s}&amp;endDate=${s}&amp;merchantID=${s} HTTP/1.1`,
    );
    expect(html).toContain('POST /TransactionService.asmx/GetTransactionHistories HTTP/1.1');
    expect(html).toContain('Content-Type: application/x-www-form-urlencoded');
    expect(html).toContain(`startDate=${s}&amp;endDate=${s}&amp;merchantID=${s}</pre>`);
    expect(html).toContain(`&lt;ArrayOfTransactionHistory xmlns="${NS}"&gt;`);
    const verify = renderOperationHelp({ ...LOCAL, operation: op('Verify3DSecureMerchant') });
    expect(verify).toContain(`&lt;boolean xmlns="${NS}"&gt;<font class=value>boolean</font>&lt;/boolean&gt;`);
    const off = renderOperationHelp({
      ...LOCAL,
      httpBindings: false,
      operation: op('GetTransactionHistories'),
    });
    expect(off).not.toContain('<h3>HTTP GET</h3>');
    expect(off).not.toContain('<h3>HTTP POST</h3>');
  });

  it('offers a labelled test form to local requests for GET/POST operations only', () => {
    const html = renderOperationHelp({ ...LOCAL, operation: op('GetTransactionHistories') });
    expect(html).toContain('<form action="TransactionService.asmx/GetTransactionHistories" method="POST">');
    for (const name of ['startDate', 'endDate', 'merchantID']) {
      expect(html).toContain(`<label for="param-${name}">${name}:</label>`);
      expect(html).toContain(`id="param-${name}" name="${name}"`);
    }
    expect(html).toContain('<input type="submit" value="Invoke" class="button">');

    const remote = renderOperationHelp({ ...REMOTE, operation: op('GetTransactionHistories') });
    expect(remote).toContain('The test form is only available for requests from the local machine.');
    expect(remote).not.toContain('<form');

    const complex = renderOperationHelp({ ...LOCAL, operation: op('ProcessTransaction') });
    expect(complex).not.toContain('<form');
    const off = renderOperationHelp({ ...LOCAL, httpBindings: false, operation: op('GetMerchantInfo') });
    expect(off).not.toContain('<form');
  });

  it('marks an extension operation and escapes its name, doc and the request host', () => {
    const html = renderOperationHelp({
      ...LOCAL,
      host: 'evil"<i>',
      namespace: 'urn:x"<y>/',
      operation: extension,
    });
    expect(html).toContain(
      '<p class="intro">(Payframe extension) Creates a &lt;script&gt;alert(1)&lt;/script&gt; &amp; "session".</p>',
    );
    expect(html).toContain('Host: evil"&lt;i&gt;');
    expect(html).toContain('SOAPAction: "urn:x"&lt;y&gt;/CreateHostedPayment"');
    expect(html).toContain('href="/TransactionService.asmx?disco"');
    expect(html).not.toMatch(/<script|<i>|<y>/i);
  });
});
