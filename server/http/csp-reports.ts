/**
 * CSP violation reports (security.md PCI-1161-3, EMB-1; issue 13 §10): Payframe's pages name
 * `report-uri /csp-reports` and `report-to csp` (with `Reporting-Endpoints: csp="/csp-reports"`),
 * and this endpoint records what browsers send there — a warning log line with the directive, the
 * blocked resource's origin (or keyword) and the page's path, and the counter
 * `payframe_csp_violations_total{directive}` to alert on.
 *
 * The endpoint is public by nature (any browser, any script can post to it), so it records little
 * and bounded: at most 16 KB a request, 20 reports from one request, 30 requests a minute from one
 * address and 600 from all (429 beyond, nothing read); label values from a fixed list of
 * directives; no URL query, no sample of script text, no session token in what it logs.
 */
import type { FastifyInstance } from 'fastify';
import { Counter, type Registry } from 'prom-client';
import { MemoryRateLimiter, type Rule } from '../checkout/rate-limit.ts';

export const CSP_REPORT_PATH = '/csp-reports';
/** The reporting group Payframe's CSPs name (`report-to csp`). */
export const CSP_REPORT_GROUP = 'csp';
/** The CSP directives that send violations to the endpoint (appended to a page's policy). */
export const CSP_REPORTING_DIRECTIVES = `report-uri ${CSP_REPORT_PATH}; report-to ${CSP_REPORT_GROUP}`;
/** The `Reporting-Endpoints` header that names the group (Reporting API). */
export const REPORTING_ENDPOINTS = `${CSP_REPORT_GROUP}="${CSP_REPORT_PATH}"`;

export const CSP_REPORT_LIMITS = {
  bodyBytes: 16 * 1024,
  reportsPerRequest: 20,
  perAddress: { limit: 30, windowMs: 60_000 } satisfies Rule,
  global: { limit: 600, windowMs: 60_000 } satisfies Rule,
};

/** Directive names a report may carry as a label; anything else is counted as `other`. */
const DIRECTIVES = new Set([
  'default-src',
  'script-src',
  'script-src-elem',
  'script-src-attr',
  'style-src',
  'style-src-elem',
  'style-src-attr',
  'img-src',
  'connect-src',
  'font-src',
  'frame-src',
  'child-src',
  'worker-src',
  'manifest-src',
  'media-src',
  'object-src',
  'base-uri',
  'form-action',
  'frame-ancestors',
  'navigate-to',
  'require-trusted-types-for',
  'trusted-types',
]);

/** One violation as this server keeps it: bounded, no query strings, no tokens. */
export interface CspViolation {
  directive: string;
  /** The blocked resource's origin, or a keyword the browser used (`inline`, `eval`, `data`, …). */
  blocked: string;
  /** The page's path, checkout-session tokens replaced. */
  page: string;
  disposition: 'enforce' | 'report';
}

const text = (v: unknown, max = 2048): string => (typeof v === 'string' ? v.slice(0, max) : '');

function directiveOf(value: string): string {
  const name = value.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  return DIRECTIVES.has(name) ? name : 'other';
}

function blockedOf(value: string): string {
  if (value === '') return 'none';
  if (/^[a-z-]+$/i.test(value)) return value.toLowerCase().slice(0, 20); // inline, eval, self, data…
  try {
    const url = new URL(value);
    return url.origin === 'null' ? url.protocol.replace(/:$/, '') : url.origin;
  } catch {
    return 'invalid';
  }
}

function pageOf(value: string): string {
  try {
    return new URL(value).pathname.replace(/cs_[A-Za-z0-9_-]+/g, ':token').slice(0, 200);
  } catch {
    return 'invalid';
  }
}

/** The violations in a body of either format; at most `reportsPerRequest`. */
export function violationsOf(body: unknown): CspViolation[] {
  const raw: Record<string, unknown>[] = [];
  if (Array.isArray(body)) {
    // Reporting API (application/reports+json): [{type: 'csp-violation', body: {…}}, …]
    for (const r of body.slice(0, CSP_REPORT_LIMITS.reportsPerRequest)) {
      const report = r as { type?: unknown; body?: unknown };
      if (report?.type === 'csp-violation' && report.body && typeof report.body === 'object') {
        const b = report.body as Record<string, unknown>;
        raw.push({
          directive: b.effectiveDirective,
          blocked: b.blockedURL,
          page: b.documentURL,
          disposition: b.disposition,
        });
      }
    }
  } else if (body && typeof body === 'object' && 'csp-report' in body) {
    // report-uri (application/csp-report): {"csp-report": {…}}
    const b = (body as { 'csp-report': unknown })['csp-report'];
    if (b && typeof b === 'object') {
      const r = b as Record<string, unknown>;
      raw.push({
        directive: r['effective-directive'] ?? r['violated-directive'],
        blocked: r['blocked-uri'],
        page: r['document-uri'],
        disposition: r['disposition'],
      });
    }
  }
  return raw.map((r) => ({
    directive: directiveOf(text(r.directive)),
    blocked: blockedOf(text(r.blocked)),
    page: pageOf(text(r.page)),
    disposition: r.disposition === 'report' ? 'report' : 'enforce',
  }));
}

export async function cspReportRoutes(app: FastifyInstance, options: { registry: Registry }): Promise<void> {
  const violations = new Counter({
    name: 'payframe_csp_violations_total',
    help: 'CSP violation reports received from browsers, by directive (a fixed list; `other` for the rest).',
    labelNames: ['directive'] as const,
    registers: [options.registry],
  });
  const limiter = new MemoryRateLimiter();

  // This scope reads only the report formats, as JSON, and only this small.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    ['application/csp-report', 'application/reports+json', 'application/json'],
    { parseAs: 'string', bodyLimit: CSP_REPORT_LIMITS.bodyBytes },
    (_request, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch {
        const err = new Error('The report is not JSON.') as Error & { statusCode: number };
        err.statusCode = 400;
        done(err, undefined);
      }
    },
  );

  // Limits before the body is read: a flood costs a counter, not a parse.
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.url !== CSP_REPORT_PATH) return;
    const now = new Date();
    const wait = Math.max(
      limiter.hit(`csp:ip:${request.ip}`, CSP_REPORT_LIMITS.perAddress, now),
      limiter.hit('csp:all', CSP_REPORT_LIMITS.global, now),
    );
    if (wait > 0) return reply.code(429).header('retry-after', String(wait)).send();
  });

  app.post(CSP_REPORT_PATH, async (request, reply) => {
    for (const v of violationsOf(request.body)) {
      violations.inc({ directive: v.directive });
      request.log.warn({ cspViolation: v }, 'CSP violation reported');
    }
    return reply.code(204).header('cache-control', 'no-store').send();
  });
}
