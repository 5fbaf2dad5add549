/**
 * Authentication before the body is read (docs/gateway.md "Authentication"; issue 13 §14): the wire
 * layer checks the credential as soon as the request's headers are in, before the body is read or
 * parsed, as IIS does in front of ASMX. A request without a valid credential therefore gets the 401
 * (or the throttle's 429) whatever its body holds — too large, not XML, not the declared encoding.
 *
 * The result is kept for that one call (by its CallContext object, which only server code makes),
 * so the gateway does not check the same credential twice.
 */
import { PayframeError } from '../errors.ts';
import { type Authenticated, authenticate, hasCredential } from './auth.ts';
import type { GatewayDeps } from './gateway-call.ts';
import type { CallContext } from './port.ts';
import { accessOf } from './principal.ts';

const checked = new WeakMap<CallContext, Authenticated>();

/**
 * What the wire layer learnt before the body:
 *   - `authenticated`: a credential was checked (the gateway uses the result);
 *   - `public`: no credential, for an operation anyone may call (Login, ForgotPassword);
 *   - `unnamed`: no credential, and the headers name no operation (SOAP 1.2 without an action): only
 *     the Body can say whether it is a public one, so it is read; if it cannot be, the answer is 401.
 */
export type BeforeReading = 'authenticated' | 'public' | 'unnamed';

/**
 * Checks the request's credential for `operation` (undefined: not named by the headers) before its
 * body is read; throws `unauthorized` (401) or `rate_limited` (429) as the gateway would.
 */
export async function authenticateBeforeReading(
  deps: Pick<GatewayDeps, 'db' | 'merchants' | 'serviceKey' | 'now' | 'userIdleMinutes'>,
  operation: string | undefined,
  context: CallContext,
): Promise<BeforeReading> {
  if (!hasCredential(context.authorization)) {
    if (operation === undefined) return 'unnamed';
    if (accessOf(operation) === 'public') return 'public';
    throw new PayframeError('unauthorized');
  }
  // With a credential, who the caller is does not depend on the operation (auth.ts).
  const result = await authenticate(
    {
      db: deps.db,
      merchants: deps.merchants,
      serviceKey: deps.serviceKey,
      now: deps.now,
      userIdleMinutes: deps.userIdleMinutes,
    },
    operation ?? '',
    context.authorization,
    context.remoteAddress,
    context.relay,
  );
  checked.set(context, result);
  return 'authenticated';
}

/** The caller checked before this call's body was read, if it was. */
export function authenticatedBeforeReading(context: CallContext): Authenticated | undefined {
  return checked.get(context);
}
