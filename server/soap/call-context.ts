/** What an operation handler knows about the call it serves. */
import type { FastifyBaseLogger } from 'fastify';

export type Binding = 'soap11' | 'soap12' | 'httpGet' | 'httpPost' | 'inProcess';

export interface CallContext {
  binding: Binding;
  requestId: string;
  remoteAddress: string;
  log: FastifyBaseLogger;
  /** The raw Authorization header, for the gateway's credential check. */
  authorization: string | undefined;
}
