/**
 * The Transaction Service at `/TransactionService.asmx` (spec "Endpoints"; asmx-compatibility.md):
 * SOAP 1.1 and 1.2 by POST, HTTP GET and POST per operation, `?WSDL`, and the help pages. This
 * plugin owns its XML handling in its own scope: request bodies reach the bindings as raw bytes.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Operation } from '../../shared/contract/index.ts';
import type { TransactionService } from '../../shared/contract/service.ts';
import type { CallContext } from './call-context.ts';
import { type AuthenticateBeforeReading, beforeReading, type Prepared } from './before-reading.ts';
import { renderOperationHelp, renderServiceHelp } from './help-page.ts';
import { createHttpHandler } from './http-binding.ts';
import { createSoapHandler } from './soap-binding.ts';
import { renderWsdl } from './wsdl.ts';
import { escapeAttr } from './xml-escape.ts';
import { WWW_AUTHENTICATE } from './fault-mapping.ts';
import { allOperations, servedOperations } from './served-operations.ts';

export const SERVICE_NAME = 'TransactionService';
export const SERVICE_PATH = '/TransactionService.asmx';

export interface TransactionServicePluginOptions {
  service: TransactionService<CallContext>;
  namespace: string;
  /** HTTP GET and POST bindings (ASMX has them off by default; Payframe on, DESIGN.md §2). */
  httpBindings: boolean;
  /**
   * Whether the HTTP GET binding also serves operations that change state, as ASMX does
   * (`SOAP_HTTP_GET_CHANGES`); by default they answer 405 with `Allow: POST` (shared/contract/effects.ts).
   */
  httpGetChanges?: boolean;
  /**
   * Checks the credential from the headers, before the body is read (issue 13 §14; the gateway's
   * pre-auth.ts). Unset (a test's stand-in service): the service checks it itself.
   */
  authenticate?: AuthenticateBeforeReading;
  /**
   * The operations served, in contract order: all of them by default; `specOperations` for a
   * service that speaks only the spec (`serve --role gateway --spec-only`, served-operations.ts).
   * Any other is unknown to the WSDL, the help pages and the bindings.
   */
  operations?: readonly Operation[];
}

/** The help pages carry ASMX's inline style block and no script at all. */
const HELP_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

function isLocal(ip: string): boolean {
  return ip === '127.0.0.1' || ip === '::1' || ip === '::ffff:127.0.0.1';
}

function serviceUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}${SERVICE_PATH}`;
}

/** The query's first key, case-insensitively ASMX's `?WSDL`, `?disco`, `?op=`. */
function queryKey(request: FastifyRequest, name: string): string | undefined {
  const q = request.url.indexOf('?');
  if (q < 0) return undefined;
  for (const [k, v] of new URLSearchParams(request.url.slice(q + 1))) {
    if (k.toLowerCase() === name) return v;
  }
  return undefined;
}

export async function transactionServicePlugin(app: FastifyInstance, opts: TransactionServicePluginOptions) {
  const { namespace, httpBindings } = opts;
  const httpGetChanges = opts.httpGetChanges ?? false;
  const served = opts.operations ? servedOperations(opts.operations) : allOperations;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  // The credential is checked before the body is read; the call's context is made then, once.
  const prepared = new WeakMap<FastifyRequest, Prepared>();
  const before = beforeReading({ ...opts, served }, prepared, httpGetChanges);
  const preparedOf = (request: FastifyRequest) => prepared.get(request);
  const soap = createSoapHandler({ ...opts, served, preparedOf });
  const http = createHttpHandler({ ...opts, served, preparedOf });
  // A body Fastify could not read (too large, a broken length): 401 when no credential could have
  // allowed the call (no operation was named), as when it could not be parsed.
  const errorHandler = async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (prepared.get(request)?.before === 'unnamed' && (error.statusCode ?? 500) < 500)
      return reply
        .code(401)
        .header('www-authenticate', WWW_AUTHENTICATE)
        .type('text/plain; charset=utf-8')
        .send('');
    throw error;
  };

  app.post(SERVICE_PATH, { preParsing: before.soap, errorHandler }, soap);
  // ASMX: the SOAP protocol is POST only; other verbs get 405 "Request format is unrecognized."
  app.route({
    method: ['PUT', 'DELETE', 'PATCH'],
    url: SERVICE_PATH,
    handler: async (_request, reply) =>
      reply
        .code(405)
        .header('allow', 'GET, POST')
        .type('text/plain; charset=utf-8')
        .send('Request format is unrecognized.\n'),
  });

  app.get(SERVICE_PATH, async (request: FastifyRequest, reply: FastifyReply) => {
    if (queryKey(request, 'wsdl') !== undefined) {
      return reply.type('text/xml; charset=utf-8').send(
        renderWsdl(
          {
            serviceName: SERVICE_NAME,
            namespace,
            location: serviceUrl(request),
            httpBindings,
            httpGetChanges,
          },
          served.list,
        ),
      );
    }
    if (queryKey(request, 'disco') !== undefined) {
      const url = escapeAttr(serviceUrl(request));
      return reply
        .type('text/xml; charset=utf-8')
        .send(
          `<?xml version="1.0" encoding="utf-8"?>\n<discovery xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://schemas.xmlsoap.org/disco/">\n  <contractRef ref="${url}?wsdl" docRef="${url}" xmlns="http://schemas.xmlsoap.org/disco/scl/" />\n</discovery>`,
        );
    }
    const help = {
      serviceName: SERVICE_NAME,
      namespace,
      path: SERVICE_PATH,
      host: request.host,
      httpBindings,
      httpGetChanges,
      local: isLocal(request.ip),
    };
    const opName = queryKey(request, 'op');
    // An operation not served is shown as ASMX shows an unknown `?op=`: the service page.
    const op = opName === undefined ? undefined : served.find(opName);
    reply.header('content-security-policy', HELP_CSP).type('text/html; charset=utf-8');
    return reply.send(
      op ? renderOperationHelp({ ...help, operation: op }) : renderServiceHelp(help, served.list),
    );
  });

  if (httpBindings) {
    app.get<{ Params: { op: string } }>(`${SERVICE_PATH}/:op`, { preParsing: before.http }, http);
    app.post<{ Params: { op: string } }>(
      `${SERVICE_PATH}/:op`,
      { preParsing: before.http, errorHandler },
      http,
    );
  } else {
    const disabled = async (request: FastifyRequest<{ Params: { op: string } }>, reply: FastifyReply) =>
      reply
        .code(500)
        .type('text/plain; charset=utf-8')
        .send(`Request format is unrecognized for URL unexpectedly ending in '/${request.params.op}'.\n`);
    app.get(`${SERVICE_PATH}/:op`, disabled);
    app.post(`${SERVICE_PATH}/:op`, disabled);
  }
}
