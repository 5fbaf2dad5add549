/**
 * GET /v1/openapi.json: an OpenAPI 3.1 document generated from the same zod schemas that validate
 * the requests (shared/checkout/), so the document cannot drift from the code.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CancelResponse, PayBody, PayResponse, WidgetSession } from '../../shared/checkout/pay-schemas.ts';
import {
  CaptureBody,
  ListPaymentsQuery,
  MerchantPayment,
  PaymentActionResult,
  PaymentList,
  RefundBody,
  VoidBody,
} from '../../shared/checkout/payment-schemas.ts';
import {
  CheckoutSessionList,
  CreateCheckoutSessionBody,
  CreatedCheckoutSession,
  ErrorBodySchema,
  ListCheckoutSessionsQuery,
  MerchantCheckoutSession,
} from '../../shared/checkout/session-schemas.ts';

function schema(s: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _drop, ...json } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return json;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string) => ({ 'application/json': { schema: ref(name) } });
const error = (description: string) => ({ description, content: json('Error') });
const tokenParam = {
  name: 'token',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^cs_[A-Za-z0-9_-]{43}$' },
};

const paymentIdParam = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The payment id (the TransactionID of the sale or authorisation).',
  schema: { type: 'string', pattern: '^[1-9][0-9]{0,18}$' },
};
const idempotencyKeyParam = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  description:
    'Required: the request runs once per key (kept 25 hours, scoped to the merchant); the same key answers the same.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

/** A refund, capture or void: once per Idempotency-Key, its errors. */
function paymentAction(operationId: string, summary: string, body: string): Record<string, unknown> {
  return {
    post: {
      operationId,
      summary,
      security: [{ merchant: [] }],
      parameters: [paymentIdParam, idempotencyKeyParam],
      requestBody: { required: false, content: json(body) },
      responses: {
        200: {
          description: 'Done or declined by the processor (status); the same key answers the same',
          headers: {
            'Idempotent-Replayed': {
              description: "'true' when this is the stored answer of an earlier request with the key.",
              schema: { type: 'string' },
            },
          },
          content: json('PaymentActionResult'),
        },
        400: error(
          'The Idempotency-Key is missing or not valid, or a field is (error.fields names it: amount more than remains, nothing left).',
        ),
        401: error('Missing or wrong credential.'),
        404: error('No such payment of this merchant.'),
        409: error(
          'conflict: a request with this key, or another refund, capture or void of the payment, is running; see Retry-After.',
        ),
        422: error('idempotency_mismatch: this Idempotency-Key was used with another request.'),
        429: error('Too many requests or failed sign-ins; see Retry-After.'),
        501: error('Not offered in front of a Transaction Service that speaks only the spec.'),
        503: error('The outcome is not known yet: retry with the same Idempotency-Key after Retry-After.'),
      },
    },
  };
}

