/**
 * SOAP 1.1 and 1.2 on `POST /TransactionService.asmx` (asmx-compatibility.md §1.2–1.3): wrong
 * content type → 415, XML that is not well formed → 400, both with an empty body; everything else
 * that goes wrong is a fault in the request's SOAP version.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TransactionService } from '../../shared/contract/service.ts';
import { type CallContext, relayOf } from './call-context.ts';
import { decodeSoapParams, encodeSoapResponse } from './codec/messages.ts';
import type { AuthenticateBeforeReading, Prepared } from './before-reading.ts';
import { faultFromError, WWW_AUTHENTICATE } from './fault-mapping.ts';
import { contentTypeOf, renderFault, type SoapVersion } from './soap-fault.ts';
import {
  checkMustUnderstand,
  isSoapContentType,
  openEnvelope,
  parseContentType,
  routeRequest,
  soapActionOf,
} from './soap-request.ts';
import type { ServedOperations } from './served-operations.ts';
import { operationSoapAction } from './wsdl.ts';
import { decodeBytes, readXml, XmlReadError } from './xml/index.ts';

export interface SoapBindingOptions {
  service: TransactionService<CallContext>;
  namespace: string;
  /** The operations this service serves (served-operations.ts); any other is routed as unknown. */
  served: ServedOperations;
  /** What was decided before the body was read (before-reading.ts), when a check is configured. */
  preparedOf?: (request: FastifyRequest) => Prepared | undefined;
  /** The same check, for an operation only the Body names (before-reading.ts). */
  authenticate?: AuthenticateBeforeReading;
}

/** 401 with the Basic challenge and an empty body (the transport's answer, as IIS gives it). */
function unauthorized(reply: FastifyReply) {
  return reply
    .code(401)
    .header('www-authenticate', WWW_AUTHENTICATE)
    .type('text/plain; charset=utf-8')
    .send('');
}

export function createSoapHandler({
  service,
  namespace,
  served,
  preparedOf,
  authenticate,
}: SoapBindingOptions) {
  const byAction = new Map(served.list.map((op) => [operationSoapAction(namespace, op.name), op]));
  const routeByAction = (action: string) => byAction.get(action);
  const routeByElement = (local: string) => served.find(local);

  return async function soapHandler(request: FastifyRequest, reply: FastifyReply) {
    const ct = parseContentType(request.headers['content-type']);
    const soapAction = soapActionOf(request.headers.soapaction);
    // ASMX guesses SOAP 1.2 when SOAPAction is absent or the type is application/soap+xml.
    let version: SoapVersion = soapAction === undefined || ct.base === 'application/soap+xml' ? '1.2' : '1.1';
    const prepared = preparedOf?.(request);
    // No credential, and no operation named before the body: a body that cannot be read could not
    // have been a public operation's, so the answer is the 401 (issue 13 §14).
    const unnamed = prepared?.before === 'unnamed';
    if (!isSoapContentType(ct)) {
      if (unnamed) return unauthorized(reply);
      return reply.code(415).type(contentTypeOf(version)).send('');
    }
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    let root: ReturnType<typeof readXml>;
    try {
      root = readXml(decodeBytes(raw, request.headers['content-type']));
    } catch (err) {
      if (err instanceof XmlReadError) {
        request.log.info({ reason: err.reason }, 'SOAP request is not well-formed XML');
        if (unnamed) return unauthorized(reply);
        return reply.code(400).type(contentTypeOf(version)).send('');
      }
      throw err;
    }

    let routed: string | undefined;
    try {
      const message = openEnvelope(root);
      version = message.version;
      checkMustUnderstand(message);
      const route = routeRequest(message, soapAction, ct.action, namespace, routeByAction, routeByElement);
      if (route.mismatched) {
        request.log.warn(
          { operation: route.operation.name },
          'SOAPAction names an operation the Body does not carry',
        );
      }
      const op = route.operation;
      routed = op.name;
      const binding = version === '1.1' ? 'soap11' : 'soap12';
      // The context checked before the body was read, now knowing the Envelope's version.
      const context: CallContext = prepared
        ? Object.assign(prepared.context, { binding })
        : {
            binding,
            requestId: request.id,
            remoteAddress: request.ip,
            log: request.log,
            authorization: request.headers.authorization,
            relay: relayOf(request.headers),
          };
      // Named by the Body only, with no credential: a public operation's parameters are read, any
      // other's are not (401 first, as for one named by its headers).
      if (unnamed && authenticate) await authenticate(op.name, context);
      const params = decodeSoapParams(route.wrapper, op, namespace);
      const handler = service[op.name as keyof typeof service] as (
        p: unknown,
        c: CallContext,
      ) => Promise<unknown>;
      const result = await handler.call(service, params, context);
      const xml = encodeSoapResponse(op, result, namespace, version);
      return reply
        .code(200)
        .type(contentTypeOf(version))
        .header('cache-control', 'private, max-age=0')
        .send(xml);
    } catch (err) {
      // No credential and no operation the message could name: it could not have been a public call.
      if (unnamed && routed === undefined) return unauthorized(reply);
      const { fault, status, retryAfter, transport } = faultFromError(err, request.log);
      if (transport) {
        return reply
          .code(transport.status)
          .headers(transport.headers)
          .type('text/plain; charset=utf-8')
          .send('');
      }
      if (retryAfter) reply.header('retry-after', String(retryAfter));
      return reply
        .code(status)
        .type(contentTypeOf(version))
        .send(renderFault(fault, version, namespace));
    }
  };
}
