/**
 * Graceful shutdown of a real listening server (server.ts `close`, what SIGTERM runs): a request
 * in flight when the shutdown starts still gets its 200; new connections are refused meanwhile.
 * (/readyz answering 503 while shutting down: health.test.ts.)
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createLogger } from '../logger.ts';
import { type RunningServer, startServer } from '../server.ts';
import { tempDir } from '../../test/kit/databases.ts';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends until it closes the connection. */
function readAll(socket: net.Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('graceful shutdown', () => {
  // A whole server on a new PGlite database (initdb and every migration): a minute on a busy machine.
  it(
    'finishes the request in flight with 200 and refuses new connections',
    { timeout: 120_000 },
    async () => {
      const config = loadConfig({
        NODE_ENV: 'test',
        PAYFRAME_DEMO: '1',
        LOG_LEVEL: 'silent',
        PORT: '0',
        DATA_DIR: tempDir(),
      });
      server = await startServer(config, createLogger({ level: 'silent' }));
      const port = Number(new URL(server.url).port);
      const demo = server.demo!;
      expect(demo).not.toBeNull();

      // A SOAP HTTP POST whose body arrives in two parts: the server has the request, not yet all of it.
      const body = `merchantID=${demo.merchantId}`;
      const auth = Buffer.from(`${demo.merchantId}:${demo.transactionKey}`).toString('base64');
      const slow = await connect(port);
      const answer = readAll(slow);
      slow.write(
        [
          'POST /TransactionService.asmx/GetMerchantInfo HTTP/1.1',
          `Host: 127.0.0.1:${port}`,
          `Authorization: Basic ${auth}`,
          'Content-Type: application/x-www-form-urlencoded',
          `Content-Length: ${body.length}`,
          '',
          body.slice(0, 5),
        ].join('\r\n'),
      );
      await sleep(100);

      const readyBefore = await fetch(`${server.url}/readyz`);
      expect(readyBefore.status).toBe(200);

      const closing = server.close();
      await sleep(100);
      // The listening socket is closed: a new connection is refused.
      await expect(connect(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });

      slow.end(body.slice(5));
      const raw = await answer;
      expect(raw).toMatch(/^HTTP\/1\.1 200 /);
      expect(raw).toContain('<MerchantInfo');
      await closing;
      server = undefined;
    },
  );
});
