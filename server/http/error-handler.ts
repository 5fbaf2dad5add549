/**
 * The one error handler (STYLE.md anchors: fastify/demo). Catalogue errors keep their code and
 * message; client errors raised by Fastify map to catalogue codes; anything else is a 500 whose
 * details go to the log, never to the client.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { ERRORS, type ErrorBody, type ErrorCode, type FieldError } from '../../shared/errors.ts';
import { isUnavailableError } from '../db/index.ts';
import { noteStorageRefusal } from '../db/storage-refusals.ts';
import { PayframeError } from '../errors.ts';

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/** Seconds a client should wait before retrying when the database is briefly unavailable. */
const RETRY_AFTER_SECONDS = 2;

export function zodFieldErrors(err: ZodError): FieldError[] {
  return err.issues.map((i) => ({
    field: i.path.map(String).join('.'),
    code: i.code,
    message: i.message,
  }));
}

export function sendError(
  reply: FastifyReply,
  code: ErrorCode,
  message: string = ERRORS[code].message,
  fields?: FieldError[],
): FastifyReply {
  const body: ErrorBody = { error: { code, message, requestId: reply.request.id } };
  if (fields?.length) body.error.fields = fields;
  return reply.code(ERRORS[code].status).type('application/json; charset=utf-8').send(body);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof PayframeError) {
      // What lies behind a 5xx of the catalogue (the gateway unreachable, say) is for the log only.
      if (err.status >= 500 && err.cause) request.log.warn({ err: err.cause }, err.code);
      // A wait the error knows (a rate limit's window, a payment's remaining claim) is told as is.
      if (err.retryAfterSeconds !== undefined && !reply.hasHeader('retry-after'))
        reply.header('retry-after', String(err.retryAfterSeconds));
      return sendError(reply, err.code, err.message, err.fields);
    }
    if (err instanceof ZodError) {
      return sendError(reply, 'validation_failed', ERRORS.validation_failed.message, zodFieldErrors(err));
    }
    if (isUnavailableError(err)) {
      noteStorageRefusal(err);
      request.log.warn({ err }, 'database unavailable');
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return sendError(reply, 'database_unavailable');
    }
    const status = err.statusCode ?? 500;
    const mapped = STATUS_CODES[status];
    if (status < 500 && mapped) {
      // Fastify's own client errors (bad JSON, body too large, wrong content type): their messages
      // describe the request, not the server, so they may be shown.
      return sendError(reply, mapped, err.message || ERRORS[mapped].message);
    }
    request.log.error({ err }, 'unhandled error');
    return sendError(reply, 'internal');
  });

  app.setNotFoundHandler((_request, reply) => sendError(reply, 'not_found'));
}
