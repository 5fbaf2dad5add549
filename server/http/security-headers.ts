/**
 * Headers every response carries (security-requirements.md HDR-1, CJ-1), and the request id that
 * ties a response to its log lines. Routes that serve pages meant to be framed (the widget) set
 * their own `frame-ancestors` first. One synchronous hook: it runs on every response.
 */
import type { FastifyInstance } from 'fastify';

export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    if (!reply.hasHeader('content-security-policy')) {
      reply.header('content-security-policy', "frame-ancestors 'none'");
    }
    done(null, payload);
  });
}
