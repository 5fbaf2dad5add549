/**
 * Headers every response carries (security-requirements.md HDR-1, CJ-1), and the request id that
 * ties a response to its log lines. Routes that serve pages meant to be framed (the widget) set
 * their own `frame-ancestors` first. One synchronous hook: it runs on every response.
 *
 * Pages (HTML) also get `Cross-Origin-Opener-Policy: same-origin` (issue 13 §10): a page another
 * site opened in a window cannot reach into the payment page, nor it into that site's. The browser
 * applies it to top-level pages only, so the widget's iframe (the hosted page with `?embed=1`, the
 * 3-D Secure challenge inside it) is unaffected, and neither opens a window or talks to an opener.
 * A page whose CSP reports to Payframe (`report-to csp`) gets the `Reporting-Endpoints` that names
 * the group (csp-reports.ts).
 */
import type { FastifyInstance } from 'fastify';
import { CSP_REPORT_GROUP, REPORTING_ENDPOINTS } from './csp-reports.ts';

const REPORTS_TO_PAYFRAME = new RegExp(`(?:^|;)\\s*report-to ${CSP_REPORT_GROUP}\\s*(?:;|$)`);

export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    const csp = reply.getHeader('content-security-policy');
    if (csp === undefined) {
      reply.header('content-security-policy', "frame-ancestors 'none'");
    } else if (typeof csp === 'string' && REPORTS_TO_PAYFRAME.test(csp)) {
      reply.header('reporting-endpoints', REPORTING_ENDPOINTS);
    }
    const type = reply.getHeader('content-type');
    if (
      typeof type === 'string' &&
      type.startsWith('text/html') &&
      !reply.hasHeader('cross-origin-opener-policy')
    ) {
      reply.header('cross-origin-opener-policy', 'same-origin');
    }
    done(null, payload);
  });
}
