/**
 * Headers every response carries (security-requirements.md HDR-1, CJ-1). Routes that serve pages
 * meant to be framed (the widget) replace `frame-ancestors` with the merchant's origins.
 */
import type { FastifyInstance } from 'fastify';

export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    if (!reply.hasHeader('content-security-policy')) {
      reply.header('content-security-policy', "frame-ancestors 'none'");
    }
  });
}
