/**
 * deploy/nginx/payframe.conf, run for real: nginx with that file (test ports, a self-signed
 * certificate made here with openssl) in front of a real Payframe server listening on 127.0.0.1.
 * Checks TLS termination (/healthz over https), HSTS, the http → https redirect, that the client's
 * address reaches Payframe through X-Forwarded-For (and a forged one does not), that Payframe sees
 * the original protocol and host (its WSDL names https://…), that /metrics is not served, and
 * that Payframe's compressed answers reach the client.
 *
 * The client connects from 127.0.0.3 to nginx on 127.0.0.2, so the address Payframe logs can only
 * have come from the forwarded header (nginx itself connects from 127.0.0.1).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { createLogger } from '../../server/logger.ts';
import { type RunningServer, startServer } from '../../server/server.ts';
import { tempDir } from '../kit/databases.ts';
import { freePort } from '../kit/net.ts';
import { describeWithTools, NGINX, nginx as nginxTool, openssl } from '../kit/tools.ts';

const CONF = fileURLToPath(new URL('../../deploy/nginx/payframe.conf', import.meta.url));
const HOST = 'pay.example.com';
const NGINX_IP = '127.0.0.2';
const CLIENT_IP = '127.0.0.3';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function waitForPort(port: number, host: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = net.connect(port, host, () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`nothing listens on ${host}:${port}`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/** Replaces `from` (which must occur) in the shipped file, so a change of its shape fails here. */
function replaceAll(text: string, from: string | RegExp, to: string): string {
  const found = typeof from === 'string' ? text.includes(from) : from.test(text);
  if (!found) throw new Error(`deploy/nginx/payframe.conf no longer contains ${String(from)}`);
  return typeof from === 'string' ? text.split(from).join(to) : text.replace(from, to);
}

describeWithTools([nginxTool, openssl], 'nginx in front of Payframe', () => {
  let dir: string;
  let server: RunningServer;
  let nginx: ChildProcess | undefined;
  let cert: Buffer;
  let httpPort: number;
  let httpsPort: number;
  const logLines: string[] = [];

  const request = (
    scheme: 'http' | 'https',
    urlPath: string,
    headers: Record<string, string> = {},
  ): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const options = {
        host: NGINX_IP,
        port: scheme === 'https' ? httpsPort : httpPort,
        path: urlPath,
        localAddress: CLIENT_IP,
        headers: { host: HOST, ...headers },
        ...(scheme === 'https' ? { ca: cert, servername: HOST } : {}),
      };
      const req = (scheme === 'https' ? https : http).request(options, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });

  beforeAll(async () => {
    dir = tempDir('payframe-nginx-');
    // A certificate for the test host, made the way docs/deployment.md says for a staging box.
    execFileSync('openssl', [
        'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
        '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-days', '1',
        '-subj', `/CN=${HOST}`, '-addext', `subjectAltName=DNS:${HOST}`,
      ], { stdio: 'ignore' }); // prettier-ignore
    cert = fs.readFileSync(path.join(dir, 'cert.pem'));

    const config = loadConfig({
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: path.join(dir, 'data'),
      LOG_LEVEL: 'info',
      TRUST_PROXY: '127.0.0.1',
      PUBLIC_URL: `https://${HOST}`,
    });
    const logger = createLogger({ level: 'info', destination: { write: (l: string) => logLines.push(l) } });
    server = await startServer(config, logger);
    const appPort = Number(new URL(server.url).port);

    httpPort = await freePort(NGINX_IP);
    httpsPort = await freePort(NGINX_IP);
    let site = fs.readFileSync(CONF, 'utf8');
    site = replaceAll(site, 'server 127.0.0.1:3000', `server 127.0.0.1:${appPort}`);
    site = replaceAll(site, /^\s*listen \[::\].*\n/gm, '');
    site = replaceAll(site, 'listen 80;', `listen ${NGINX_IP}:${httpPort};`);
    site = replaceAll(site, 'listen 443 ssl', `listen ${NGINX_IP}:${httpsPort} ssl`);
    site = replaceAll(site, `/etc/letsencrypt/live/${HOST}/fullchain.pem`, path.join(dir, 'cert.pem'));
    site = replaceAll(site, `/etc/letsencrypt/live/${HOST}/privkey.pem`, path.join(dir, 'key.pem'));
    fs.writeFileSync(path.join(dir, 'payframe.conf'), site);
    const root = process.getuid?.() === 0;
    fs.writeFileSync(
      path.join(dir, 'nginx.conf'),
      [
        // As root, nginx's workers would run as nobody, who cannot enter the test's private directory.
        root ? 'user root;' : '',
        'worker_processes 1;',
        `pid ${dir}/nginx.pid;`,
        `error_log ${dir}/error.log warn;`,
        'events { worker_connections 64; }',
        'http {',
        `  access_log ${dir}/access.log;`,
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/${t};`),
        `  include ${dir}/payframe.conf;`,
        '}',
      ].join('\n'),
    );
    const conf = path.join(dir, 'nginx.conf');
    execFileSync(NGINX, ['-t', '-q', '-p', dir, '-c', conf, '-e', `${dir}/error.log`], { stdio: 'pipe' });
    nginx = spawn(NGINX, ['-p', dir, '-c', conf, '-e', `${dir}/error.log`, '-g', 'daemon off;'], {
      stdio: 'ignore',
    });
    await waitForPort(httpsPort, NGINX_IP);
  });

  afterAll(async () => {
    if (nginx?.pid && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx!.once('exit', resolve));
      nginx.kill('SIGQUIT'); // graceful stop
      await exited;
    }
    await server?.close();
  });

  it('terminates TLS: /healthz over https answers 200, with HSTS', async () => {
    const res = await request('https', '/healthz');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ status: 'ok' });
    expect(res.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
    // nginx's $request_id reached Payframe and came back.
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
  });

  it("passes the client's address in X-Forwarded-For, and a forged one does not get through", async () => {
    const res = await request('https', '/livez', { 'x-forwarded-for': '198.51.100.66' });
    expect(res.status).toBe(200);
    const id = res.headers['x-request-id'];
    const line = logLines.map((l) => JSON.parse(l)).find((l) => l.reqId === id && l.req);
    expect(line?.req?.remoteAddress).toBe(CLIENT_IP);
    expect(logLines.join('\n')).not.toContain('198.51.100.66');
  });

  it('passes the original protocol and host: the WSDL names the https address', async () => {
    const res = await request('https', '/TransactionService.asmx?WSDL');
    expect(res.status).toBe(200);
    expect(res.body).toContain(`location="https://${HOST}/TransactionService.asmx"`);
  });

  it('redirects http to https, keeping the path and query', async () => {
    const res = await request('http', '/pay/abc?lang=en');
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe(`https://${HOST}/pay/abc?lang=en`);
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('passes Payframe’s compressed answers through as the client accepts them', async () => {
    const api = await request('https', '/v1/openapi.json', { 'accept-encoding': 'gzip, br' });
    expect(api.status).toBe(200);
    expect(api.headers['content-encoding']).toBe('br');
    expect(api.headers.vary).toMatch(/accept-encoding/i);
    const loader = await request('https', '/checkout.js', { 'accept-encoding': 'gzip' });
    expect(loader.status).toBe(200);
    expect(loader.headers['content-encoding']).toBe('gzip');
    const plain = await request('https', '/v1/openapi.json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body)).toMatchObject({ openapi: expect.stringMatching(/^3\.1/) });
  });

  it('does not serve /metrics to the public', async () => {
    const res = await request('https', '/metrics');
    expect(res.status).toBe(404);
    expect(res.body).not.toContain('payframe_');
  });
});
