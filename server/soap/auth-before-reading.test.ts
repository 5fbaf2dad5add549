/**
 * Authentication before parsing (issue 13 §14; docs/gateway.md "Authentication"): a request without
 * a valid credential gets the transport's 401 — or the throttle's 429 — whatever its body holds: too
 * large, not XML, in a content type or encoding the service does not read. Only a request that
 * names a public operation (Login, ForgotPassword), or names none before its Body, has its body read
 * without a credential; a Body that cannot be read then could not have been a public call, so it is
 * a 401 too. A valid credential is checked once per call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FAILURES } from '../gateway/auth.ts';
import { type GatewayWorld, openWorld } from '../../test/kit/gateway/gateway-kit.ts';
import { basic as basicHeaders } from '../../test/kit/gateway/soap-call.ts';
import { databaseTargets } from '../../test/kit/databases.ts';

const NS = 'http://tempuri.org/';
const S11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const S12 = 'http://www.w3.org/2003/05/soap-envelope';
const BODY_LIMIT = 4096;
const basic = (as: { merchantId: string; key: string }): string => basicHeaders(as).authorization!;

const envelope = (op: string, inner = '', ns = S11) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ns}"><soap:Body><${op} xmlns="${NS}">${inner}</${op}></soap:Body></soap:Envelope>`;

/** Bodies that cannot be read, each with the headers that name (or do not name) an operation. */
const UNREADABLE: readonly [string, { payload: string | Buffer; headers: Record<string, string> }][] = [
  [
    'XML that is not well formed (SOAP 1.1)',
    {
      payload: '<soap:Envelope><unclosed>',
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NS}GetMerchantInfo"` },
    },
  ],
  [
    'a body over the size limit (SOAP 1.1)',
    {
      payload: envelope('GetMerchantInfo', `<merchantID>${'1'.repeat(BODY_LIMIT * 2)}</merchantID>`),
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NS}GetMerchantInfo"` },
    },
  ],
  [
    'a content type the service does not read (SOAP 1.1)',
    {
      payload: '{"merchantID": 1}',
      headers: { 'content-type': 'application/json', soapaction: `"${NS}CancelHostedPayment"` },
    },
  ],
  [
    'invalid UTF-8 (SOAP 1.1)',
    {
      payload: Buffer.concat([
        Buffer.from(envelope('GetMerchantInfo').slice(0, 60)),
        Buffer.from([0xff, 0xfe, 0xc3]),
      ]),
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NS}GetMerchantInfo"` },
    },
  ],
  [
    'an unknown SOAPAction with junk (SOAP 1.1)',
    {
      payload: 'junk',
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NS}NoSuchOperation"` },
    },
  ],
  [
    'XML that is not well formed, no action named (SOAP 1.2)',
    { payload: '<soap:Envelope', headers: { 'content-type': 'application/soap+xml; charset=utf-8' } },
  ],
  [
    'a body over the size limit, no action named (SOAP 1.2)',
    {
      payload: envelope('Login', `<x>${'a'.repeat(BODY_LIMIT * 2)}</x>`, S12),
      headers: { 'content-type': 'application/soap+xml; charset=utf-8' },
    },
  ],
];

