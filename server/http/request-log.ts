/**
 * One log line per request (Fastify's `logController`), written when its answer has been sent:
 * the request (method, URL, host, client address), the answer (status) and the time it took, with
 * the request's `reqId`. Fastify's default writes two lines, one as the request comes in and one as
 * it ends; every line passes redaction and the card-number scrub (server/logger.ts), which cost more
 * than a small SOAP call's own work (issue 18), and the second line says everything the first did.
 * A request that never ends is cut by `requestTimeout` (30 s) and logged then.
 *
 * The line is given plain objects, not Fastify's request and reply: pino redacts (server/logger.ts,
 * its wildcard paths) the object it is given before the serializers shorten it, and walking a
 * request and a reply costs about five times the whole line (≈500 µs against ≈100 µs here).
 */
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {
    // Written with the answer, in requestCompleted.
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = {
      req: requestView(request),
      res: { statusCode: reply.statusCode },
      responseTime: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * What Fastify's `req` serializer reads of a request (fastify/lib/logger-pino.js), copied into a
 * plain object, so the line reads as Fastify's own: method, URL, version, host, client address and
 * port.
 */
function requestView(request: FastifyRequest) {
  return {
    method: request.method,
    url: request.url,
    headers: { 'accept-version': request.headers['accept-version'] },
    host: request.host,
    ip: request.ip,
    socket: { remotePort: request.socket?.remotePort },
  };
}
