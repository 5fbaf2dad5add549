/**
 * The XML attack matrix (asmx-compatibility.md §2) against the real HTTP endpoint. The reader's own
 * tests cover each row in depth (server/soap/xml/*.test.ts); here every row goes through Fastify,
 * the body limit and the SOAP binding, and must end in the safe outcome — without the server's
 * memory growing while they run.
 */
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/kit/app.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { type RecordingService, recordingService } from '../../test/kit/soap/recording-service.ts';

const NS = 'http://tempuri.org/';
const S11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const ACTION = `"${NS}GetMerchantDetails"`;
const wrap = (inner: string) =>
  `<soap:Envelope xmlns:soap="${S11}"><soap:Body><GetMerchantDetails xmlns="${NS}"><merchantId>${inner}</merchantId></GetMerchantDetails></soap:Body></soap:Envelope>`;

let t: TestApp;
let rec: RecordingService;
beforeAll(async () => {
  rec = recordingService();
  const db = await databaseTargets()[0]!.open();
  t = await buildTestApp(db, { LOG_LEVEL: 'warn' }, { closeDatabase: true, transactionService: rec.service });
});
afterAll(() => t.close());

function send(payload: string | Buffer, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/TransactionService.asmx',
    payload,
    headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: ACTION, ...headers },
  });
}

const rejected: Array<[string, string | Buffer, Record<string, string>?]> = [
  [
    '1 XXE external entity',
    `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>${wrap('&x;')}`,
  ],
  ['2 external DTD / parameter entity', `<!DOCTYPE r SYSTEM "http://127.0.0.1:9/x.dtd"><r>%pe;</r>`],
  [
    '3 billion laughs',
    `<!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]>${wrap('&lol9;')}`,
  ],
  ['4 quadratic blowup', `<!DOCTYPE r [<!ENTITY a "${'a'.repeat(50_000)}">]>${wrap('&a;'.repeat(5_000))}`],
  ['6 deep nesting', wrap(`${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}`)],
  [
    '7 attribute blowup',
    `<soap:Envelope xmlns:soap="${S11}" ${Array.from({ length: 20_000 }, (_, i) => `a${i}="1"`).join(' ')}><soap:Body/></soap:Envelope>`,
  ],
  [
    '12 namespace declaration flood',
    `<soap:Envelope xmlns:soap="${S11}" ${Array.from({ length: 20_000 }, (_, i) => `xmlns:p${i}="urn:${i}"`).join(' ')}><soap:Body/></soap:Envelope>`,
  ],
  ['14 utf-16 declaration over UTF-8 bytes', `<?xml version="1.0" encoding="utf-16"?>${wrap('x')}`],
  ['14 UTF-7 charset', wrap('x'), { 'content-type': 'text/xml; charset=utf-7' }],
  [
    '14 invalid UTF-8',
    Buffer.concat([
      Buffer.from(wrap('x').slice(0, 40)),
      Buffer.from([0xc3, 0x28]),
      Buffer.from(wrap('x').slice(40)),
    ]),
  ],
  ['16 declaration not first', ` <?xml version="1.0"?>${wrap('x')}`],
  ['19 raw control character', wrap('a\u0001b')],
  ['19 control character reference', wrap('a&#x1D;b')],
  ['19 NUL reference', wrap('&#0;')],
  ['19 surrogate reference', wrap('&#xD800;')],
  ['20 undeclared entity', wrap('&nbsp;')],
  ['21 trailing junk', `${wrap('x')}<x/>`],
  ['21 two roots', `${wrap('x')}${wrap('y')}`],
];

describe('malicious XML gets 400 with an empty body and never reaches an operation', () => {
  for (const [name, payload, headers] of rejected) {
    it(name, async () => {
      const res = await send(payload, headers);
      expect(res.statusCode).toBe(400);
      expect(res.body).toBe('');
      expect(rec.calls).toHaveLength(0);
    });
  }
});

