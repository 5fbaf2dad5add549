/** The relay headers of a call the checkout server forwards for a merchant (split wiring). */
import type { CallContext } from '../gateway/port.ts';

export type { Binding, CallContext } from '../gateway/port.ts';

/** The relay headers of a request, when both are there. */
export function relayOf(headers: Record<string, string | string[] | undefined>): CallContext['relay'] {
  const credential = headers['x-payframe-relay'];
  const clientAddress = headers['x-payframe-client-address'];
  return typeof credential === 'string' && typeof clientAddress === 'string'
    ? { credential, clientAddress }
    : undefined;
}
