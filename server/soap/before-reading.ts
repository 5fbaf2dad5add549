/**
 * What the Transaction Service's routes decide from the headers alone, before the body is read
 * (Fastify's preParsing): which operation the request names, whether its method may call it (the
 * HTTP GET binding serves reads only, by default), and whether its credential is valid. A request
 * refused here never has its body read or parsed: no credential, a wrong one or a throttled address
 * gets the transport's 401/429 whatever the body holds (docs/gateway.md "Authentication").
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { servedOverGet } from '../../shared/contract/effects.ts';
import { findOperation, hasSimpleParams } from '../../shared/contract/index.ts';
import { type Binding, type CallContext, relayOf } from './call-context.ts';
import { faultFromError } from './fault-mapping.ts';
import { contentTypeOf, renderFault, type SoapVersion } from './soap-fault.ts';
import type { ServedOperations } from './served-operations.ts';
import { parseContentType, soapActionOf } from './soap-request.ts';
import { operationSoapAction } from './wsdl.ts';

/** The outcome of the gateway's check (gateway/pre-auth.ts `BeforeReading`). */
export type AuthenticateBeforeReading = (
  operation: string | undefined,
  context: CallContext,
) => Promise<'authenticated' | 'public' | 'unnamed'>;

export interface Prepared {
  /** The call's context, made once: the gateway knows it was checked by this very object. */
  context: CallContext;
  /**
   * `unnamed`: no credential and no operation named by the headers — only the Body can name a
   * public one, and a body that cannot be read answers 401. `unchecked`: no check is configured.
   */
  before: 'authenticated' | 'public' | 'unnamed' | 'unchecked';
}

export interface BeforeReadingOptions {
  namespace: string;
  /** The operations this service serves (served-operations.ts). */
  served: ServedOperations;
  authenticate?: AuthenticateBeforeReading;
}

function contextOf(request: FastifyRequest, binding: Binding): CallContext {
  return {
    binding,
    requestId: request.id,
    remoteAddress: request.ip,
    log: request.log,
    authorization: request.headers.authorization,
    relay: relayOf(request.headers),
  };
}

/** The preParsing hooks of the SOAP route and of the HTTP GET/POST routes. */
export function beforeReading(
  { namespace, served, authenticate }: BeforeReadingOptions,
  prepared: WeakMap<FastifyRequest, Prepared>,
  httpGetChanges: boolean,
) {
  const byAction = new Map<string, string>(
    served.list.map((op) => [operationSoapAction(namespace, op.name), op.name]),
  );
  /**
   * A name as the check is told it: the name of an operation of the contract this service does not
   * serve (an extension, on a spec-only service) is told as no name at all (`''`), so that it is
   * checked as an unknown name is — never a public operation's — and answers as one (issue 20).
   */
  const asNamed = (name: string): string =>
    served.find(name) !== undefined || findOperation(name) === undefined ? name : '';

  /** Runs the check; on a refusal sends the answer (and the body is never read). */
  async function check(
    request: FastifyRequest,
    reply: FastifyReply,
    operation: string | undefined,
    context: CallContext,
    refuse: (status: number, fault: ReturnType<typeof faultFromError>['fault']) => void,
  ): Promise<void> {
    if (!authenticate) {
      prepared.set(request, { context, before: 'unchecked' });
      return;
    }
    try {
      prepared.set(request, { context, before: await authenticate(operation, context) });
    } catch (err) {
      const { fault, status, retryAfter, transport } = faultFromError(err, request.log);
      if (transport) {
        reply.code(transport.status).headers(transport.headers).type('text/plain; charset=utf-8').send('');
        return;
      }
      if (retryAfter) reply.header('retry-after', String(retryAfter));
      refuse(status, fault);
    }
  }

  return {
    soap: async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const ct = parseContentType(request.headers['content-type']);
      const soapAction = soapActionOf(request.headers.soapaction);
      const version: SoapVersion =
        soapAction === undefined || ct.base === 'application/soap+xml' ? '1.2' : '1.1';
      const action = soapAction ?? ct.action;
      let operation = action === undefined ? undefined : byAction.get(action);
      // SOAP 1.1 runs what SOAPAction names, or faults: an unknown action is never a public one.
      if (operation === undefined && version === '1.1' && soapAction !== undefined)
        operation = asNamed(soapAction);
      const context = contextOf(request, version === '1.1' ? 'soap11' : 'soap12');
      await check(request, reply, operation, context, (status, fault) =>
        reply
          .code(status)
          .type(contentTypeOf(version))
          .send(renderFault(fault, version, namespace)),
      );
    },

    http: async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const name = (request.params as { op?: string }).op ?? '';
      const op = served.find(name);
      // Only where the GET binding would serve the operation at all (simple parameters).
      if (request.method === 'GET' && op && hasSimpleParams(op) && !servedOverGet(op.name, httpGetChanges)) {
        reply
          .code(405)
          .header('allow', 'POST')
          .type('text/plain; charset=utf-8')
          .send(`${op.name} changes state: send it with POST.\n`);
        return;
      }
      const context = contextOf(request, request.method === 'GET' ? 'httpGet' : 'httpPost');
      // An unknown name is never a public operation.
      await check(request, reply, op?.name ?? asNamed(name), context, (status, fault) =>
        reply.code(status).type('text/plain; charset=utf-8').send(`${fault.message}\n`),
      );
    },
  };
}
