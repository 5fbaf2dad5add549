/**
 * Merchant REST (docs/merchant-guide.md "REST API"): HTTP Basic `MerchantID:TransactionKey`, which
 * the gateway checks on every call through the port (the merchant's Authorization header is passed
 * on; the gateway's own throttle counts failures per client address).
 *   POST /v1/checkout-sessions        → 201 {token, url, expiresAt}   (CreateHostedPayment; once per
 *                                       Idempotency-Key: create-idempotency.ts)
 *   GET  /v1/checkout-sessions/:token → {status, amount, currency, …} (GetCheckoutSession)
 *   GET  /v1/checkout-sessions        → {data: [session…], hasMore} newest first (ListCheckoutSessions)
 * The gateway's session is the only copy (DESIGN.md §16): nothing about it is stored here.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_TOKEN_PATTERN } from '../../shared/checkout/fields.ts';
import {
  type CheckoutSessionList,
  CreateCheckoutSessionBody,
  type CreatedCheckoutSession,
  DEFAULT_LIST_LIMIT,
  ListCheckoutSessionsQuery,
  type MerchantCheckoutSession,
  type SessionStatus,
} from '../../shared/checkout/session-schemas.ts';
import type { OperationParams } from '../../shared/contract/service.ts';
import type { FieldError } from '../../shared/errors.ts';
import { PayframeError } from '../errors.ts';
import type { CallContext } from '../gateway/port.ts';
import { parseBasicAuthorization as parseBasic } from './basic-auth.ts';
import type { Checkout } from './checkout.ts';
import type { CheckoutDeps } from './deps.ts';
import { parseOr400 } from './field-errors.ts';
import { type GatewaySession, readSession as readGatewaySession, sessionOf } from './gateway-calls.ts';
import { payInProgress } from './pay.ts';
import { originOf } from './pay-routes.ts';
import { revokeWalletTokens } from './otp.ts';
import { announceCanceled } from './session-expiry.ts';
import { createOnce } from './create-idempotency.ts';

const CHALLENGE = 'Basic realm="Payframe", charset="UTF-8"';

// The gateway's field names (HostedPaymentResponse.ErrorField) as REST names them.
const GATEWAY_FIELDS: Record<string, [field: string, code: string]> = {
  amount: ['amount', 'invalid_amount'],
  currency: ['currency', 'invalid_currency'],
  returnUrl: ['returnUrl', 'invalid_return_url'],
  cancelUrl: ['cancelUrl', 'invalid_cancel_url'],
  description: ['description', 'invalid'],
  lineItems: ['lineItems', 'line_items_total'],
  webhookUrl: ['webhookUrl', 'invalid_webhook_url'],
  locale: ['locale', 'invalid'],
  expiresInMinutes: ['expiresInMinutes', 'invalid'],
  orderNumber: ['orderNumber', 'invalid'],
  email: ['shopper.email', 'invalid'],
  firstName: ['shopper.firstName', 'invalid'],
  lastName: ['shopper.lastName', 'invalid'],
  phoneNumber: ['shopper.phone', 'invalid'],
  address1: ['shopper.address.line1', 'invalid'],
  address2: ['shopper.address.line2', 'invalid'],
  city: ['shopper.address.city', 'invalid'],
  stateProvince: ['shopper.address.stateProvince', 'invalid'],
  zipCode: ['shopper.address.zipCode', 'invalid'],
  country: ['shopper.address.country', 'invalid'],
};

/** A refusal of CreateHostedPayment as a REST field error: the field comes typed, never from text. */
export function gatewayFieldError(errorField: string | null | undefined, message: string): FieldError {
  const known =
    errorField && Object.hasOwn(GATEWAY_FIELDS, errorField) ? GATEWAY_FIELDS[errorField] : undefined;
  if (!errorField || !known) return { field: '', code: 'invalid', message };
  // The gateway's messages name their field first; REST names it its own way.
  const said = message.startsWith(`${errorField} `) ? message.slice(errorField.length) : ` ${message}`;
  return { field: known[0], code: known[1], message: `${known[0]}${said}` };
}

export interface Merchant {
  merchantId: string;
  authorization: string;
}