/** The list's query parameters, from the schema that checks them. */
function queryParams(s: z.ZodType): Record<string, unknown>[] {
  const properties = (schema(s, 'input').properties ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(properties).map(([name, { description, ...p }]) => ({
    name,
    in: 'query',
    required: false,
    ...(description ? { description } : {}),
    schema: p,
  }));
}

export function openApiDocument(publicUrl: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Payframe checkout API',
      version: '1.0.0',
      description:
        'Merchant REST (HTTP Basic MerchantID:TransactionKey) and the checkout API the widget uses. See docs/merchant-guide.md.',
    },
    servers: [{ url: publicUrl }],
    components: {
      securitySchemes: { merchant: { type: 'http', scheme: 'basic' } },
      schemas: {
        CreateCheckoutSession: schema(CreateCheckoutSessionBody, 'input'),
        CreatedCheckoutSession: schema(CreatedCheckoutSession, 'output'),
        MerchantCheckoutSession: schema(MerchantCheckoutSession, 'output'),
        CheckoutSessionList: schema(CheckoutSessionList, 'output'),
        CheckoutSession: schema(WidgetSession, 'output'),
        PayRequest: schema(PayBody, 'input'),
        PayResponse: schema(PayResponse, 'output'),
        CancelResponse: schema(CancelResponse, 'output'),
        Payment: schema(MerchantPayment, 'output'),
        PaymentList: schema(PaymentList, 'output'),
        RefundRequest: schema(RefundBody, 'input'),
        CaptureRequest: schema(CaptureBody, 'input'),
        VoidRequest: schema(VoidBody, 'input'),
        PaymentActionResult: schema(PaymentActionResult, 'output'),
        Error: schema(ErrorBodySchema, 'output'),
      },
    },
    paths: {
      '/v1/checkout-sessions': {
        post: {
          summary: 'Create a checkout session',
          security: [{ merchant: [] }],
          requestBody: { required: true, content: json('CreateCheckoutSession') },
          responses: {
            201: { description: 'Created', content: json('CreatedCheckoutSession') },
            400: error('A field is not valid (error.fields names each one).'),
            401: error('Missing or wrong credential.'),
            429: error('Too many requests or failed sign-ins; see Retry-After.'),
          },
        },
        get: {
          summary: "List the merchant's own sessions, newest first, a page at a time",
          security: [{ merchant: [] }],
          parameters: queryParams(ListCheckoutSessionsQuery),
          responses: {
            200: { description: 'A page of sessions', content: json('CheckoutSessionList') },
            400: error('A query parameter is not valid (error.fields names it).'),
            401: error('Missing or wrong credential.'),
            429: error('Too many requests or failed sign-ins; see Retry-After.'),
          },
        },
      },
      '/v1/checkout-sessions/{token}': {
        get: {
          summary: "Read a session's state (confirm a payment server to server)",
          security: [{ merchant: [] }],
          parameters: [tokenParam],
          responses: {
            200: { description: 'The session', content: json('MerchantCheckoutSession') },
            401: error('Missing or wrong credential.'),
            404: error('No such session of this merchant.'),
          },
        },
      },
      '/v1/checkout-sessions/{token}/cancel': {
        post: {
          summary: 'Cancel an open session: it can no longer be paid',
          security: [{ merchant: [] }],
          parameters: [tokenParam],
          responses: {
            200: {
              description: 'Canceled (also when it already was)',
              content: json('MerchantCheckoutSession'),
            },
            401: error('Missing or wrong credential.'),
            404: error('No such session of this merchant.'),
            409: error('session_paid, session_expired, or payment_in_progress.'),
          },
        },
      },
      '/v1/payments': {
        get: {
          operationId: 'listPayments',
          summary: "List the merchant's payments, newest first, a page at a time",
          security: [{ merchant: [] }],
          parameters: queryParams(ListPaymentsQuery),
          responses: {
            200: { description: 'A page of payments', content: json('PaymentList') },
            400: error('A query parameter is not valid (error.fields names it).'),
            401: error('Missing or wrong credential.'),
            429: error('Too many requests or failed sign-ins; see Retry-After.'),
            501: error('Not offered in front of a Transaction Service that speaks only the spec.'),
          },
        },
      },
      '/v1/payments/{id}': {
        get: {
          operationId: 'getPayment',
          summary: 'Read a payment with its refunds',
          security: [{ merchant: [] }],
          parameters: [paymentIdParam],
          responses: {
            200: { description: 'The payment', content: json('Payment') },
            401: error('Missing or wrong credential.'),
            404: error('No such payment of this merchant.'),
            429: error('Too many requests or failed sign-ins; see Retry-After.'),
            501: error('Not offered in front of a Transaction Service that speaks only the spec.'),
          },
        },
      },
      '/v1/payments/{id}/refunds': paymentAction(
        'refundPayment',
        'Refund a payment, in part or all that remains (across its captures)',
        'RefundRequest',
      ),
      '/v1/payments/{id}/capture': paymentAction(
        'capturePayment',
        'Capture an authorisation, in part or in full',
        'CaptureRequest',
      ),
      '/v1/payments/{id}/void': paymentAction(
        'voidPayment',
        'Void a payment not yet settled, captured or refunded',
        'VoidRequest',
      ),
      '/api/checkout/sessions/{token}': {
        get: {
          summary: 'The session as the widget shows it',
          parameters: [tokenParam],
          responses: {
            200: { description: 'The session', content: json('CheckoutSession') },
            404: error('No such session.'),
            429: error('Too many requests.'),
          },
        },
      },
      '/api/checkout/sessions/{token}/pay': {
        post: {
          summary: 'Pay the session (exactly once)',
          parameters: [
            tokenParam,
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: true,
              schema: { type: 'string', maxLength: 255 },
            },
            { name: 'X-Payframe-Client', in: 'header', required: true, schema: { const: 'widget' } },
            {
              name: 'X-Payframe-Wallet',
              in: 'header',
              required: false,
              description: "Only with method 'saved': the credential a verified one-time code gave.",
              schema: { type: 'string' },
            },
          ],
          requestBody: { required: true, content: json('PayRequest') },
          responses: {
            200: {
              description: 'Paid, already paid, declined, or a 3-D Secure challenge',
              content: json('PayResponse'),
            },
            400: error('A field or the Idempotency-Key is not valid (the key is not used up).'),
            403: error('Not sent by the checkout (CSRF guard).'),
            404: error('No such session.'),
            401: error("method 'saved' without a valid wallet credential for this session."),
            409: error(
              'payment_in_progress (this session or this key), session_expired or session_canceled.',
            ),
            422: error('This Idempotency-Key was used with a different request.'),
            429: error('Too many requests; see Retry-After.'),
            500: error('The outcome is not known yet: retry with the same Idempotency-Key.'),
          },
        },
      },
      '/api/checkout/sessions/{token}/cancel': {
        post: {
          summary: 'The shopper cancels: the session can no longer be paid',
          parameters: [
            tokenParam,
            { name: 'X-Payframe-Client', in: 'header', required: true, schema: { const: 'widget' } },
          ],
          responses: {
            200: { description: 'Canceled (also when it already was)', content: json('CancelResponse') },
            403: error('Not sent by the checkout (CSRF guard).'),
            404: error('No such session.'),
            409: error('session_paid, session_expired, or payment_in_progress.'),
            429: error('Too many requests; see Retry-After.'),
          },
        },
      },
    },
  };
}

export async function openApiRoute(app: FastifyInstance, options: { publicUrl: string }): Promise<void> {
  const document = openApiDocument(options.publicUrl);
  app.get('/v1/openapi.json', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').send(document),
  );
}
