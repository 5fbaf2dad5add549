/** SOAP 1.1 and 1.2 on the wire through the real app: routing, versions, faults, statuses. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PayframeError } from '../errors.ts';
import { createGateway, GATEWAY_HANDLERS } from '../gateway/gateway.ts';
import { buildTestApp, type TestApp } from '../../test/kit/app.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { type RecordingService, recordingService } from '../../test/kit/soap/recording-service.ts';

const NS = 'http://tempuri.org/';
const S11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const S12 = 'http://www.w3.org/2003/05/soap-envelope';

const verifyBody = (inner = '<merchantID>42</merchantID>') =>
  `<Verify3DSecureMerchant xmlns="${NS}">${inner}</Verify3DSecureMerchant>`;
const env11 = (body: string, header = '') =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${S11}">${header}<soap:Body>${body}</soap:Body></soap:Envelope>`;
const env12 = (body: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap12:Envelope xmlns:soap12="${S12}"><soap12:Body>${body}</soap12:Body></soap12:Envelope>`;

let t: TestApp;
let rec: RecordingService;

beforeAll(async () => {
  rec = recordingService();
  const db = await databaseTargets()[0]!.open();
  t = await buildTestApp(db, {}, { closeDatabase: true, transactionService: rec.service });
});
afterAll(() => t.close());
beforeEach(() => {
  rec.calls.length = 0;
});

function post(payload: string, headers: Record<string, string>) {
  return t.app.inject({ method: 'POST', url: '/TransactionService.asmx', payload, headers });
}

describe('SOAP 1.1', () => {
  it('routes by SOAPAction and answers <Op>Response/<Op>Result in 1.1', async () => {
    rec.respond('Verify3DSecureMerchant', () => true);
    const res = await post(env11(verifyBody()), {
      'content-type': 'text/xml; charset=utf-8',
      soapaction: `"${NS}Verify3DSecureMerchant"`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(res.body).toBe(
      `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${S11}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body><Verify3DSecureMerchantResponse xmlns="${NS}"><Verify3DSecureMerchantResult>true</Verify3DSecureMerchantResult></Verify3DSecureMerchantResponse></soap:Body></soap:Envelope>`,
    );
    expect(rec.calls[0]).toMatchObject({ operation: 'Verify3DSecureMerchant', params: { merchantID: '42' } });
    expect(rec.calls[0]?.context.binding).toBe('soap11');
  });

  it('accepts an unquoted SOAPAction (SOAP::Lite) and any prefix style', async () => {
    const body = `<ns1:Verify3DSecureMerchant xmlns:ns1="${NS}"><ns1:merchantID>7</ns1:merchantID></ns1:Verify3DSecureMerchant>`;
    const res = await post(env11(body), {
      'content-type': 'text/xml',
      soapaction: `${NS}Verify3DSecureMerchant`,
    });
    expect(res.statusCode).toBe(200);
    expect(rec.calls[0]?.params).toEqual({ merchantID: '7' });
  });

  it('routes a 1.1 envelope without SOAPAction by its Body element, and answers in 1.1', async () => {
    const res = await post(env11(verifyBody()), { 'content-type': 'text/xml; charset=utf-8' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`xmlns:soap="${S11}"`);
  });

  it('faults on an unknown SOAPAction with the ASMX message', async () => {
    const res = await post(env11(verifyBody()), {
      'content-type': 'text/xml',
      soapaction: '"http://x/Bogus"',
    });
    expect(res.statusCode).toBe(500);
    expect(res.body).toContain('<faultcode>soap:Client</faultcode>');
    expect(res.body).toContain(
      '<faultstring>Server did not recognize the value of HTTP Header SOAPAction: http://x/Bogus.</faultstring><detail />',
    );
    expect(rec.calls).toHaveLength(0);
  });

  it('faults when SOAPAction is empty', async () => {
    const res = await post(env11(verifyBody()), { 'content-type': 'text/xml', soapaction: '""' });
    expect(res.body).toContain('SOAPAction: .</faultstring>');
  });

  it('ignores unknown and wrong-namespace elements and takes the first duplicate', async () => {
    const inner = `<merchantID>5</merchantID><merchantID>999</merchantID><x:merchantID xmlns:x="urn:other">8</x:merchantID><Unknown>1</Unknown>`;
    const res = await post(
      env11(
        `<Verify3DSecureMerchant xmlns="${NS}"><x:merchantID xmlns:x="urn:other">8</x:merchantID>${inner}</Verify3DSecureMerchant>`,
      ),
      {
        'content-type': 'text/xml',
      },
    );
    expect(res.statusCode).toBe(200);
    expect(rec.calls[0]?.params).toEqual({ merchantID: '5' });
  });

  it('faults naming a missing Required element', async () => {
    const res = await post(env11(verifyBody('')), { 'content-type': 'text/xml' });
    expect(res.statusCode).toBe(500);
    expect(res.body).toContain('<faultcode>soap:Client</faultcode>');
    expect(res.body).toMatch(
      /Server was unable to read request\. ---&gt; There is an error in XML document \(1, \d+\)\. ---&gt; Required element 'merchantID' is missing\./,
    );
  });

  it('faults naming the element and value of a bad number, with its position', async () => {
    const res = await post(env11(verifyBody('<merchantID>12abc</merchantID>')), {
      'content-type': 'text/xml',
    });
    expect(res.statusCode).toBe(500);
    expect(res.body).toMatch(/There is an error in XML document \(1, \d+\)\. ---&gt; Element 'merchantID': /);
    expect(res.body).toContain('Input string was not in a correct format.');
  });

  it('faults on bad booleans and dateTimes with XmlConvert messages', async () => {
    const req = `<ProcessTransaction xmlns="${NS}"><request><TestRequest>yes</TestRequest></request></ProcessTransaction>`;
    const r1 = await post(env11(req), { 'content-type': 'text/xml' });
    expect(r1.body).toContain(
      "Element 'request/TestRequest': The string 'yes' is not a valid Boolean value.",
    );
    const hist = `<GetTransactionHistories xmlns="${NS}"><startDate>yesterday</startDate><endDate>2024-01-01</endDate><merchantID>1</merchantID></GetTransactionHistories>`;
    const r2 = await post(env11(hist), { 'content-type': 'text/xml' });
    expect(r2.body).toContain("Element 'startDate': The string 'yesterday' is not a valid AllXsd value.");
  });

  it('runs the SOAPAction operation with what the Body lacks when the Body carries another (row 24)', async () => {
    const res = await post(
      env11(`<GetMerchantInfo xmlns="${NS}"><merchantID>1</merchantID></GetMerchantInfo>`),
      {
        'content-type': 'text/xml',
        soapaction: `"${NS}Verify3DSecureMerchant"`,
      },
    );
    // Verify3DSecureMerchant's merchantID is Required, so the defaults ASMX would use become a fault.
    expect(res.body).toContain("Required element 'merchantID' is missing.");
    expect(rec.calls).toHaveLength(0);
    expect(t.logLines.join('')).toContain('SOAPAction names an operation the Body does not carry');
  });

  it('answers a mustUnderstand header it does not understand with a MustUnderstand fault', async () => {
    const header = `<soap:Header><Auth xmlns="urn:x" soap:mustUnderstand="1">x</Auth></soap:Header>`;
    const res = await post(env11(verifyBody(), header), { 'content-type': 'text/xml' });
    expect(res.body).toContain('<faultcode>soap:MustUnderstand</faultcode>');
  });

  it('maps a catalogue error to a Client fault with its code in detail, and hides server errors', async () => {
    rec.respond('Verify3DSecureMerchant', () => {
      throw new PayframeError('invalid_request', 'That merchant cannot do this.');
    });
    const r1 = await post(env11(verifyBody()), { 'content-type': 'text/xml' });
    expect(r1.body).toContain(
      '<faultcode>soap:Client</faultcode><faultstring>That merchant cannot do this.</faultstring>',
    );
    expect(r1.body).toContain(`<detail><ErrorCode xmlns="${NS}">invalid_request</ErrorCode></detail>`);
    rec.respond('Verify3DSecureMerchant', () => {
      throw new Error('secret internal detail');
    });
    const r2 = await post(env11(verifyBody()), { 'content-type': 'text/xml' });
    expect(r2.statusCode).toBe(500);
    expect(r2.body).toContain(
      'Server was unable to process request. ---&gt; An error occurred on the server.',
    );
    expect(r2.body).not.toContain('secret internal detail');
  });
});

describe('SOAP 1.2', () => {
  it('routes by the action parameter and answers in 1.2', async () => {
    rec.respond('Verify3DSecureMerchant', () => false);
    const res = await post(env12(verifyBody()), {
      'content-type': `application/soap+xml; charset=utf-8; action="${NS}Verify3DSecureMerchant"`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/soap+xml; charset=utf-8');
    expect(res.body).toContain(`<soap:Envelope xmlns:soap="${S12}"`);
    expect(res.body).toContain('<Verify3DSecureMerchantResult>false</Verify3DSecureMerchantResult>');
    expect(rec.calls[0]?.context.binding).toBe('soap12');
  });

  it('routes by the Body element when there is no action (strong-soap)', async () => {
    const res = await post(env12(verifyBody()), { 'content-type': 'application/soap+xml; charset=utf-8' });
    expect(res.statusCode).toBe(200);
  });

  it('writes 1.2 faults with Code/Reason and the soap prefix', async () => {
    const res = await post(env12('<Nothing xmlns="urn:x" />'), { 'content-type': 'application/soap+xml' });
    expect(res.statusCode).toBe(500);
    expect(res.body).toContain(
      '<soap:Fault><soap:Code><soap:Value>soap:Sender</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">Unable to handle request without a valid action parameter. Please supply a valid soap action.</soap:Text></soap:Reason><soap:Detail /></soap:Fault>',
    );
  });

  it('names an unknown action', async () => {
    const res = await post(env12('<Nothing xmlns="urn:x" />'), {
      'content-type': 'application/soap+xml; action="urn:nope"',
    });
    expect(res.body).toContain("The action 'urn:nope' was not recognized.");
  });
});

describe('request format', () => {
  it('answers 415 with an empty body for a content type that is not SOAP', async () => {
    const res = await post(env11(verifyBody()), { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(415);
    expect(res.body).toBe('');
  });

  it('answers 400 with an empty body for XML that is not well formed', async () => {
    for (const payload of [
      '<soap:Envelope',
      env11(verifyBody()).replace('</soap:Body>', ''),
      `${env11(verifyBody())}<x/>`,
    ]) {
      const res = await post(payload, { 'content-type': 'text/xml' });
      expect(res.statusCode).toBe(400);
      expect(res.body).toBe('');
    }
  });

  it('faults on a missing Envelope or Body, and on another envelope version', async () => {
    const r1 = await post(`<Verify3DSecureMerchant xmlns="${NS}"/>`, {
      'content-type': 'text/xml',
      soapaction: `"${NS}Verify3DSecureMerchant"`,
    });
    expect(r1.body).toContain('Missing required soap:Envelope element.');
    const r2 = await post(`<soap:Envelope xmlns:soap="${S11}"/>`, {
      'content-type': 'text/xml',
      soapaction: '"x"',
    });
    expect(r2.body).toContain('Missing required soap:Body element.');
    const r3 = await post(`<e:Envelope xmlns:e="urn:soap-9"><e:Body/></e:Envelope>`, {
      'content-type': 'text/xml',
      soapaction: '"x"',
    });
    expect(r3.body).toContain('<faultcode>soap:VersionMismatch</faultcode>');
  });

  it('rejects GET-only and other methods on the service path the way ASMX does', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/TransactionService.asmx', payload: 'x' });
    expect(res.statusCode).toBe(405);
    expect(res.body).toBe('Request format is unrecognized.\n');
  });
});

describe('an operation that is not implemented', () => {
  it('answers a Server fault saying so, never made-up data', async () => {
    const db = await databaseTargets()[0]!.open();
    const real = await buildTestApp(db);
    // A gateway whose Login has no implementation: it passes the credential check, then says so.
    const handlers = {
      ...GATEWAY_HANDLERS,
      Login: async (): Promise<never> => {
        throw new PayframeError('not_implemented', 'Login is not implemented yet.');
      },
    };
    const bare = await buildTestApp(
      db,
      // The same data directory, so the same vault key as the app that set the database up.
      { DATA_DIR: real.config.dataDir },
      { closeDatabase: true, transactionService: createGateway(real.gateway.deps, handlers) },
    );
    try {
      // Login is public (no credential needed).
      const res = await bare.app.inject({
        method: 'POST',
        url: '/TransactionService.asmx',
        payload: env11(
          `<Login xmlns="${NS}"><loginRequest><UserName>u</UserName><Password>p</Password><ProfileInfo>false</ProfileInfo></loginRequest></Login>`,
        ),
        headers: { 'content-type': 'text/xml' },
      });
      expect(res.statusCode).toBe(500);
      expect(res.body).toContain('<faultcode>soap:Server</faultcode>');
      expect(res.body).toContain('Login is not implemented yet.');
      expect(res.body).toContain('<ErrorCode xmlns="http://tempuri.org/">not_implemented</ErrorCode>');
    } finally {
      await real.close();
      await bare.close();
    }
  });
});
