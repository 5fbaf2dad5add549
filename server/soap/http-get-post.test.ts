/**
 * HTTP GET and HTTP POST on the real listening server with plain `fetch`, as a browser form or a
 * script would call them (spec "Endpoints › Bindings"; asmx-compatibility.md §1.5): the documented
 * root elements, two-space indentation, exact values, and ASMX's 500 text/plain errors.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PayframeError } from '../errors.ts';
import { type ServedService, serveRecordingService } from '../../test/kit/soap/serve.ts';

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const XSD = 'http://www.w3.org/2001/XMLSchema';

let s: ServedService;

beforeAll(async () => {
  s = await serveRecordingService();
});
afterAll(() => s?.close());
beforeEach(() => {
  s.rec.calls.length = 0;
});

const get = (op: string, query: string) => fetch(`${s.serviceUrl}/${op}?${query}`);
const post = (op: string, form: string, type = 'application/x-www-form-urlencoded') =>
  fetch(`${s.serviceUrl}/${op}`, { method: 'POST', body: form, headers: { 'content-type': type } });

async function xmlOf(res: Response): Promise<string> {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/xml; charset=utf-8');
  return res.text();
}

describe('HTTP GET and POST', () => {
  it('GET GetTransactionHistories answers an indented ArrayOfTransactionHistory', async () => {
    s.rec.respond('GetTransactionHistories', () => [
      {
        TransactionHistoryID: '9007199254740993',
        MerchantID: '42',
        TransactionID: '-9223372036854775808',
        TransactionAmount: '10.50',
        TransactionDate: null,
        NameOnCard: 'A <B> & "C"',
        SettlementStatus: '',
      },
      {
        TransactionHistoryID: '1',
        MerchantID: '42',
        TransactionID: '2',
        TransactionAmount: '0.001',
        TransactionDate: '2024-02-29T23:59:59.1234500',
      },
    ]);
    const res = await get(
      'GetTransactionHistories',
      'startDate=2024-01-01&endDate=2024-01-31T23:59:59&merchantID=42',
    );
    expect(await xmlOf(res)).toBe(
      [
        '<?xml version="1.0" encoding="utf-8"?>',
        `<ArrayOfTransactionHistory xmlns:xsi="${XSI}" xmlns:xsd="${XSD}" xmlns="${s.namespace}">`,
        '  <TransactionHistory>',
        '    <TransactionHistoryID>9007199254740993</TransactionHistoryID>',
        '    <MerchantID>42</MerchantID>',
        '    <TransactionID>-9223372036854775808</TransactionID>',
        '    <TransactionAmount>10.50</TransactionAmount>',
        '    <TransactionDate xsi:nil="true" />',
        '    <NameOnCard>A &lt;B&gt; &amp; "C"</NameOnCard>',
        '    <SettlementStatus />',
        '  </TransactionHistory>',
        '  <TransactionHistory>',
        '    <TransactionHistoryID>1</TransactionHistoryID>',
        '    <MerchantID>42</MerchantID>',
        '    <TransactionID>2</TransactionID>',
        '    <TransactionAmount>0.001</TransactionAmount>',
        '    <TransactionDate>2024-02-29T23:59:59.12345</TransactionDate>',
        '  </TransactionHistory>',
        '</ArrayOfTransactionHistory>',
      ].join('\n'),
    );
    expect(s.rec.calls[0]?.context.binding).toBe('httpGet');
    expect(s.rec.calls[0]?.params).toEqual({
      startDate: '2024-01-01T00:00:00',
      endDate: '2024-01-31T23:59:59',
      merchantID: '42',
    });
  });

  it('an empty list is an empty root element', async () => {
    s.rec.respond('GetStoredCards', () => []);
    const res = await post('GetStoredCards', 'email=a%40b.example&phoneNumber=');
    expect(await xmlOf(res)).toBe(
      `<?xml version="1.0" encoding="utf-8"?>\n<ArrayOfStoredCardDetail xmlns:xsi="${XSI}" xmlns:xsd="${XSD}" xmlns="${s.namespace}" />`,
    );
    expect(s.rec.calls[0]?.params).toEqual({ email: 'a@b.example', phoneNumber: '' });
  });

  it('POST Verify3DSecureMerchant answers a bare boolean root', async () => {
    s.rec.respond('Verify3DSecureMerchant', () => false);
    const res = await post('Verify3DSecureMerchant', 'merchantID=42');
    expect(await xmlOf(res)).toBe(
      `<?xml version="1.0" encoding="utf-8"?>\n<boolean xmlns="${s.namespace}">false</boolean>`,
    );
    expect(s.rec.calls.map((c) => [c.context.binding, c.params])).toEqual([
      ['httpPost', { merchantID: '42' }],
    ]);
  });

  it.each(['GET', 'POST'])(
    '%s GetMerchantDetails answers a MerchantDetails root with string fields',
    async (method) => {
      s.rec.respond('GetMerchantDetails', () => ({ MerchantId: '42', BusinessName: 'Café ✓', Logo: '' }));
      const query = 'merchantId=42&code=t%26k';
      const res =
        method === 'GET' ? await get('GetMerchantDetails', query) : await post('GetMerchantDetails', query);
      expect(await xmlOf(res)).toBe(
        [
          '<?xml version="1.0" encoding="utf-8"?>',
          `<MerchantDetails xmlns:xsi="${XSI}" xmlns:xsd="${XSD}" xmlns="${s.namespace}">`,
          '  <MerchantId>42</MerchantId>',
          '  <Logo />',
          '  <BusinessName>Café ✓</BusinessName>',
          '</MerchantDetails>',
        ].join('\n'),
      );
      expect(s.rec.calls[0]?.params).toEqual({ merchantId: '42', code: 't&k' });
    },
  );

  it.each([
    ['GET', () => get('GetMerchantInfo', 'merchantid=42'), 'Missing parameter: merchantID.\n'],
    [
      'POST',
      () => post('GetTransactionHistories', 'startDate=2024-01-01&merchantID=1'),
      'Missing parameter: endDate.\n',
    ],
    [
      'POST',
      () => post('GetMerchantInfo', 'merchantID=42', 'text/plain'),
      'Request format is invalid: text/plain.\n',
    ],
  ])('%s errors are 500 text/plain: %s', async (_method, send, body) => {
    const res = await send();
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe(body);
    expect(s.rec.calls).toEqual([]);
  });

  it('a catalogue error from the operation is a 500 text/plain with its message', async () => {
    s.rec.respond('GetMerchantInfo', () => {
      throw new PayframeError('invalid_request', 'bad thing');
    });
    const res = await get('GetMerchantInfo', 'merchantID=42');
    expect(res.status).toBe(500);
    expect(await res.text()).toBe('bad thing\n');
  });
});