export function merchantOf(request: FastifyRequest, reply: FastifyReply): Merchant {
  const authorization = request.headers.authorization;
  const credential = parseBasic(authorization);
  if (!authorization || !credential || !/^[1-9]\d{0,18}$/.test(credential.username)) {
    reply.header('www-authenticate', CHALLENGE);
    throw new PayframeError('unauthorized');
  }
  return { merchantId: credential.username, authorization };
}

/** Runs a gateway call as the merchant; a refused credential is 401 with a Basic challenge. */
export async function asMerchant<T>(reply: FastifyReply, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof PayframeError && err.code === 'unauthorized')
      reply.header('www-authenticate', CHALLENGE);
    if (err instanceof PayframeError && err.retryAfterSeconds)
      reply.header('retry-after', String(err.retryAfterSeconds));
    throw err;
  }
}

async function createSession(deps: CheckoutDeps, request: FastifyRequest, reply: FastifyReply) {
  const merchant = merchantOf(request, reply);
  const body = parseOr400(CreateCheckoutSessionBody, request.body);
  const s = body.shopper;
  // Once per Idempotency-Key (create-idempotency.ts); every time without one.
  return asMerchant(reply, () => createOnce(deps, request, reply, merchant, body, () => create()));
  async function create(): Promise<CreatedCheckoutSession> {
    const context = deps.contexts.merchant(originOf(request), merchant.authorization);
    const res = await asMerchant(reply, () =>
      deps.port.CreateHostedPayment(
        {
          request: {
            MerchantID: merchant.merchantId,
            Amount: body.amount,
            Currency: body.currency,
            OrderNumber: body.orderNumber,
            Email: s?.email,
            FirstName: s?.firstName,
            LastName: s?.lastName,
            PhoneNumber: s?.phone,
            Address1: s?.address?.line1,
            Address2: s?.address?.line2,
            City: s?.address?.city,
            StateProvince: s?.address?.stateProvince,
            ZipCode: s?.address?.zipCode,
            Country: s?.address?.country,
            ReturnUrl: body.returnUrl,
            CancelUrl: body.cancelUrl,
            Description: body.description,
            LineItems: body.lineItems?.map((i) => ({
              Name: i.name,
              Quantity: i.quantity,
              UnitAmount: i.unitAmount,
            })),
            WebhookUrl: body.webhookUrl,
            Locale: body.locale,
            ExpiresInMinutes: body.expiresInMinutes,
          },
        },
        context,
      ),
    );
    if (!res.Success || !res.Token || !res.ExpiresAt) {
      throw new PayframeError('validation_failed', undefined, [
        gatewayFieldError(res.ErrorField, res.Message ?? 'The session was refused.'),
      ]);
    }
    return {
      token: res.Token,
      url: res.Url ?? `${deps.publicUrl}/pay/${res.Token}`,
      expiresAt: new Date(res.ExpiresAt).toISOString(),
    };
  }
}

async function readSession(deps: CheckoutDeps, request: FastifyRequest, reply: FastifyReply) {
  const merchant = merchantOf(request, reply);
  const token = (request.params as { token?: string }).token ?? '';
  if (!SESSION_TOKEN_PATTERN.test(token))
    throw new PayframeError('not_found', 'This checkout session does not exist.');
  const context = deps.contexts.merchant(originOf(request), merchant.authorization);
  // The gateway shows a merchant its own sessions only ("does not exist" for anyone else's).
  const session = await asMerchant(reply, () => readGatewaySession(deps, context, token));
  if (!session) throw new PayframeError('not_found', 'This checkout session does not exist.');
  return merchantView(session);
}

/** The REST status filter as the gateway's enumeration names it. */
const STATUS_PARAM: Record<SessionStatus, NonNullable<OperationParams<'ListCheckoutSessions'>['status']>> = {
  open: 'Open',
  paid: 'Paid',
  expired: 'Expired',
  canceled: 'Canceled',
};

/**
 * The merchant's own sessions, newest first, a page at a time (issue 14 §11). Each item is what
 * `GET /v1/checkout-sessions/:token` answers for it.
 */
