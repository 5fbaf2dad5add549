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
  /**
   * A call the checkout server relays for a merchant (split wiring): the service credential and the
   * merchant's own client address, so failed sign-ins are counted against that client, not against
   * the checkout host (`x-payframe-relay`, `x-payframe-client-address`). Trusted only when the
   * credential is the service key (gateway/auth.ts).
   */
  relay?: { credential: string; clientAddress: string };
}

/** The relay headers of a request, when both are there. */
export function relayOf(headers: Record<string, string | string[] | undefined>): CallContext['relay'] {
  const credential = headers['x-payframe-relay'];
  const clientAddress = headers['x-payframe-client-address'];
  return typeof credential === 'string' && typeof clientAddress === 'string'
    ? { credential, clientAddress }
    : undefined;
}
