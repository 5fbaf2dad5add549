/**
 * Who a dashboard call acts for: the signed-in user of the session cookie, presented to the gateway
 * as `Authorization: Bearer <token>` with no principal, so the gateway authenticates it as it does
 * any credential (in process or over SOAP: the checkout's port carries the header). This server
 * decides nothing about the session; it only asks the gateway (GetUserSession), so its idle and
 * absolute ends, sign-out and a password reset hold the same on every instance and role.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ValueOf } from '../../shared/contract/values.ts';
import type { CheckoutDeps } from '../checkout/deps.ts';
import { originOf } from '../checkout/pay-routes.ts';
import { PayframeError } from '../errors.ts';
import type { CallContext } from '../gateway/port.ts';
import type { Notifier } from '../notify/notifier.ts';
import type { SessionCookie } from './session-cookie.ts';

export interface DashboardDeps {
  checkout: CheckoutDeps;
  cookie: SessionCookie;
  /** Sends payment links to customers (the checkout's notifier). */
  notifier: Notifier;
}

export type UserSession = ValueOf<'UserSession'>;

export interface SignedIn {
  token: string;
  context: CallContext;
}

export interface Verified extends SignedIn {
  session: UserSession;
}

/** The gateway context of a call made with a Login session token. */
export function bearerContext(deps: DashboardDeps, request: FastifyRequest, token: string): CallContext {
  return deps.checkout.contexts.merchant(originOf(request), `Bearer ${token}`);
}

/** A context without a credential, for the public operations (Login, ForgotPassword). */
export function anonymousContext(deps: DashboardDeps, request: FastifyRequest): CallContext {
  // No header and no principal: the gateway finds no credential, and public operations answer.
  return { ...deps.checkout.contexts.merchant(originOf(request), ''), authorization: undefined };
}

/** The request's session token, or 401 when it carries none. */
export function signedIn(deps: DashboardDeps, request: FastifyRequest): SignedIn {
  const token = deps.cookie.read(request);
  if (token === null) throw new PayframeError('unauthorized', 'Sign in to continue.');
  return { token, context: bearerContext(deps, request, token) };
}

/**
 * A signed-in user whose second factor is verified: 401 without a live session, 403
 * `second_factor_required` before the second factor (the gateway refuses the merchant's operations
 * to such a session too; asking first keeps every route's answer the same and gives the merchant).
 */
export async function verified(deps: DashboardDeps, request: FastifyRequest): Promise<Verified> {
  const user = signedIn(deps, request);
  const session = await deps.checkout.port.GetUserSession({}, user.context);
  if (session.SecondFactor !== 'Verified') throw new PayframeError('second_factor_required');
  return { ...user, session };
}

/** A gateway 401 means the session is over: the cookie goes with the answer. */
export function clearCookieOnUnauthorized(deps: DashboardDeps) {
  return async (request: FastifyRequest, reply: FastifyReply, err: Error): Promise<void> => {
    if (err instanceof PayframeError && err.code === 'unauthorized' && deps.cookie.read(request) !== null)
      deps.cookie.clear(reply);
  };
}