async function listSessions(
  deps: CheckoutDeps,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<CheckoutSessionList> {
  const merchant = merchantOf(request, reply);
  const query = parseOr400(ListCheckoutSessionsQuery, request.query ?? {});
  const context = deps.contexts.merchant(originOf(request), merchant.authorization);
  try {
    const page = await asMerchant(reply, () =>
      deps.port.ListCheckoutSessions(
        {
          orderNumber: query.orderNumber,
          status: query.status ? STATUS_PARAM[query.status] : undefined,
          limit: query.limit ?? DEFAULT_LIST_LIMIT,
          startingAfter: query.startingAfter,
        },
        context,
      ),
    );
    return { data: (page.Sessions ?? []).map((d) => merchantView(sessionOf(d))), hasMore: page.HasMore };
  } catch (err) {
    // The one session the call names is the cursor: not one of this merchant's (or none at all).
    if (err instanceof PayframeError && err.code === 'not_found') {
      throw new PayframeError('validation_failed', undefined, [
        {
          field: 'startingAfter',
          code: 'not_found',
          message: 'startingAfter names no checkout session of yours.',
        },
      ]);
    }
    throw err;
  }
}

function merchantView(session: GatewaySession): MerchantCheckoutSession {
  const view: MerchantCheckoutSession = {
    token: session.token,
    status: session.status,
    amount: session.amount,
    currency: session.currency,
    orderNumber: session.orderNumber,
    expiresAt: session.expiresAt?.toISOString() ?? null,
  };
  const payment = session.payment;
  if (payment?.transactionId) view.transactionId = payment.transactionId;
  if (payment?.maskedCard) view.maskedCard = payment.maskedCard;
  if (payment) view.paidAt = payment.paidAt.toISOString();
  return view;
}

/**
 * The merchant withdraws an open session (e.g. the order was canceled in its shop): it can no longer
 * be paid. Canceling twice answers the same; a paid session, or one with a payment in flight, is a
 * 409 that names why, so a cancel never hides a charge.
 */
async function cancelSession(deps: CheckoutDeps, request: FastifyRequest, reply: FastifyReply) {
  const merchant = merchantOf(request, reply);
  const token = (request.params as { token?: string }).token ?? '';
  if (!SESSION_TOKEN_PATTERN.test(token))
    throw new PayframeError('not_found', 'This checkout session does not exist.');
  const context = deps.contexts.merchant(originOf(request), merchant.authorization);
  return merchantView(await asMerchant(reply, () => cancelOpenSession(deps, context, token)));
}

/**
 * Cancels one of the merchant's sessions as `context`'s caller (merchant REST, the dashboard's
 * payment links) and answers it canceled, its wallet codes revoked and its end announced; else the
 * 409 that says why not.
 */
export async function cancelOpenSession(
  deps: CheckoutDeps,
  context: CallContext,
  token: string,
): Promise<GatewaySession> {
  await deps.port.CancelHostedPayment({ token }, context);
  const session = await readGatewaySession(deps, context, token);
  if (!session) throw new PayframeError('not_found', 'This checkout session does not exist.');
  if (session.status === 'canceled') {
    // Whoever canceled it (this call, an earlier one cut short, the shopper): both are once-only.
    await revokeWalletTokens(deps, token);
    await announceCanceled(deps, session);
    return session;
  }
  // Open still: the gateway waited a few seconds for the claim held on it, and its verdict is not in.
  if (session.status === 'open') throw payInProgress(deps, session.paymentSettlesBy);
  throw new PayframeError(session.status === 'paid' ? 'session_paid' : 'session_expired');
}

/** What every merchant REST route has: the per-address rate limit, and answers never cached. */
export function merchantRouteHooks(app: FastifyInstance, deps: Checkout['deps']): void {
  app.addHook('onRequest', async (request, reply) => {
    deps.memoryLimits.enforce(reply, `merchant:ip:${request.ip}`, deps.limits.merchantPerIp, deps.now());
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });
}

export async function checkoutSessionsRoutes(
  app: FastifyInstance,
  options: { checkout: Checkout },
): Promise<void> {
  const deps = options.checkout.deps;
  merchantRouteHooks(app, deps);
  app.post('/v1/checkout-sessions', (request, reply) => createSession(deps, request, reply));
  app.get('/v1/checkout-sessions', (request, reply) => listSessions(deps, request, reply));
  app.get('/v1/checkout-sessions/:token', (request, reply) => readSession(deps, request, reply));
  app.post('/v1/checkout-sessions/:token/cancel', (request, reply) => cancelSession(deps, request, reply));
}
