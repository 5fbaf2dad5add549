/**
 * Oversized SOAP bodies (asmx-compatibility.md §2 row 9) over a real socket: a chunked body with no
 * Content-Length is cut off at the body limit with 413 before any parsing, as one with a
 * Content-Length is (server/soap/attacks.test.ts); and a client that sends slowly is bounded by the
 * server's request and header timeouts (checked on the listening server: waiting them out would
 * take half a minute).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RecordingService, recordingService } from '../../test/kit/soap/recording-service.ts';
import { buildTestApp, type TestApp } from '../../test/kit/app.ts';
import { databaseTargets } from '../../test/kit/databases.ts';

const NS = 'http://tempuri.org/';
const S11 = 'http://schemas.xmlsoap.org/soap/envelope/';

let t: TestApp;
let rec: RecordingService;
let port: number;
beforeAll(async () => {
  rec = recordingService();
  const db = await databaseTargets()[0]!.open();
  t = await buildTestApp(db, { LOG_LEVEL: 'warn' }, { closeDatabase: true, transactionService: rec.service });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

/** POSTs `chunks` with Transfer-Encoding: chunked; answers the status (or the socket's end). */
function postChunked(chunks: Iterable<string>): Promise<{ status: number; sent: number }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/TransactionService.asmx',
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NS}GetMerchantDetails"` },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, sent }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      // The server may close the connection once it has answered 413; the answer came first.
      if (err.code === 'EPIPE' || err.code === 'ECONNRESET') return;
      reject(err);
    });
    (async () => {
      for (const chunk of chunks) {
        if (req.destroyed) break;
        sent += chunk.length;
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
      }
      req.end();
    })().catch(reject);
  });
}

describe('SOAP body limits on a real socket (xml row 9)', () => {
  it('xml row 9: a chunked body without Content-Length over the limit is 413, never parsed', async () => {
    const limit = t.config.bodyLimit;
    function* body() {
      yield `<soap:Envelope xmlns:soap="${S11}"><soap:Body><GetMerchantDetails xmlns="${NS}"><merchantId>`;
      for (let i = 0; i < Math.ceil((limit * 2) / 65_536); i += 1) yield 'x'.repeat(65_536);
      yield '</merchantId></GetMerchantDetails></soap:Body></soap:Envelope>';
    }
    const { status } = await postChunked(body());
    expect(status).toBe(413);
    expect(rec.calls).toHaveLength(0);

    // The control: the same request, small, reaches the operation.
    const small = await postChunked([
      `<soap:Envelope xmlns:soap="${S11}"><soap:Body><GetMerchantDetails xmlns="${NS}">`,
      '<merchantId>1</merchantId></GetMerchantDetails></soap:Body></soap:Envelope>',
    ]);
    expect(small.status).toBe(200);
    expect(rec.calls).toHaveLength(1);
  });

  it('xml row 9: a slow client is bounded by the request and header timeouts of the listening server', () => {
    const server = t.app.server;
    for (const timeout of [server.requestTimeout, server.headersTimeout]) {
      expect(timeout).toBeGreaterThan(0);
      expect(timeout).toBeLessThanOrEqual(60_000);
    }
  });
});
