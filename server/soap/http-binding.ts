/**
 * HTTP GET and HTTP POST on `/TransactionService.asmx/<Op>` (asmx-compatibility.md §1.1, §1.5):
 * only for operations whose parameters are all simple; parameters matched by exact name and
 * converted with .NET's Convert.ChangeType rules; errors as 500 text/plain.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ChangeTypeError, convertHttpParam } from '../../shared/contract/index.ts';
import { maskCardNumbers } from '../../shared/card/card-number-in-text.ts';
import { callerText } from '../../shared/contract/caller-text.ts';
import { hasSimpleParams, type Operation } from '../../shared/contract/model.ts';
import type { TransactionService } from '../../shared/contract/service.ts';
import { type CallContext, relayOf } from './call-context.ts';
import { encodeHttpResponse } from './codec/messages.ts';
import type { Prepared } from './before-reading.ts';
import { faultFromError } from './fault-mapping.ts';
import type { ServedOperations } from './served-operations.ts';
import { parseContentType } from './soap-request.ts';

const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** HttpUtility.HtmlEncode, as ASMX encodes its text/plain error bodies. */
function htmlEscape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c] ?? c);
}

function plainError(reply: FastifyReply, message: string, status = 500) {
  return reply
    .code(status)
    .type('text/plain; charset=utf-8')
    .send(`${htmlEscape(maskCardNumbers(message))}\n`);
}

/** The operation for a path segment, or the ASMX error text for one that does not resolve. */
function resolve(served: ServedOperations, name: string): Operation | string {
  const op = served.find(name);
  if (op) {
    return hasSimpleParams(op)
      ? op
      : `Request format is unrecognized for URL unexpectedly ending in '/${callerText(name)}'.`;
  }
  const other = served.findIgnoringCase(name);
  if (other) {
    return `Invalid method name '${callerText(name)}', method names are case sensitive. The method name '${other.name}' with the same name but different casing was found.`;
  }
  return `${callerText(name)} Web Service method name is not valid.`;
}

export interface HttpBindingOptions {
  service: TransactionService<CallContext>;
  namespace: string;
  /** The operations this service serves (served-operations.ts); any other is an unknown name. */
  served: ServedOperations;
  /** What was decided before the body was read (before-reading.ts), when a check is configured. */
  preparedOf?: (request: FastifyRequest) => Prepared | undefined;
}

export function createHttpHandler({ service, namespace, served, preparedOf }: HttpBindingOptions) {
  return async function httpHandler(
    request: FastifyRequest<{ Params: { op: string } }>,
    reply: FastifyReply,
  ) {
    const op = resolve(served, request.params.op);
    if (typeof op === 'string') return plainError(reply, op);

    let values: URLSearchParams;
    if (request.method === 'GET') {
      const q = request.url.indexOf('?');
      values = new URLSearchParams(q < 0 ? '' : request.url.slice(q + 1));
    } else {
      const ct = parseContentType(request.headers['content-type']);
      if (ct.base !== 'application/x-www-form-urlencoded') {
        return plainError(
          reply,
          `Request format is invalid: ${callerText(request.headers['content-type'] ?? '')}.`,
        );
      }
      values = new URLSearchParams(Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '');
    }

    const params: Record<string, unknown> = {};
    for (const p of op.params) {
      const text = values.get(p.name); // exact name; the first of repeated values, as ASMX
      if (text === null) return plainError(reply, `Missing parameter: ${p.name}.`);
      if (p.type.kind !== 'scalar') return plainError(reply, `Request format is invalid: ${op.name}.`);
      try {
        params[p.name] = convertHttpParam(p.type.type, text);
      } catch (err) {
        // ASMX joins the inner exception: "Cannot convert x to System.Int64. ---> Input string was …"
        const inner = err instanceof ChangeTypeError ? ` ---> ${err.innerMessage}` : '';
        return plainError(reply, `${(err as Error).message}${inner}`);
      }
    }

    const context: CallContext = preparedOf?.(request)?.context ?? {
      binding: request.method === 'GET' ? 'httpGet' : 'httpPost',
      requestId: request.id,
      remoteAddress: request.ip,
      log: request.log,
      authorization: request.headers.authorization,
      relay: relayOf(request.headers),
    };
    try {
      const handler = service[op.name as keyof typeof service] as (
        p: unknown,
        c: CallContext,
      ) => Promise<unknown>;
      const result = await handler.call(service, params, context);
      return reply
        .code(200)
        .type('text/xml; charset=utf-8')
        .header('cache-control', 'private, max-age=0')
        .send(encodeHttpResponse(op, result, namespace));
    } catch (err) {
      const { fault, status, retryAfter, transport } = faultFromError(err, request.log);
      if (transport)
        return reply
          .code(transport.status)
          .headers(transport.headers)
          .type('text/plain; charset=utf-8')
          .send('');
      if (retryAfter) reply.header('retry-after', String(retryAfter));
      return plainError(reply, fault.message, status);
    }
  };
}
