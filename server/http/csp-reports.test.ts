/**
 * CSP reporting and the opener policy (issue 13 §10; security.md PCI-1161-3, EMB-1): Payframe's
 * pages report violations to `/csp-reports` (report-uri and report-to, with Reporting-Endpoints)
 * and carry `Cross-Origin-Opener-Policy: same-origin`; the endpoint records each report (a log line,
 * a counter per directive), reads both report formats, and is size and rate limited.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutWorld,
  createSession,
  openCheckoutWorld,
} from '../../test/kit/checkout/checkout-world.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { CSP_REPORT_LIMITS, CSP_REPORT_PATH } from './csp-reports.ts';
import { WIDGET_DIST } from './widget-assets.ts';

const built = fs.existsSync(path.join(WIDGET_DIST, 'pay.html'));

const legacy = (
  directive: string,
  blocked = 'https://evil.example/x.js?card=1',
  page = 'https://pay.example/pay/cs_secret',
) => ({
  'csp-report': {
    'document-uri': page,
    'violated-directive': directive,
    'effective-directive': directive,
    'blocked-uri': blocked,
    'original-policy': "default-src 'none'",
    disposition: 'enforce',
    'script-sample': 'var card = "4242424242424242"',
  },
});

describe('CSP reporting and COOP', () => {
  let w: CheckoutWorld;
  let token: string;
  let address = 0;
  const nextAddress = () => `192.0.2.${(address += 1)}`;
  beforeAll(async () => {
    w = await openCheckoutWorld(await databaseTargets()[0]!.open(), { env: { LOG_LEVEL: 'info' } });
    token = await createSession(w);
  });
  afterAll(() => w?.close());

  function report(body: unknown, type = 'application/csp-report', from = nextAddress()) {
    return w.app.inject({
      method: 'POST',
      url: CSP_REPORT_PATH,
      remoteAddress: from,
      headers: { 'content-type': type },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  async function counted(directive: string): Promise<number> {
    const text = (await w.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' })).body;
    const m = new RegExp(`^payframe_csp_violations_total\\{directive="${directive}"\\} (\\d+)$`, 'm').exec(
      text,
    );
    return m ? Number(m[1]) : 0;
  }

  it('the hosted page reports to /csp-reports (report-uri, report-to, Reporting-Endpoints) and is same-origin for openers', async () => {
    for (const url of [`/pay/${token}`, `/pay/${token}?embed=1`]) {
      const res = await w.app.inject(url);
      const csp = res.headers['content-security-policy'] as string;
      expect(csp).toContain(`report-uri ${CSP_REPORT_PATH}`);
      expect(csp).toMatch(/(^|; )report-to csp(;|$)/);
      expect(res.headers['reporting-endpoints']).toBe(`csp="${CSP_REPORT_PATH}"`);
      // Top-level pages only, in the browser: the embed page in the merchant's iframe is unaffected.
      expect(res.headers['cross-origin-opener-policy']).toBe(built ? 'same-origin' : undefined);
    }
    // An API answer is not a page: no opener policy, no reporting group.
    const api = await w.app.inject(`/api/checkout/sessions/${token}`);
    expect(api.headers['cross-origin-opener-policy']).toBeUndefined();
    expect(api.headers['reporting-endpoints']).toBeUndefined();
  });

  it('records a report-uri report: 204, a counter for its directive, a log line without query, token or sample', async () => {
    const before = await counted('script-src-elem');
    const lines = w.t.logLines.length;
    const res = await report(legacy('script-src-elem'));
    expect(res.statusCode).toBe(204);
    expect(await counted('script-src-elem')).toBe(before + 1);
    const logged = w.t.logLines.slice(lines).join('');
    expect(logged).toContain('CSP violation reported');
    expect(logged).toContain('"blocked":"https://evil.example"');
    expect(logged).toContain('"page":"/pay/:token"');
    expect(logged).not.toContain('cs_secret');
    expect(logged).not.toContain('card=1');
    expect(logged).not.toContain('4242');
  });

  it('records Reporting API reports (application/reports+json), each by its directive; unknown ones as other', async () => {
    const img = await counted('img-src');
    const other = await counted('other');
    const res = await report(
      [
        {
          type: 'csp-violation',
          body: {
            effectiveDirective: 'img-src',
            blockedURL: 'https://t.example/p.gif',
            documentURL: 'https://pay.example/pay/cs_x',
            disposition: 'enforce',
          },
        },
        {
          type: 'csp-violation',
          body: {
            effectiveDirective: 'made-up"} 1\nx',
            blockedURL: 'inline',
            documentURL: 'https://pay.example/',
          },
        },
        { type: 'deprecation', body: { id: 'x' } },
      ],
      'application/reports+json',
    );
    expect(res.statusCode).toBe(204);
    expect(await counted('img-src')).toBe(img + 1);
    expect(await counted('other')).toBe(other + 1);
  });

  it(`refuses a body over ${CSP_REPORT_LIMITS.bodyBytes} bytes (413), and reads no other content type (415)`, async () => {
    const big = legacy('script-src', `https://evil.example/${'a'.repeat(CSP_REPORT_LIMITS.bodyBytes)}`);
    expect((await report(big)).statusCode).toBe(413);
    expect((await report(legacy('script-src'), 'text/plain')).statusCode).toBe(415);
    expect((await report('{not json')).statusCode).toBe(400);
  });

  it(`limits reports per address (${CSP_REPORT_LIMITS.perAddress.limit} a minute): 429, nothing counted`, async () => {
    const from = nextAddress();
    for (let i = 0; i < CSP_REPORT_LIMITS.perAddress.limit; i++) {
      expect((await report(legacy('font-src'), undefined, from)).statusCode).toBe(204);
    }
    const before = await counted('font-src');
    const limited = await report(legacy('font-src'), undefined, from);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(await counted('font-src')).toBe(before);
    // Another address is still heard.
    expect((await report(legacy('font-src'))).statusCode).toBe(204);
  });
});