describe.each(databaseTargets())('authentication before the body is read ($name)', (target) => {
  let w: GatewayWorld;
  beforeAll(async () => {
    w = await openWorld(target, { BODY_LIMIT: String(BODY_LIMIT) });
  });
  afterAll(() => w?.close());

  let addresses = 0;
  const nextAddress = () => `198.51.100.${(addresses += 1)}`;

  function post(
    url: string,
    payload: string | Buffer,
    headers: Record<string, string>,
    from = nextAddress(),
  ) {
    return w.app.inject({ method: 'POST', url, payload, headers, remoteAddress: from });
  }

  function expect401(res: Awaited<ReturnType<typeof post>>) {
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe(
      'Basic realm="Payframe Transaction Service", charset="UTF-8"',
    );
    expect(res.body).toBe('');
  }

  it.each(UNREADABLE)('no credential, %s: 401, the body unread', async (_name, { payload, headers }) => {
    expect401(await post('/TransactionService.asmx', payload, headers));
  });

  it.each(UNREADABLE)('a wrong key, %s: 401', async (_name, { payload, headers }) => {
    const authorization = basic({ merchantId: w.a.id, key: 'not-the-key' });
    expect401(await post('/TransactionService.asmx', payload, { ...headers, authorization }));
  });

  it('HTTP POST binding: no credential or a wrong one with a body that is not a form, or too large: 401', async () => {
    const url = '/TransactionService.asmx/GetMerchantInfo';
    const wrong = basic({ merchantId: w.a.id, key: 'not-the-key' });
    for (const authorization of [undefined, wrong]) {
      const auth: Record<string, string> = authorization ? { authorization } : {};
      expect401(await post(url, '<not-a-form/>', { 'content-type': 'text/xml', ...auth }));
      expect401(
        await post(url, `merchantID=${'1'.repeat(BODY_LIMIT * 2)}`, {
          'content-type': 'application/x-www-form-urlencoded',
          ...auth,
        }),
      );
    }
  });

  it('a throttled address gets 429 before its body is read, even with the right key', async () => {
    const from = nextAddress();
    const wrong = basic({ merchantId: w.a.id, key: 'not-the-key' });
    const [, { payload, headers }] = UNREADABLE[0]!;
    for (let i = 0; i < MAX_FAILURES; i++) {
      expect401(await post('/TransactionService.asmx', payload, { ...headers, authorization: wrong }, from));
    }
    const right = basic({ merchantId: w.a.id, key: w.a.key });
    const limited = await post(
      '/TransactionService.asmx',
      payload,
      { ...headers, authorization: right },
      from,
    );
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(limited.body).toBe('');
  });

  it('with a valid credential the body is read: broken XML is 400, too large 413, a good call 200', async () => {
    const authorization = basic({ merchantId: w.a.id, key: w.a.key });
    const [, broken] = UNREADABLE[0]!;
    const [, large] = UNREADABLE[1]!;
    expect(
      (await post('/TransactionService.asmx', broken.payload, { ...broken.headers, authorization }))
        .statusCode,
    ).toBe(400);
    expect(
      (await post('/TransactionService.asmx', large.payload, { ...large.headers, authorization })).statusCode,
    ).toBe(413);
    const ok = await post(
      '/TransactionService.asmx',
      envelope('GetMerchantInfo', `<merchantID>${w.a.id}</merchantID>`),
      {
        'content-type': 'text/xml; charset=utf-8',
        soapaction: `"${NS}GetMerchantInfo"`,
        authorization,
      },
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain(`<MerchantID>${w.a.id}</MerchantID>`);
  });

  it('a public operation named before its body is read without a credential: broken XML is 400, not 401', async () => {
    const res = await post('/TransactionService.asmx', '<soap:Envelope', {
      'content-type': 'text/xml; charset=utf-8',
      soapaction: `"${NS}Login"`,
    });
    expect(res.statusCode).toBe(400);
    // SOAP 1.2 naming no action: a readable Body naming Login is answered (no credential needed).
    const login = await post(
      '/TransactionService.asmx',
      envelope(
        'Login',
        '<loginRequest><UserName>nobody@example.com</UserName><Password>x</Password><ProfileInfo>false</ProfileInfo></loginRequest>',
        S12,
      ),
      { 'content-type': 'application/soap+xml; charset=utf-8' },
    );
    expect(login.statusCode).toBe(200);
    expect(login.body).toContain('<LoginResult>');
  });

  it('no credential, an operation named by the Body only (SOAP 1.2): 401 unless it is public, even when its parameters cannot be read', async () => {
    const headers = { 'content-type': 'application/soap+xml; charset=utf-8' };
    // A merchant operation whose long parameter is not a number: 401, not a fault about the value.
    expect401(
      await post(
        '/TransactionService.asmx',
        envelope('GetMerchantInfo', '<merchantID>x</merchantID>', S12),
        headers,
      ),
    );
    // No Body, or a Body naming nothing known: no public call either.
    expect401(await post('/TransactionService.asmx', `<soap:Envelope xmlns:soap="${S12}"/>`, headers));
    expect401(await post('/TransactionService.asmx', envelope('NoSuchOperation', '', S12), headers));
    // Login's own reading errors are answered, as a public operation's.
    const login = await post(
      '/TransactionService.asmx',
      envelope('Login', '<loginRequest><ProfileInfo>maybe</ProfileInfo></loginRequest>', S12),
      headers,
    );
    expect(login.statusCode).toBe(500);
    expect(login.body).toContain('soap:Sender');
  });

  it('the credential is checked once per call: a wrong key counts one failure, not two', async () => {
    const from = nextAddress();
    const wrong = basic({ merchantId: w.a.id, key: 'not-the-key' });
    const res = await post(
      '/TransactionService.asmx',
      envelope('GetMerchantInfo', `<merchantID>${w.a.id}</merchantID>`),
      {
        'content-type': 'text/xml; charset=utf-8',
        soapaction: `"${NS}GetMerchantInfo"`,
        authorization: wrong,
      },
      from,
    );
    expect401(res);
    const { rows } = await w.db.query<{ failures: number }>(
      'select failures from auth_failures where subject = $1',
      [`ip:${from}`],
    );
    expect(Number(rows[0]?.failures)).toBe(1);
  });
});
