/**
 * The gateway's port (DESIGN.md "Parts and how data flows"): what every call into the Transaction
 * Service carries, whichever binding brought it — SOAP 1.1/1.2, HTTP GET/POST, or an in-process
 * call from this server's own checkout. The wire layer (server/soap) and the checkout import it;
 * the gateway imports nothing of theirs.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { UserRole } from './user-roles.ts';

/**
 * Who is calling the gateway (DESIGN.md §6). The spec defines no credential, so Payframe adds the
 * one every SOAP client supports: HTTP Basic on the transport.
 *   - a merchant: `MerchantID:TransactionKey`, acting only on its own merchant id;
 *   - the checkout server: the service credential (`GATEWAY_SERVICE_KEY`), limited to the
 *     hosted-payment operations;
 *   - a merchant user: `Bearer <Login session token>` (the dashboard), acting as its merchant once
 *     its second factor is verified;
 *   - nobody: only Login and ForgotPassword (and ?WSDL, the help pages) are public.
 */
export type Principal =
  | { readonly kind: 'merchant'; readonly merchantId: string; readonly user?: SignedInUser }
  | { readonly kind: 'service' }
  | { readonly kind: 'anonymous' }
  // A merchant user signed in with its password whose second factor is not verified yet: only the
  // session's own operations answer (principal.ts `user`).
  | { readonly kind: 'user'; readonly merchantId: string; readonly user: SignedInUser };

/**
 * A merchant user calling with its Login session token (`Authorization: Bearer ls_…`, the
 * dashboard). Once its second factor is verified it acts as its merchant, and `user` says who.
 */
export interface SignedInUser {
  readonly userId: string;
  readonly userName: string;
  /** What the user may do (user-roles.ts), read with the session. */
  readonly role: UserRole;
  /** The session's id: the SHA-256 hash of its token, as login_sessions stores it. */
  readonly sessionId: string;
}

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
