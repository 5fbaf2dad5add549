/**
 * One log line per request (Fastify's `logController`), written when its answer has been sent:
 * the request (method, URL, host, client address), the answer (status) and the time it took, with
 * the request's `reqId`. Fastify's default writes two lines, one as the request comes in and one as
 * it ends; every line passes redaction and the card-number scrub (server/logger.ts), which cost more
 * than a small SOAP call's own work (issue 18), and the second line says everything the first did.
 * A request that never ends is cut by `requestTimeout` (30 s) and logged then.
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
    if (error) {
      reply.log.error(
        { req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        'request errored',
      );
    } else {
      reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
  }
}
