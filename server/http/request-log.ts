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
 *
 * A request that ends without an error, at a level that writes `info`, has its line written as text
 * straight to the log's stream (which still scrubs card numbers, server/logger.ts): the same JSON
 * pino would write — its fields hold no secret a key would name, and their values are the
 * client's, quoted by JSON.stringify — without pino's call, its formatters, the redaction walk and
 * the serializers (≈3× cheaper a line; issue 18 §2). Anything else goes through pino.
 */
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino from 'pino';

const INFO = 30;

interface LineStream {
  write(line: string): unknown;
}

/** The app logger's stream and level table, when it is a pino logger. */
function pinoParts(log: unknown): { stream: LineStream; levels: Record<string, number> } | undefined {
  const l = log as Record<symbol, unknown> & { levels?: { values?: Record<string, number> } };
  const stream = l[pino.symbols.streamSym] as LineStream | undefined;
  const levels = l.levels?.values;
  return stream && typeof stream.write === 'function' && levels ? { stream, levels } : undefined;
}

/**
 * The line pino writes for `{ req, res, responseTime }` under Fastify's serializers and
 * server/logger.ts's options (ISO time, the pid, responseTime to the microsecond); undefined when a
 * value is not what that line expects.
 */
export function requestCompletedLine(request: FastifyRequest, reply: FastifyReply): string | undefined {
  const { method, url, host, ip, id } = request;
  const port = request.socket?.remotePort;
  const version = request.headers['accept-version'];
  const time = reply.elapsedTime;
  if (
    typeof url !== 'string' ||
    typeof host !== 'string' ||
    typeof ip !== 'string' ||
    (typeof id !== 'string' && typeof id !== 'number') ||
    (port !== undefined && typeof port !== 'number') ||
    (version !== undefined && typeof version !== 'string') ||
    !Number.isFinite(time)
  ) {
    return undefined;
  }
  return (
    `{"level":${INFO},"time":"${new Date().toISOString()}","pid":${process.pid},"reqId":${JSON.stringify(id)}` +
    `,"req":{"method":${JSON.stringify(method)},"url":${JSON.stringify(url)}` +
    (version === undefined ? '' : `,"version":${JSON.stringify(version)}`) +
    `,"host":${JSON.stringify(host)},"remoteAddress":${JSON.stringify(ip)}` +
    (port === undefined ? '' : `,"remotePort":${port}`) +
    `},"res":{"statusCode":${reply.statusCode}},"responseTime":${Math.round(time * 1000) / 1000}` +
    `,"msg":"request completed"}\n`
  );
}

export class OneLineRequestLog extends LogController {
  readonly #asText: boolean;

  /** `asText: false` writes every line through pino (request-logger.test.ts compares the two). */
  constructor(options: { asText?: boolean } = {}) {
    super();
    this.#asText = options.asText ?? true;
  }

  override incomingRequest(): void {
    // Written with the answer, in requestCompleted.
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    if (!error && this.#asText) {
      const parts = pinoParts(request.server.log);
      const level = parts?.levels[request.log.level];
      if (parts && level !== undefined) {
        if (level > INFO) return;
        const text = requestCompletedLine(request, reply);
        if (text !== undefined) {
          parts.stream.write(text);
          return;
        }
      }
    }
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
