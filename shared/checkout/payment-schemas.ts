/**
 * Merchant REST schemas of payments (docs/merchant-guide.md "Payments, refunds, captures and
 * voids"): reading the merchant's payments and moving their money afterwards. One schema validates
 * a request, documents it in the OpenAPI document and types the answer.
 */
import { z } from 'zod';
import { Amount, text } from './fields.ts';
import { MAX_LIST_LIMIT } from './session-schemas.ts';

/** A payment's state: the contract's PaymentState (shared/contract/dashboard-payments.ts) in snake case. */
export const PaymentStatus = z.enum([
  'authorized',
  'approved',
  'declined',
  'partially_refunded',
  'refunded',
  'voided',
  'settled',
]);
export type PaymentStatus = z.infer<typeof PaymentStatus>;

/** Why the merchant refunds: kept with the refund the API made, answered with it. */
export const RefundReason = z.enum(['requested_by_customer', 'duplicate', 'fraudulent', 'other'], {
  error: 'reason must be one of requested_by_customer, duplicate, fraudulent, other.',
});
export type RefundReason = z.infer<typeof RefundReason>;

export const DEFAULT_PAYMENT_LIST_LIMIT = 10;

/** A payment's id: the gateway's TransactionID of the sale or authorisation. */
export const PAYMENT_ID_PATTERN = /^[1-9]\d{0,18}$/;

const instant = (field: string) =>
  z.iso
    .datetime({
      offset: true,
      error: `${field} must be an ISO 8601 date and time such as 2026-05-01T00:00:00Z.`,
    })
    .optional();

/**
 * `GET /v1/payments`' query: every parameter optional, each named when it is wrong, an unknown one
 * refused rather than ignored.
 */
export const ListPaymentsQuery = z.strictObject({
  status: z
    .enum(PaymentStatus.options, {
      error: `status must be one of ${PaymentStatus.options.join(', ')}.`,
    })
    .optional(),
  orderNumber: text('orderNumber', 64).optional().meta({ description: 'Exact match, any case.' }),
  email: z
    .email('email must be an e-mail address.')
    .max(254)
    .optional()
    .meta({ description: "The shopper's e-mail on the checkout session: exact match, any case." }),
  currency: z
    .string({ error: 'currency must be an ISO 4217 code such as USD.' })
    .regex(/^[A-Z]{3}$/, 'currency must be an ISO 4217 code such as USD.')
    .optional(),
  'created[gte]': instant('created[gte]').meta({ description: 'Created at or after this instant.' }),
  'created[lte]': instant('created[lte]').meta({ description: 'Created at or before this instant.' }),
  limit: z
    .string({ error: `limit must be a whole number from 1 to ${MAX_LIST_LIMIT}.` })
    .regex(/^[1-9]\d{0,2}$/, `limit must be a whole number from 1 to ${MAX_LIST_LIMIT}.`)
    .transform(Number)
    .refine((n) => n <= MAX_LIST_LIMIT, `limit must be a whole number from 1 to ${MAX_LIST_LIMIT}.`)
    .optional()
    .meta({ description: `1 to ${MAX_LIST_LIMIT}; ${DEFAULT_PAYMENT_LIST_LIMIT} when absent.` }),
  startingAfter: z
    .string({ error: 'startingAfter must be a payment id.' })
    .regex(PAYMENT_ID_PATTERN, 'startingAfter must be a payment id.')
    .optional()
    .meta({ description: "The previous page's last payment id: the page starts after it." }),
});
export type ListPaymentsQuery = z.infer<typeof ListPaymentsQuery>;

const CardMethod = z.object({
  type: z.literal('card'),
  brand: z.string().nullable(),
  last4: z.string().nullable(),
});

const BankAccountMethod = z.object({
  type: z.literal('ach_debit'),
  accountType: z.enum(['checking', 'savings']).nullable(),
  last4: z.string().nullable(),
  settlement: z.literal('days').meta({
    description: 'An ACH debit settles in days: approved means accepted for collection, not collected.',
  }),
});

export const PaymentRefund = z.object({
  id: z.string().meta({ description: "The refund's transaction id." }),
  amount: z.string(),
  createdAt: z.string(),
});

export const MerchantPayment = z.object({
  id: z.string().meta({ description: 'The payment id (the TransactionID of the sale or authorisation).' }),
  kind: z.enum(['sale', 'authorization']),
  status: PaymentStatus,
  amount: z.string().meta({ description: 'What was asked.' }),
  amountApproved: z.string(),
  amountCaptured: z.string().meta({ description: "A sale's approved amount; an authorisation's captures." }),
  amountRefunded: z.string(),
  currency: z.string().nullable(),
  method: z.discriminatedUnion('type', [CardMethod, BankAccountMethod]),
  customer: z.object({ email: z.string().nullable(), name: z.string().nullable() }),
  sessionToken: z.string().nullable(),
  orderNumber: z.string().nullable(),
  checks: z.object({
    avs: z.string().nullable().meta({ description: "The processor's AVS result code (one letter)." }),
    threeDSecure: z
      .boolean()
      .optional()
      .meta({ description: 'A 3-D Secure challenge was part of this payment (on a single payment only).' }),
  }),
  declineReason: z.string().optional(),
  createdAt: z.string(),
  refunds: z
    .array(PaymentRefund)
    .optional()
    .meta({ description: 'Oldest first; on a single payment and on answers to a refund, capture or void.' }),
});
export type MerchantPayment = z.infer<typeof MerchantPayment>;

export const PaymentList = z.object({
  data: z.array(MerchantPayment).meta({ description: 'Newest first.' }),
  hasMore: z.boolean().meta({ description: 'More payments follow the last one in data.' }),
});
export type PaymentList = z.infer<typeof PaymentList>;

export const RefundBody = z.strictObject({
  amount: Amount.optional().meta({ description: 'Absent: everything not yet refunded.' }),
  reason: RefundReason.optional(),
});
export type RefundBody = z.infer<typeof RefundBody>;

export const CaptureBody = z.strictObject({
  amount: Amount.optional().meta({ description: 'At most the authorised amount; absent: all of it.' }),
});
export type CaptureBody = z.infer<typeof CaptureBody>;

export const VoidBody = z.strictObject({});

export const PaymentActionResult = z.object({
  action: z.enum(['refund', 'capture', 'void']),
  status: z.enum(['succeeded', 'declined']).meta({
    description: 'declined: the processor refused it (declineCode says why); nothing moved.',
  }),
  amount: z.string().meta({ description: 'What moved (0.00 when declined).' }),
  reason: RefundReason.optional(),
  transactionIds: z
    .array(z.string())
    .meta({ description: 'The transactions this made (a refund across several captures makes one each).' }),
  declineCode: z.string().optional().meta({ description: "The processor's ISO 8583 code of a decline." }),
  payment: MerchantPayment,
});
export type PaymentActionResult = z.infer<typeof PaymentActionResult>;
