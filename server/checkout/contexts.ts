/**
 * How the checkout's calls present themselves to the gateway: as the checkout server itself (the
 * service principal) or as a merchant whose credential the gateway checks. In-process the service
 * principal is given; over SOAP the port sends the service credential instead (remote-port.ts).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { CallContext } from '../gateway/port.ts';

/** Where a call comes from: the request it serves, or a background job. */
export interface CallOrigin {
  requestId: string;
  remoteAddress: string;
  log: FastifyBaseLogger;
}

export interface Contexts {
  /** The checkout server itself (the service principal). */
  service(origin: CallOrigin): CallContext;
  /** A merchant, by the Authorization header it sent; the gateway checks the credential. */
  merchant(origin: CallOrigin, authorization: string): CallContext;
}

export const defaultContexts: Contexts = {
  service: (o) => ({
    binding: 'inProcess',
    requestId: o.requestId,
    remoteAddress: o.remoteAddress,
    log: o.log,
    authorization: undefined,
    principal: { kind: 'service' },
  }),
  merchant: (o, authorization) => ({
    binding: 'inProcess',
    requestId: o.requestId,
    remoteAddress: o.remoteAddress,
    log: o.log,
    authorization,
  }),
};
