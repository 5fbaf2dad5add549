import crypto from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { registerErrorHandling } from '../../http/error-handler.ts';
import { databaseTargets } from '../../../test/kit/databases.ts';
import { threeDsRoutes } from './three-ds-routes.ts';
import { ThreeDsService } from './three-ds-service.ts';

const HOST = 'pay.example.test';
const ORIGIN = `http://${HOST}`;
const EVIL_NAME = '<img src=x onerror=alert(1)>';

describe('3-D Secure challenge pages', () => {
  let db: Database;
  // Its own app: the routes under test run on a service whose clock the test moves.
  const t: { app: FastifyInstance } = { app: Fastify() };
  let merchantId: string;
  let clock = new Date();
  const service = new ThreeDsService({ secret: crypto.randomBytes(32), now: () => clock });

  beforeAll(async () => {
    db = await databaseTargets()[0]!.open();
    const { rows } = await db.query<{ id: string }>(
      `insert into merchants (public_code, name, business_name, transaction_key_enc, reader_key_enc)
       values ('m3ds', 'Plain name', $1, 'x', 'x') returning id`,
      [EVIL_NAME],
    );
    merchantId = rows[0]!.id;
    registerErrorHandling(t.app);
    await t.app.register(threeDsRoutes, { db, service });
  });
  afterAll(async () => {
    await t.app.close();
    await db.close();
  });

  const create = () =>
    service.createChallenge(db, {
      merchantId,
      cardFingerprint: 'fp_test',
      amountCents: 123456n,
      checkoutSessionId: null,
    });
  const post = (url: string, outcome: string, headers: Record<string, string> = { origin: ORIGIN }) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { host: HOST, 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: new URLSearchParams({ outcome }).toString(),
    });

  it("may be framed by the checkout inside the merchant's registered pages (every ancestor is checked)", async () => {
    const { rows } = await db.query<{ id: string }>(
      `insert into merchants (public_code, name, transaction_key_enc, reader_key_enc, origins)
       values ('m3ds-embed', 'Embedding shop', 'x', 'x', array['https://shop.example','http://localhost:3001']) returning id`,
    );
    const c = await service.createChallenge(db, {
      merchantId: rows[0]!.id,
      cardFingerprint: 'fp_embed',
      amountCents: 500n,
      checkoutSessionId: null,
    });
    const res = await t.app.inject({ url: c.url, headers: { host: HOST } });
    expect(res.headers['content-security-policy']).toContain(
      "frame-ancestors 'self' https://shop.example http://localhost:3001",
    );
  });

  it('renders the challenge with the amount and the merchant escaped, one script of its own origin, a strict CSP', async () => {
    const c = await create();
    const res = await t.app.inject({ url: c.url, headers: { host: HOST } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const html = res.body;
    expect(html).toContain('<html lang="en" dir="ltr">');
    expect(html).toContain('<title>Payframe test bank — verify this payment</title>');
    expect(html).toContain('USD 1,234.56');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain(EVIL_NAME);
    // One script: the page's height to the framing checkout, posted to the frame ancestors only.
    expect(html.match(/<script\b/gi)).toHaveLength(1);
    expect(html).toContain(
      `<script src="/3ds/size.js" data-targets="[&quot;&#39;self&#39;&quot;]"></script>`,
    );
    expect(html).not.toContain('"*"');
    expect(html).not.toMatch(/<[^>]*\son\w+=/i);
    expect(html).toContain('<button type="submit" name="outcome" value="authenticate">Authenticate</button>');
    expect(html).toMatch(
      /<button type="submit" name="outcome" value="fail"[^>]*>Fail authentication<\/button>/,
    );
    expect(html).toContain(`<form method="post" action="${c.url}">`);

    const csp = String(res.headers['content-security-policy']);
    const directives = new Map(
      csp.split(';').map((d) => {
        const [name = '', ...values] = d.trim().split(/\s+/);
        return [name, values.join(' ')] as const;
      }),
    );
    expect(directives.get('default-src')).toBe("'none'");
    expect(directives.get('frame-ancestors')).toBe("'self'");
    expect(directives.get('form-action')).toBe("'self'");
    expect(directives.get('base-uri')).toBe("'none'");
    const nonce = /^'nonce-([A-Za-z0-9+/=]+)'$/.exec(directives.get('style-src') ?? '')?.[1];
    expect(nonce).toBeTruthy();
    expect(html).toContain(`<style nonce="${nonce}">`);
    expect(directives.get('script-src')).toBe("'self'");
    const script = await t.app.inject({ url: '/3ds/size.js', headers: { host: HOST } });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toContain('parent.postMessage({source:"payframe-3ds",height:n},o)');
    expect(script.body).not.toContain('"*"');
    expect(csp).not.toContain('unsafe-inline');
    // A fresh nonce per response.
    const again = await t.app.inject({ url: c.url, headers: { host: HOST } });
    expect(again.headers['content-security-policy']).not.toBe(csp);
  });

  it('authenticates by form post, shows the values, and serves them as JSON', async () => {
    const c = await create();
    const pending = await t.app.inject(`${c.url}/result.json`);
    expect(pending.json()).toEqual({
      status: 'pending',
      cavv: null,
      eci: null,
      xid: null,
      dsTransactionId: null,
    });

    const res = await post(c.url, 'authenticate');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    const json = await t.app.inject(`${c.url}/result.json`);
    expect(json.statusCode).toBe(200);
    expect(json.headers['cache-control']).toBe('no-store');
    expect(json.headers['content-type']).toContain('application/json');
    const result = json.json();
    expect(result).toMatchObject({
      status: 'authenticated',
      eci: '05',
      xid: c.xid,
      dsTransactionId: c.dsTransactionId,
    });
    expect(Buffer.from(result.cavv, 'base64')).toHaveLength(20);
    expect(res.body).toContain('Payment verified');
    for (const value of [result.cavv, c.xid, c.dsTransactionId]) expect(res.body).toContain(value);
    expect(res.body.match(/<script\b/gi)).toHaveLength(1); // its height, to the framing checkout

    // A second post (double click) shows the same result; a reload shows it too.
    const twice = await post(c.url, 'fail');
    expect(twice.statusCode).toBe(200);
    expect(twice.body).toContain(result.cavv);
    const reload = await t.app.inject({ url: c.url, headers: { host: HOST } });
    expect(reload.body).toContain('Payment verified');
    expect(reload.body).not.toContain('<form');
  });

  it('records a failed authentication', async () => {
    const c = await create();
    const res = await post(c.url, 'fail');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Verification failed');
    expect((await t.app.inject(`${c.url}/result.json`)).json()).toMatchObject({
      status: 'failed',
      cavv: null,
    });
  });

  it('refuses a cross-site post with 403 and leaves the challenge pending', async () => {
    const c = await create();
    for (const origin of ['https://evil.example', 'null', `https://${HOST}`]) {
      const res = await post(c.url, 'authenticate', { origin });
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain('Request refused');
    }
    expect((await t.app.inject(`${c.url}/result.json`)).json().status).toBe('pending');
    // Same origin with its default port spelled out is the same origin.
    expect((await post(c.url, 'authenticate', { origin: `${ORIGIN}:80` })).statusCode).toBe(200);
  });

  it('refuses a missing outcome and a non-form body', async () => {
    const c = await create();
    expect((await post(c.url, 'maybe')).statusCode).toBe(400);
    const asJson = await t.app.inject({
      method: 'POST',
      url: c.url,
      headers: { host: HOST, origin: ORIGIN },
      payload: { outcome: 'authenticate' },
    });
    expect(asJson.statusCode).toBe(415);
    expect((await t.app.inject(`${c.url}/result.json`)).json().status).toBe('pending');
  });

  it('answers 404 for an unknown challenge and 410 for an expired one', async () => {
    const unknown = '/3ds/challenge/AAAAAAAAAAAAAAAAAAAAAAAA';
    for (const res of [
      await t.app.inject(unknown),
      await t.app.inject('/3ds/challenge/%3Cb%3E'),
      await post(unknown, 'authenticate'),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('Verification not found');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    }
    expect((await t.app.inject(`${unknown}/result.json`)).statusCode).toBe(404);

    const c = await create();
    const start = clock;
    clock = new Date(start.getTime() + 11 * 60_000);
    try {
      const page = await t.app.inject(c.url);
      expect(page.statusCode).toBe(410);
      expect(page.body).toContain('This verification has expired');
      expect((await post(c.url, 'authenticate')).statusCode).toBe(410);
      expect((await t.app.inject(`${c.url}/result.json`)).json().status).toBe('expired');
    } finally {
      clock = start;
    }
  });
});
