/**
 * The dashboard's page: one HTML at /dashboard and every path under it but the API, with the hosted
 * page's strict CSP (no inline script, framed by no one) and never cached; a missing build is a 503
 * that says how to build. And the CSV cells, which a spreadsheet must never run.
 */
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from '../http/error-handler.ts';
import { registerSecurityHeaders } from '../http/security-headers.ts';
import { tempDir } from '../../test/kit/databases.ts';
import { dashboardPageRoutes } from './page.ts';
import { csvCell } from './payments-csv.ts';

const HTML =
  '<!doctype html><html lang="en"><title>Payframe dashboard</title><script type="module" src="/assets/dashboard-1.js"></script></html>';

async function pageApp(distDir: string): Promise<FastifyInstance> {
  const app = Fastify();
  registerSecurityHeaders(app);
  registerErrorHandling(app);
  await app.register(dashboardPageRoutes, { distDir });
  return app;
}

describe('the dashboard page', () => {
  let app: FastifyInstance;
  let missing: FastifyInstance;
  beforeAll(async () => {
    const dir = tempDir('payframe-dashboard-page-');
    fs.writeFileSync(path.join(dir, 'dashboard.html'), HTML);
    app = await pageApp(dir);
    missing = await pageApp(tempDir('payframe-dashboard-none-'));
  });
  afterAll(async () => {
    await app.close();
    await missing.close();
  });

  it('answers the one page at /dashboard and its app paths, with a strict CSP and no-store', async () => {
    for (const url of ['/dashboard', '/dashboard/', '/dashboard/payments/123', '/dashboard/payment-links']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toBe(HTML);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      const csp = String(res.headers['content-security-policy']).split('; ');
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'none'");
      expect(csp.join(' ')).not.toContain('unsafe-inline');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    }
  });

  it('leaves the API paths to the API: an unknown one is a JSON 404', async () => {
    for (const url of ['/dashboard/api', '/dashboard/api/nothing-here']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
  });

  it('says how to build when the page is not built', async () => {
    const res = await missing.inject({ method: 'GET', url: '/dashboard' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('CSV cells', () => {
  it('prefixes what a spreadsheet would run as a formula', () => {
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\r=x')).toBe('"\'\r=x"');
  });

  it('quotes commas, quotes and line breaks, and leaves the rest as it is', () => {
    expect(csvCell('Ada, Inc')).toBe('"Ada, Inc"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell('12.34')).toBe('12.34');
    expect(csvCell('')).toBe('');
    expect(csvCell(undefined)).toBe('');
  });
});
