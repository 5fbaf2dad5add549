/**
 * The SOAP client against the real app on a real port: every operation over SOAP 1.1 and 1.2 with
 * both sample variants carries exactly the contract's values both ways, and every way a call can
 * fail comes back as its own error type.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type OperationName, operations } from '../../../shared/contract/index.ts';
import { PayframeError } from '../../errors.ts';
import { type ServedService, serveRecordingService } from '../../../test/kit/soap/serve.ts';
import { contentTypeOf, renderFault, SoapFault } from '../soap-fault.ts';
import { sampleParams, sampleResult, type Variant } from '../../../test/kit/soap/sample-values.ts';
import {
  SoapContractError,
  SoapFaultError,
  SoapHttpError,
  SoapTimeoutError,
  SoapTransportError,
} from './errors.ts';
import {
  TransactionServiceClient,
  type TransactionServiceClientOptions,
} from './transaction-service-client.ts';
import { freePort } from '../../../test/kit/net.ts';

let s: ServedService;

beforeAll(async () => {
  s = await serveRecordingService();
});
afterAll(() => s.close());
beforeEach(() => {
  s.rec.calls.length = 0;
  s.rec.variant = 'full';
});

const client = (options: Partial<TransactionServiceClientOptions> = {}) =>
  new TransactionServiceClient({ baseUrl: s.baseUrl, namespace: s.namespace, ...options });

/** Calls an operation by name with untyped sample values. */
const callOp = (c: TransactionServiceClient, name: string, params: Record<string, unknown>) =>
  c.call(name as OperationName, params as never);

const verify = { merchantID: '42' };

describe.each(['1.1', '1.2'] as const)('every operation over SOAP %s', (soapVersion) => {
  for (const variant of ['full', 'edge'] satisfies Variant[]) {
    for (const op of operations) {
      it(`${op.name} (${variant})`, async () => {
        s.rec.variant = variant;
        const result = await callOp(client({ soapVersion }), op.name, sampleParams(op, variant));
        expect(s.rec.calls).toHaveLength(1);
        expect(s.rec.calls[0]?.operation).toBe(op.name);
        expect(s.rec.calls[0]?.context.binding).toBe(soapVersion === '1.1' ? 'soap11' : 'soap12');
        expect(s.rec.calls[0]?.params).toEqual(sampleParams(op, variant));
        expect(result).toEqual(sampleResult(op, variant));
      });
    }
  }
});

describe.each(['1.1', '1.2'] as const)('faults over SOAP %s', (soapVersion) => {
  it('a catalogue error comes back as a Client fault with its error code', async () => {
    s.rec.respond('GetMerchantInfo', () => {
      throw new PayframeError('invalid_request', 'bad thing');
    });
    const err = await client({ soapVersion })
      .GetMerchantInfo(verify, undefined)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SoapFaultError);
    expect(err).toMatchObject({
      operation: 'GetMerchantInfo',
      code: 'Client',
      faultstring: 'bad thing',
      errorCode: 'invalid_request',
      status: 500,
      soapVersion,
    });
  });

  it('an unexpected error comes back as a Server fault that tells nothing', async () => {
    s.rec.respond('GetMerchantInfo', () => {
      throw new Error('secret internals');
    });
    const err = await client({ soapVersion })
      .GetMerchantInfo(verify, undefined)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'Server',
      errorCode: 'internal',
      faultstring: 'Server was unable to process request. ---> An error occurred on the server.',
    });
    expect(String((err as Error).message)).not.toContain('secret');
  });

  it('a fault with another status keeps the status and Retry-After', async () => {
    const fault = new SoapFault('Server', 'Try again shortly.', 'database_unavailable');
    const body = renderFault(fault, soapVersion, s.namespace);
    const fetch = async () =>
      new Response(body, {
        status: 503,
        headers: { 'content-type': contentTypeOf(soapVersion), 'retry-after': '2' },
      });
    const err = await client({ soapVersion, fetch })
      .GetMerchantInfo(verify, undefined)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SoapFaultError);
    expect(err).toMatchObject({
      code: 'Server',
      errorCode: 'database_unavailable',
      status: 503,
      retryAfter: 2,
    });
  });
});

