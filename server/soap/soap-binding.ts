/**
 * SOAP 1.1 and 1.2 on `POST /TransactionService.asmx` (asmx-compatibility.md §1.2–1.3): wrong
 * content type → 415, XML that is not well formed → 400, both with an empty body; everything else
 * that goes wrong is a fault in the request's SOAP version.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { findOperation, operations } from '../../shared/contract/index.ts';
import type { Operation } from '../../shared/contract/model.ts';
import type { TransactionService } from '../../shared/contract/service.ts';
import { type CallContext, relayOf } from './call-context.ts';
import { decodeSoapParams, encodeSoapResponse } from './codec/messages.ts';
import { faultFromError } from './fault-mapping.ts';
import { contentTypeOf, renderFault, type SoapVersion } from './soap-fault.ts';
import {
  checkMustUnderstand,
  isSoapContentType,
  openEnvelope,
  parseContentType,
  routeRequest,
  soapActionOf,
} from './soap-request.ts';
import { operationSoapAction } from './wsdl.ts';
import { decodeBytes, readXml, XmlReadError } from './xml/index.ts';

export interface SoapBindingOptions {
  service: TransactionService<CallContext>;
  namespace: string;
}

export function createSoapHandler({ service, namespace }: SoapBindingOptions) {
  const byAction = new Map(
    operations.map((op) => [operationSoapAction(namespace, op.name), op as Operation]),
  );
  const routeByAction = (action: string) => byAction.get(action);
  const routeByElement = (local: string) => findOperation(local);

  return async function soapHandler(request: FastifyRequest, reply: FastifyReply) {
    const ct = parseContentType(request.headers['content-type']);
    const soapAction = soapActionOf(request.headers.soapaction);
    // ASMX guesses SOAP 1.2 when SOAPAction is absent or the type is application/soap+xml.
    let version: SoapVersion = soapAction === undefined || ct.base === 'application/soap+xml' ? '1.2' : '1.1';
    if (!isSoapContentType(ct)) {
      return reply.code(415).type(contentTypeOf(version)).send('');
    }
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    let root: ReturnType<typeof readXml>;
    try {
      root = readXml(decodeBytes(raw, request.headers['content-type']));
    } catch (err) {
      if (err instanceof XmlReadError) {
        request.log.info({ reason: err.reason }, 'SOAP request is not well-formed XML');
        return reply.code(400).type(contentTypeOf(version)).send('');
      }
      throw err;
    }

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
      const params = decodeSoapParams(route.wrapper, op, namespace);
      const context: CallContext = {
        binding: version === '1.1' ? 'soap11' : 'soap12',
        requestId: request.id,
        remoteAddress: request.ip,
        log: request.log,
        authorization: request.headers.authorization,
        relay: relayOf(request.headers),
      };
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
