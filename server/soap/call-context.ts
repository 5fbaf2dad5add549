/** What an operation handler knows about the call it serves. */
import type { FastifyBaseLogger } from 'fastify';
import type { Principal } from '../gateway/principal.ts';

export type Binding = 'soap11' | 'soap12' | 'httpGet' | 'httpPost' | 'inProcess';

export interface CallContext {
  binding: Binding;
  requestId: string;
  remoteAddress: string;
  log: FastifyBaseLogger;
  /** The raw Authorization header, for the gateway's credential check. */
  authorization: string | undefined;
  /**
   * Set only for in-process calls (binding 'inProcess'), where the caller is this server's own
   * checkout: no header to check. Network bindings never set it.
   */
  principal?: Principal;
}
