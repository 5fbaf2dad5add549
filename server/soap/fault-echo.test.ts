/**
 * Faults never echo caller text that was not checked (issue 13 §11): every place a fault or an
 * HTTP GET/POST error quotes what the caller sent — SOAPAction, the `action` parameter, the
 * Envelope's namespace, a header block's name, a value that does not convert, an operation name in
 * the URL, a content type — quotes it only when it is short, printable and holds no card number
 * (shared/contract/caller-text.ts); else it says "(value not shown)". Card numbers are written in
 * several spellings; none comes back, and the log holds none either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containsCardNumber } from '../../shared/card/card-number-in-text.ts';
import { NOT_SHOWN } from '../../shared/contract/caller-text.ts';
import { buildTestApp, type TestApp } from '../../test/kit/app.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { recordingService } from '../../test/kit/soap/recording-service.ts';

const NS = 'http://tempuri.org/';
const S11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const S12 = 'http://www.w3.org/2003/05/soap-envelope';
const SPELLINGS = ['4111111111111111', '4111-1111-1111-1111', '4111.1111.1111.1111', '4111 1111 1111 1111'];
const DIGITS = '4111111111111111';

const env11 = (body: string, header = '', ns = S11) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ns}">${header}<soap:Body>${body}</soap:Body></soap:Envelope>`;
const verify = (inner = '<merchantID>42</merchantID>') =>
  `<Verify3DSecureMerchant xmlns="${NS}">${inner}</Verify3DSecureMerchant>`;

let t: TestApp;

beforeAll(async () => {
  const rec = recordingService();
  rec.respond('Verify3DSecureMerchant', () => true);
  const db = await databaseTargets()[0]!.open();
  t = await buildTestApp(
    db,
    { LOG_LEVEL: 'trace' },
    { closeDatabase: true, transactionService: rec.service },
  );
});
afterAll(() => t.close());

function soap(payload: string, headers: Record<string, string>) {
  return t.app.inject({ method: 'POST', url: '/TransactionService.asmx', payload, headers });
}

/** The answer holds no card number in any spelling, and says the value is not shown. */
function expectNotEchoed(body: string, where: string) {
  expect(containsCardNumber(body), `${where}: ${body}`).toBe(false);
  expect(body.replace(/\D+/g, ''), where).not.toContain(DIGITS);
  expect(body, where).toContain(NOT_SHOWN);
}

describe('faults quote only checked caller text', () => {
  it('SOAPAction: a checked value is quoted, one with a card number is not', async () => {
    const plain = await soap(env11(verify()), { 'content-type': 'text/xml', soapaction: '"http://x/Bogus"' });
    expect(plain.body).toContain('SOAPAction: http://x/Bogus.</faultstring>');
    for (const pan of SPELLINGS) {
      for (const action of [`"http://x/${pan}"`, `http://x/Pay?card=${encodeURIComponent(pan)}`]) {
        const res = await soap(env11(verify()), { 'content-type': 'text/xml', soapaction: action });
        expect(res.statusCode).toBe(500);
        expect(res.body).toContain('Server did not recognize the value of HTTP Header SOAPAction');
        expectNotEchoed(res.body, action);
      }
    }
    const long = await soap(env11(verify()), {
      'content-type': 'text/xml',
      soapaction: `"${'x'.repeat(500)}"`,
    });
    expect(long.body).toContain(NOT_SHOWN);
    expect(long.body).not.toContain('x'.repeat(101));
  });

  it('the SOAP 1.2 action parameter, the Envelope namespace and a header block name', async () => {
    for (const pan of SPELLINGS) {
      const action = await soap(env11(`<Nope xmlns="urn:x"/>`, '', S12), {
        'content-type': `application/soap+xml; action="urn:${pan}"`,
      });
      expectNotEchoed(action.body, `action ${pan}`);
      const ns = await soap(env11(verify(), '', `urn:${pan}`), { 'content-type': 'text/xml' });
      expect(ns.body).toContain('VersionMismatch');
      expectNotEchoed(ns.body, `namespace ${pan}`);
    }
    const header = `<soap:Header><c${DIGITS} xmlns="urn:h" soap:mustUnderstand="1"/></soap:Header>`;
    const mu = await soap(env11(verify(), header), {
      'content-type': 'text/xml',
      soapaction: `"${NS}Verify3DSecureMerchant"`,
    });
    expect(mu.body).toContain('MustUnderstand');
    expectNotEchoed(mu.body, 'header block');
  });

  it('values that do not convert: a boolean over SOAP, a number over HTTP GET', async () => {
    const bool = await soap(
      env11(
        `<ProcessTransaction xmlns="${NS}"><request><TestRequest>${SPELLINGS[1]}</TestRequest></request></ProcessTransaction>`,
      ),
      { 'content-type': 'text/xml', soapaction: `"${NS}ProcessTransaction"` },
    );
    expect(bool.body).toContain("Element 'request/TestRequest': The string '(value not shown)'");
    expectNotEchoed(bool.body, 'boolean');
    const ok = await soap(
      env11(
        `<ProcessTransaction xmlns="${NS}"><request><TestRequest>yes</TestRequest></request></ProcessTransaction>`,
      ),
      { 'content-type': 'text/xml', soapaction: `"${NS}ProcessTransaction"` },
    );
    expect(ok.body).toContain("The string 'yes' is not a valid Boolean value.");
    for (const pan of SPELLINGS.slice(1)) {
      const res = await t.app.inject(
        `/TransactionService.asmx/Verify3DSecureMerchant?merchantID=${encodeURIComponent(pan)}`,
      );
      expect(res.body).toContain('Cannot convert (value not shown) to System.Int64.');
      expectNotEchoed(res.body, `GET ${pan}`);
    }
  });

  it('HTTP GET/POST: an operation name in the URL and a content type', async () => {
    for (const pan of SPELLINGS) {
      const name = await t.app.inject(`/TransactionService.asmx/${encodeURIComponent(`Pay${pan}`)}`);
      expect(name.body).toContain('Web Service method name is not valid.');
      expectNotEchoed(name.body, `name ${pan}`);
      const type = await t.app.inject({
        method: 'POST',
        url: '/TransactionService.asmx/Verify3DSecureMerchant',
        headers: { 'content-type': `text/plain; card=${pan}` },
        payload: 'merchantID=1',
      });
      expect(type.body).toContain('Request format is invalid: (value not shown).');
      expectNotEchoed(type.body, `content type ${pan}`);
    }
  });

  it('the log holds none of the card numbers sent', () => {
    const log = t.logLines.join('');
    expect(log.length).toBeGreaterThan(0);
    for (const pan of SPELLINGS) expect(log).not.toContain(pan);
    expect(containsCardNumber(log)).toBe(false);
  });
});
