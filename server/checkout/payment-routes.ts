/**
 * Merchant REST after the pay (docs/merchant-guide.md "Payments, refunds, captures and voids"):
 * HTTP Basic `MerchantID:TransactionKey` exactly as the session routes, each a call of the
 * Transaction Service port as the merchant, so the gateway checks the credential and shows a
 * merchant its own payments only (anyone else's id is 404, like one that names nothing).
 *
 *   GET  /v1/payments                  → {data: [payment…], hasMore} newest first (ListPayments)
 *   GET  /v1/payments/:id              → the payment with its refunds (GetPayment)
 *   POST /v1/payments/:id/refunds      → ProcessTransaction refund(s)  ┐ Idempotency-Key required;
 *   POST /v1/payments/:id/capture      → ProcessTransaction capture    ├ exactly once:
 *   POST /v1/payments/:id/void         → ProcessTransaction void       ┘ payment-actions.ts
 *
 * In spec mode the gateway's dashboard operations are not there: every one answers 501.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { IdempotencyKey } from '../../shared/checkout/fields.ts';
import {
  CaptureBody,
  DEFAULT_PAYMENT_LIST_LIMIT,
  ListPaymentsQuery,
  PAYMENT_ID_PATTERN,
  type PaymentList,
  type PaymentStatus,
  RefundBody,
  VoidBody,
} from '../../shared/checkout/payment-schemas.ts';
import type { PaymentStateFilter } from '../../shared/contract/extensions.ts';
import { PayframeError } from '../errors.ts';
import type { Checkout } from './checkout.ts';
import { asMerchant, merchantOf, merchantRouteHooks } from './checkout-sessions-routes.ts';
import type { CheckoutDeps } from './deps.ts';
import { fieldErrors, parseOr400 } from './field-errors.ts';
import { actOnce, type PaymentAction } from './payment-actions.ts';
import { merchantPaymentView, summaryView } from './payment-view.ts';
import { originOf } from './pay-routes.ts';

/** The REST status filter as the gateway's PaymentStateFilter names it (one state each). */
const STATUS_FILTER: Record<PaymentStatus, PaymentStateFilter> = {
  authorized: 'Authorized',
  approved: 'Approved',
  declined: 'Declined',
  partially_refunded: 'PartiallyRefunded',
  refunded: 'FullyRefunded',
  voided: 'Voided',
  settled: 'Settled',
};

function paymentIdOf(request: FastifyRequest): string {
  const id = (request.params as { id?: string }).id ?? '';
  if (!PAYMENT_ID_PATTERN.test(id)) throw new PayframeError('not_found', 'This payment does not exist.');
  return id;
}

async function listPayments(
  deps: CheckoutDeps,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<PaymentList> {
  const merchant = merchantOf(request, reply);
  const query = parseOr400(ListPaymentsQuery, request.query ?? {});
  const context = deps.contexts.merchant(originOf(request), merchant.authorization);
  const lte = query['created[lte]'];
  try {
    const page = await asMerchant(reply, () =>
      deps.port.ListPayments(
        {
          filter: {
            State: query.status ? STATUS_FILTER[query.status] : undefined,
            CreatedFrom: query['created[gte]'] ? new Date(query['created[gte]']).toISOString() : undefined,
            // The gateway's end is exclusive; the API's is inclusive (to the millisecond).
            CreatedBefore: lte ? new Date(new Date(lte).getTime() + 1).toISOString() : undefined,
            OrderNumber: query.orderNumber,
            Email: query.email,
            Currency: query.currency,
            Limit: query.limit ?? DEFAULT_PAYMENT_LIST_LIMIT,
            StartingAfter: query.startingAfter,
          },
        },
        context,
      ),
    );
    return { data: (page.Payments ?? []).map(summaryView), hasMore: page.HasMore };
  } catch (err) {
    // The one payment the call names is the cursor: not one of this merchant's (or none at all).
    if (err instanceof PayframeError && err.code === 'not_found') {
      throw new PayframeError('validation_failed', undefined, [
        { field: 'startingAfter', code: 'not_found', message: 'startingAfter names no payment of yours.' },
      ]);
    }
    throw err;
  }
}

async function readPayment(deps: CheckoutDeps, request: FastifyRequest, reply: FastifyReply) {
  const merchant = merchantOf(request, reply);
  const id = paymentIdOf(request);
  const context = deps.contexts.merchant(originOf(request), merchant.authorization);
  const detail = await asMerchant(reply, () => deps.port.GetPayment({ transactionID: id }, context));
  if (!detail.Payment) throw new PayframeError('not_found', 'This payment does not exist.');
  return merchantPaymentView(detail);
}

/** The required Idempotency-Key: a 400 that names the header when it is missing or malformed. */
function requiredKey(request: FastifyRequest): string {
  const key = IdempotencyKey.safeParse(request.headers['idempotency-key']);
  if (!key.success) {
    throw new PayframeError(
      'invalid_request',
      key.error.issues[0]?.message,
      fieldErrors(key.error).map((f) => ({ ...f, field: 'Idempotency-Key' })),
    );
  }
  return key.data;
}

async function act(deps: CheckoutDeps, request: FastifyRequest, reply: FastifyReply, action: PaymentAction) {
  const merchant = merchantOf(request, reply);
  const id = paymentIdOf(request);
  const body =
    action === 'refund'
      ? parseOr400(RefundBody, request.body ?? {})
      : action === 'capture'
        ? parseOr400(CaptureBody, request.body ?? {})
        : parseOr400(VoidBody, request.body ?? {});
  const key = requiredKey(request);
  const context = deps.contexts.merchant(originOf(request), merchant.authorization);
  const amount = 'amount' in body ? body.amount : undefined;
  const reason = 'reason' in body ? body.reason : undefined;
  return asMerchant(reply, () =>
    actOnce(
      deps,
      reply,
      {
        merchantId: merchant.merchantId,
        context,
        paymentId: id,
        action,
        key,
        ...(amount ? { amount } : {}),
        ...(reason ? { reason } : {}),
      },
      { paymentId: id, action, ...body },
    ),
  );
}

export async function paymentRoutes(app: FastifyInstance, options: { checkout: Checkout }): Promise<void> {
  const deps = options.checkout.deps;
  merchantRouteHooks(app, deps);
  app.get('/v1/payments', (request, reply) => listPayments(deps, request, reply));
  app.get('/v1/payments/:id', (request, reply) => readPayment(deps, request, reply));
  app.post('/v1/payments/:id/refunds', (request, reply) => act(deps, request, reply, 'refund'));
  app.post('/v1/payments/:id/capture', (request, reply) => act(deps, request, reply, 'capture'));
  app.post('/v1/payments/:id/void', (request, reply) => act(deps, request, reply, 'void'));
}