describe('rows with another safe outcome', () => {
  it('5 numeric character-reference flood: bounded by the body limit, then parsed linearly', async () => {
    const res = await send(wrap('&#65;'.repeat(200_000)));
    expect(res.statusCode).toBe(200);
    expect(String(rec.calls.pop()?.params.merchantId).length).toBe(200_000);
  });

  it('8/9 oversized body: 413 before parsing', async () => {
    const res = await send(wrap('x'.repeat(2 * 1024 * 1024)));
    expect(res.statusCode).toBe(413);
    expect(rec.calls).toHaveLength(0);
  });

  it('8 overlong names: rejected', async () => {
    const name = 'n'.repeat(100_000);
    const res = await send(wrap(`<${name}/>`));
    expect(res.statusCode).toBe(400);
  });

  it('10 compression bomb: a gzip body is not inflated', async () => {
    const bomb = gzipSync(Buffer.from(wrap('A'.repeat(10 * 1024 * 1024))));
    const res = await send(bomb, { 'content-encoding': 'gzip' });
    expect([400, 415]).toContain(res.statusCode);
    expect(rec.calls).toHaveLength(0);
  });

  it('13 SOAP array attack: soapenc:arrayType is just an attribute to a literal service', async () => {
    const res = await send(
      wrap('x').replace(
        '<merchantId>',
        '<merchantId xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" soapenc:arrayType="xsd:string[1000000000]">',
      ),
    );
    expect(res.statusCode).toBe(200);
    expect(rec.calls.pop()?.params).toEqual({ merchantId: 'x' });
  });

  it('15 a UTF-8 BOM and a UTF-16LE body with BOM are accepted', async () => {
    const xml = `<?xml version="1.0" encoding="utf-8"?>${wrap('bom')}`;
    expect((await send(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(xml)]))).statusCode).toBe(
      200,
    );
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(xml.replace('utf-8', 'utf-16'), 'utf16le'),
    ]);
    expect((await send(utf16, { 'content-type': 'text/xml' })).statusCode).toBe(200);
    expect(rec.calls.splice(0).map((c) => c.params.merchantId)).toEqual(['bom', 'bom']);
  });

  it('17 CDATA gives its literal value; 18 comments and PIs are ignored', async () => {
    const res = await send(wrap('<![CDATA[M&1<]]><!-- note --><?pi x?>'));
    expect(res.statusCode).toBe(200);
    expect(rec.calls.pop()?.params).toEqual({ merchantId: 'M&1<' });
  });

  it('22 prototype-pollution names are ignored parameters, and pollute nothing', async () => {
    const body = `<soap:Envelope xmlns:soap="${S11}"><soap:Body><GetMerchantDetails xmlns="${NS}"><__proto__><polluted>1</polluted></__proto__><constructor>x</constructor><merchantId>m</merchantId></GetMerchantDetails></soap:Body></soap:Envelope>`;
    const res = await send(body);
    expect(res.statusCode).toBe(200);
    expect(rec.calls.pop()?.params).toEqual({ merchantId: 'm' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('26 XInclude and xsi:schemaLocation are never resolved', async () => {
    const res = await send(
      wrap('<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="file:///etc/passwd"/>').replace(
        '<soap:Envelope ',
        '<soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="urn:x http://127.0.0.1:9/x.xsd" ',
      ),
    );
    // merchantId holds an element instead of text: a Client fault, and nothing was fetched or read.
    expect(res.statusCode).toBe(500);
    expect(res.body).toContain('must hold text');
    expect(res.body).not.toContain('root:');
  });
});

describe('memory while under attack', () => {
  it('stays bounded over repeated malicious requests', { timeout: 120_000 }, async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const round = async () => {
      for (const [, payload, headers] of rejected) await send(payload, headers);
      await send(wrap('&#65;'.repeat(200_000)));
      rec.calls.length = 0;
    };
    await round(); // warm up: compiled code, caches
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 10; i++) await round();
    gc();
    const grownMb = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
    expect(grownMb).toBeLessThan(20);
  });
});
