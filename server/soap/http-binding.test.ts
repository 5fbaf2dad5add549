/** HTTP GET and POST bindings, ?WSDL and the help pages through the real app (asmx-compatibility.md §1.1, §1.5). */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/kit/app.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { type RecordingService, recordingService } from '../../test/kit/soap/recording-service.ts';

const NS = 'http://payframe.test/ts/';
let t: TestApp;
let rec: RecordingService;

beforeAll(async () => {
  rec = recordingService();
  const db = await databaseTargets()[0]!.open();
  t = await buildTestApp(
    db,
    { SOAP_NAMESPACE: NS },
    { closeDatabase: true, transactionService: rec.service },
  );
});
afterAll(() => t.close());
beforeEach(() => {
  rec.calls.length = 0;
});

describe('HTTP GET', () => {
  it('calls an operation with simple parameters and answers its documented root element', async () => {
    rec.respond('Verify3DSecureMerchant', () => true);
    const res = await t.app.inject('/TransactionService.asmx/Verify3DSecureMerchant?merchantID=42');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(res.body).toBe(`<?xml version="1.0" encoding="utf-8"?>\n<boolean xmlns="${NS}">true</boolean>`);
    expect(rec.calls[0]).toMatchObject({ params: { merchantID: '42' }, context: { binding: 'httpGet' } });
  });

  it('answers lists as ArrayOf<Item> indented two spaces', async () => {
    rec.respond('GetTransactionHistories', () => []);
    const res = await t.app.inject(
      '/TransactionService.asmx/GetTransactionHistories?startDate=2024-01-01&endDate=2024-01-31T23:59:59&merchantID=1',
    );
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<ArrayOfTransactionHistory xmlns:xsi=');
    // GET/POST parameters are converted as .NET's DateTime.Parse does: a date is that day at midnight.
    expect(rec.calls[0]?.params).toEqual({
      startDate: '2024-01-01T00:00:00',
      endDate: '2024-01-31T23:59:59',
      merchantID: '1',
    });
  });

  it('says which parameter is missing, as ASMX: 500 text/plain', async () => {
    const res = await t.app.inject(
      '/TransactionService.asmx/GetTransactionHistories?startDate=2024-01-01&merchantID=1',
    );
    expect(res.statusCode).toBe(500);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe('Missing parameter: endDate.\n');
    expect(rec.calls).toHaveLength(0);
  });

  it('says which value cannot be converted', async () => {
    const res = await t.app.inject('/TransactionService.asmx/GetMerchantInfo?merchantID=abc');
    expect(res.statusCode).toBe(500);
    expect(res.body).toContain('Cannot convert abc to System.Int64.');
  });

  it('treats method names case-sensitively, and refuses operations with complex parameters', async () => {
    const r1 = await t.app.inject('/TransactionService.asmx/verify3dsecuremerchant?merchantID=1');
    expect(r1.body).toContain(
      // HTML-encoded as ASMX writes its text/plain errors.
      'Invalid method name &#39;verify3dsecuremerchant&#39;, method names are case sensitive. The method name &#39;Verify3DSecureMerchant&#39; with the same name but different casing was found.',
    );
    const r2 = await t.app.inject('/TransactionService.asmx/Nope');
    expect(r2.body).toBe('Nope Web Service method name is not valid.\n');
    const r3 = await t.app.inject('/TransactionService.asmx/ProcessTransaction');
    expect(r3.body).toBe(
      'Request format is unrecognized for URL unexpectedly ending in &#39;/ProcessTransaction&#39;.\n',
    );
  });
});

describe('HTTP POST', () => {
  it('takes a form body', async () => {
    rec.respond('GetMerchantDetails', () => ({ MerchantId: '9', BusinessName: 'Tea & Co' }));
    const res = await t.app.inject({
      method: 'POST',
      url: '/TransactionService.asmx/GetMerchantDetails',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'merchantId=9&code=',
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<MerchantDetails xmlns:xsi=');
    expect(res.body).toContain('  <BusinessName>Tea &amp; Co</BusinessName>');
    expect(rec.calls[0]).toMatchObject({
      params: { merchantId: '9', code: '' },
      context: { binding: 'httpPost' },
    });
  });

  it('requires a form content type', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/TransactionService.asmx/GetMerchantDetails',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(500);
    expect(res.body).toBe('Request format is invalid: application/json.\n');
  });
});

describe('service description and help', () => {
  it('serves ?WSDL case-insensitively, built from the request host', async () => {
    for (const q of ['WSDL', 'wsdl', 'Wsdl']) {
      const res = await t.app.inject({
        url: `/TransactionService.asmx?${q}`,
        headers: { host: 'pay.example:8443' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
      expect(res.body).toContain(`targetNamespace="${NS}"`);
      expect(res.body).toContain('location="http://pay.example:8443/TransactionService.asmx"');
    }
  });

  it('serves the help page and an operation page without any script', async () => {
    const list = await t.app.inject('/TransactionService.asmx');
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(list.body).toContain('TransactionService.asmx?op=ProcessTransaction');
    expect(list.headers['content-security-policy']).not.toContain('script-src');
    const op = await t.app.inject('/TransactionService.asmx?op=GetTransactionHistories');
    expect(op.body).toContain('GetTransactionHistories');
    expect(op.body).toContain(`SOAPAction: "${NS}GetTransactionHistories"`);
    expect(op.body).not.toContain('<script');
  });
});

describe('with HTTP GET/POST switched off', () => {
  it('answers as ASMX does without those protocols, and leaves them out of the WSDL', async () => {
    const db = await databaseTargets()[0]!.open();
    const off = await buildTestApp(
      db,
      { SOAP_HTTP_BINDINGS: 'false' },
      { closeDatabase: true, transactionService: rec.service },
    );
    try {
      const res = await off.app.inject('/TransactionService.asmx/Verify3DSecureMerchant?merchantID=1');
      expect(res.statusCode).toBe(500);
      expect(res.body).toContain(
        "Request format is unrecognized for URL unexpectedly ending in '/Verify3DSecureMerchant'.",
      );
      const wsdl = await off.app.inject('/TransactionService.asmx?wsdl');
      expect(wsdl.body).not.toContain('HttpGet');
    } finally {
      await off.close();
    }
  });
});