describe('transport', () => {
  it('sends HTTP Basic credentials when configured, and none otherwise', async () => {
    await client({ username: '1001', password: 'key:with:colons é' }).Verify3DSecureMerchant(
      verify,
      undefined,
    );
    await client().Verify3DSecureMerchant(verify, undefined);
    const basic = `Basic ${Buffer.from('1001:key:with:colons é').toString('base64')}`;
    expect(s.rec.calls.map((c) => c.context.authorization)).toEqual([basic, undefined]);
  });

  it('refuses a user name with a colon (RFC 7617)', () => {
    expect(() => client({ username: 'a:b', password: 'x' })).toThrow(TypeError);
  });

  it('sends the request id the caller gives', async () => {
    await client().Verify3DSecureMerchant(verify, { requestId: 'req-123' });
    expect(s.rec.calls[0]?.context.requestId).toBe('req-123');
  });

  it('gives up after the time limit with SoapTimeoutError', async () => {
    const slow = (ms: number) => () => new Promise((r) => setTimeout(() => r(true), ms));
    s.rec.respond('Verify3DSecureMerchant', slow(1_500));
    const started = Date.now();
    const err = await client({ timeoutMs: 100 })
      .Verify3DSecureMerchant(verify, undefined)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SoapTimeoutError);
    expect(err).toMatchObject({ timeoutMs: 100, operation: 'Verify3DSecureMerchant' });
    expect(Date.now() - started).toBeLessThan(1_000);
    // A per-call limit overrides the client's.
    s.rec.respond('Verify3DSecureMerchant', slow(50));
    const late = await client({ timeoutMs: 10 }).Verify3DSecureMerchant(verify, { timeoutMs: 5_000 });
    expect(late).toBe(true);
  });

  it("rethrows the caller's abort reason as is", async () => {
    s.rec.respond('Verify3DSecureMerchant', () => new Promise((r) => setTimeout(() => r(true), 300)));
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    setTimeout(() => controller.abort(reason), 50);
    await expect(client().Verify3DSecureMerchant(verify, { signal: controller.signal })).rejects.toBe(reason);
  });

  it('reports a refused connection as SoapTransportError', async () => {
    const port = await freePort();
    const err = await client({ baseUrl: `http://127.0.0.1:${port}` })
      .Verify3DSecureMerchant(verify, undefined)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SoapTransportError);
    expect(err).toMatchObject({ errno: 'ECONNREFUSED' });
  });

  it('reports a non-SOAP error answer as SoapHttpError', async () => {
    const err = await client({ baseUrl: `${s.baseUrl}/elsewhere` })
      .Verify3DSecureMerchant(verify, undefined)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SoapHttpError);
    expect(err).toMatchObject({ status: 404 });
  });

  it.each([
    [401, {}, undefined],
    [415, {}, undefined],
    [503, { 'retry-after': '7' }, 7],
  ])('reports an empty %i as SoapHttpError with Retry-After', async (status, headers, retryAfter) => {
    const fetch = async () => new Response(null, { status, headers });
    const err = await client({ fetch })
      .GetMerchantInfo(verify, undefined)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SoapHttpError);
    expect(err).toMatchObject({ status, retryAfter });
  });

  it('reads a SOAP 1.2 fault with a Subcode, several Reason texts and any prefix', async () => {
    const body =
      '<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Body><e:Fault>' +
      '<e:Code><e:Value>e:Receiver</e:Value><e:Subcode><e:Value xmlns:p="urn:p">p:Busy</e:Value></e:Subcode></e:Code>' +
      '<e:Reason><e:Text xml:lang="fr">Occupé</e:Text><e:Text xml:lang="en-US">Busy</e:Text></e:Reason>' +
      '<e:Detail><x:ErrorCode xmlns:x="urn:x"> rate_limited </x:ErrorCode></e:Detail></e:Fault></e:Body></e:Envelope>';
    const fetch = async () =>
      new Response(body, { status: 500, headers: { 'content-type': 'application/soap+xml' } });
    const err = await client({ fetch, soapVersion: '1.2' })
      .GetMerchantInfo(verify)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'Server',
      subcode: 'Busy',
      faultstring: 'Busy',
      errorCode: 'rate_limited',
    });
  });

  it('reports a 200 answer that breaks the contract as SoapContractError', async () => {
    const fetch = async () => new Response('<html>hello</html>', { status: 200 });
    const err = await client({ fetch })
      .GetMerchantInfo(verify, undefined)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'SoapContractError', direction: 'response' });
  });

  it('never puts parameter values into its errors', async () => {
    const card = '4111 1111 1111 1111';
    const sent: string[] = [];
    const fetch = async (_url: unknown, init?: RequestInit) => {
      sent.push(String(init?.body));
      return new Response('', { status: 400 });
    };
    const params = { paymentProfileRequest: { CustomerId: '1', MerchantId: '2', CardNumber: card } };
    const bad = await client({ fetch })
      .CreatePaymentProfile(params as never, undefined)
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(SoapContractError);
    expect(bad).toMatchObject({ direction: 'request', path: 'paymentProfileRequest/CardNumber' });
    expect(sent).toEqual([]);
    const cvv = { request: { ...(sampleParams(operations[0], 'full').request as object), CVV2: '987' } };
    const http = await client({ fetch })
      .ProcessTransaction(cvv as never, undefined)
      .catch((e: unknown) => e);
    expect(http).toBeInstanceOf(SoapHttpError);
    for (const e of [bad, http] as Error[]) {
      expect(`${e.message} ${e.stack} ${JSON.stringify(e)}`).not.toMatch(/4111|987/);
    }
  });
});
