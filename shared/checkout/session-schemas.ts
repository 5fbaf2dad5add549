/**
 * Merchant REST schemas (docs/merchant-guide.md "REST API"): creating a checkout session server to
 * server and reading its state. One schema validates requests, documents them in the OpenAPI
 * document, and types the answers.
 */
import { z } from 'zod';
import { toCents } from '../money.ts';
import { checkUrlAnyOrigin, MAX_URL_LENGTH, URL_PROBLEM_MESSAGES } from '../return-url.ts';
import {
  lineItemsProblem,
  MAX_DESCRIPTION,
  MAX_LINE_ITEM_NAME,
  MAX_LINE_ITEMS,
  MAX_QUANTITY,
} from './line-items.ts';
import {
  Amount,
  amountFitsCurrency,
  Currency,
  currencyDecimals,
  noCardNumber,
  SESSION_TOKEN_PATTERN,
  text,
} from './fields.ts';

/**
 * https (http only for localhost), no credentials, at most 2,048 characters, no encoded control
 * character: shared/return-url.ts, the rules the gateway applies over SOAP too. A ReturnUrl's
 * registered origin is the gateway's check (it knows the merchant's origins).
 */
function urlOf(field: 'returnUrl' | 'cancelUrl' | 'webhookUrl', code: string) {
  return z
    .string({ error: `${field} must be an absolute URL.` })
    .meta({ maxLength: MAX_URL_LENGTH, format: 'uri' })
    .superRefine((value, ctx) => {
      const checked = checkUrlAnyOrigin(value);
      if ('problem' in checked) {
        ctx.addIssue({
          code: 'custom',
          message: `${field} ${URL_PROBLEM_MESSAGES[checked.problem]}`,
          params: { code },
        });
      }
    });
}

export const ShopperAddress = z.strictObject({
  line1: text('shopper.address.line1', 200).optional(),
  line2: text('shopper.address.line2', 200).optional(),
  city: text('shopper.address.city', 100).optional(),
  stateProvince: text('shopper.address.stateProvince', 100).optional(),
  zipCode: text('shopper.address.zipCode', 20).optional(),
  country: text('shopper.address.country', 100).optional(),
});

export const Shopper = z.strictObject({
  email: z
    .email('shopper.email must be an e-mail address.')
    .max(254)
    .check(noCardNumber('shopper.email'))
    .optional(),
  phone: z
    .string()
    .regex(/^\+?[0-9 ().-]{4,32}$/, 'shopper.phone must be a phone number.')
    .check(noCardNumber('shopper.phone'))
    .optional(),
  firstName: text('shopper.firstName', 100).optional(),
  lastName: text('shopper.lastName', 100).optional(),
  address: ShopperAddress.optional(),
});

/** A session stays payable from 1 minute to 30 days (a payment link lives longer than a checkout). */
export const MAX_EXPIRES_IN_MINUTES = 30 * 24 * 60;

export const CreateCheckoutSessionBody = z
  .strictObject({
    amount: Amount,
    currency: Currency,
    orderNumber: text('orderNumber', 64),
    shopper: Shopper.optional(),
    returnUrl: urlOf('returnUrl', 'invalid_return_url'),
    /** Back to the store without paying (issue 14 §1): the same rules as returnUrl. */
    cancelUrl: urlOf('cancelUrl', 'invalid_cancel_url').optional(),
    webhookUrl: urlOf('webhookUrl', 'invalid_webhook_url').optional(),
    locale: z
      .string()
      .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/, 'locale must be a language tag such as "en" or "fr-CA".')
      .optional(),
    /** What is bought (issue 14 §4): shown on the hosted page above the amount. */
    description: text('description', MAX_DESCRIPTION).optional(),
    lineItems: z
      .array(
        z.strictObject({
          name: text('lineItems.name', MAX_LINE_ITEM_NAME),
          quantity: z
            .number({ error: 'lineItems.quantity must be a whole number.' })
            .int('lineItems.quantity must be a whole number.')
            .min(1, 'lineItems.quantity must be at least 1.')
            .max(MAX_QUANTITY, `lineItems.quantity must be at most ${MAX_QUANTITY}.`),
          unitAmount: z
            .string({ error: 'lineItems.unitAmount must be a decimal string such as "9.99".' })
            .regex(/^\d{1,10}(\.\d{1,2})?$/, 'lineItems.unitAmount must be a decimal string such as "9.99".'),
        }),
      )
      .max(MAX_LINE_ITEMS, `lineItems has at most ${MAX_LINE_ITEMS} items.`)
      .optional(),
    expiresInMinutes: z
      .number({ error: `expiresInMinutes must be a whole number from 1 to ${MAX_EXPIRES_IN_MINUTES}.` })
      .int(`expiresInMinutes must be a whole number from 1 to ${MAX_EXPIRES_IN_MINUTES}.`)
      .min(1, `expiresInMinutes must be a whole number from 1 to ${MAX_EXPIRES_IN_MINUTES}.`)
      .max(
        MAX_EXPIRES_IN_MINUTES,
        `expiresInMinutes must be a whole number from 1 to ${MAX_EXPIRES_IN_MINUTES}.`,
      )
      .optional()
      .meta({
        description: "Minutes the session stays payable; the server's SESSION_TTL_MINUTES when absent.",
      }),
  })
  .superRefine((body, ctx) => {
    let cents: bigint | null = null;
    try {
      cents = toCents(body.amount);
    } catch {
      // amount's own schema says what is wrong with it
    }
    if (body.lineItems?.length && cents !== null) {
      const found = lineItemsProblem(body.lineItems, cents);
      if (found?.code === 'line_items_total') {
        ctx.addIssue({
          code: 'custom',
          path: ['lineItems'],
          message: found.message,
          params: { code: 'line_items_total' },
        });
      }
    }
    // Only an amount its own schema takes (cents !== null): one error per field.
    if (cents !== null && !amountFitsCurrency(body.amount, body.currency)) {
      const d = currencyDecimals(body.currency);
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message:
          d === 0
            ? `${body.currency} amounts have no decimals.`
            : `${body.currency} amounts have at most ${d} decimals.`,
        params: { code: 'invalid_amount' },
      });
    }
  });
export type CreateCheckoutSessionBody = z.infer<typeof CreateCheckoutSessionBody>;

export const CreatedCheckoutSession = z.object({
  token: z.string().meta({ description: 'The session token (`cs_…`): give it to the widget.' }),
  url: z.string().meta({ description: 'The hosted payment page: send the shopper there.' }),
  expiresAt: z.string().meta({ description: 'ISO 8601 time after which the session cannot be paid.' }),
});
export type CreatedCheckoutSession = z.infer<typeof CreatedCheckoutSession>;

export const SessionStatus = z.enum(['open', 'paid', 'expired', 'canceled']);
export type SessionStatus = z.infer<typeof SessionStatus>;

export const MerchantCheckoutSession = z.object({
  token: z.string(),
  status: SessionStatus,
  amount: z.string(),
  currency: z.string().nullable().meta({
    description: 'null for a session created over SOAP (the gateway does not report its currency).',
  }),
  orderNumber: z.string().nullable(),
  expiresAt: z.string().nullable(),
  transactionId: z.string().optional(),
  maskedCard: z.string().optional().meta({ description: 'At most the first six and last four digits.' }),
  paidAt: z.string().optional(),
});
export type MerchantCheckoutSession = z.infer<typeof MerchantCheckoutSession>;

/** Most sessions one page of the list holds, and how many when the merchant does not say. */
export const MAX_LIST_LIMIT = 100;
export const DEFAULT_LIST_LIMIT = 10;

/**
 * `GET /v1/checkout-sessions`' query (issue 14 §11): every parameter optional, each named when it is
 * wrong (a parameter given twice too), an unknown one refused rather than ignored.
 */
export const ListCheckoutSessionsQuery = z.strictObject({
  orderNumber: text('orderNumber', 64).optional().meta({ description: 'Exact match.' }),
  status: z
    .enum(SessionStatus.options, { error: 'status must be one of open, paid, expired, canceled.' })
    .optional(),
  limit: z
    .string({ error: 'limit must be a whole number from 1 to 100.' })
    .regex(/^[1-9]\d{0,2}$/, 'limit must be a whole number from 1 to 100.')
    .transform(Number)
    .refine((n) => n <= MAX_LIST_LIMIT, 'limit must be a whole number from 1 to 100.')
    .optional()
    .meta({ description: `1 to ${MAX_LIST_LIMIT}; ${DEFAULT_LIST_LIMIT} when absent.` }),
  startingAfter: z
    .string({ error: 'startingAfter must be a session token.' })
    .regex(SESSION_TOKEN_PATTERN, 'startingAfter must be a session token.')
    .optional()
    .meta({ description: "The previous page's last token: the page starts after it." }),
});
export type ListCheckoutSessionsQuery = z.infer<typeof ListCheckoutSessionsQuery>;

export const CheckoutSessionList = z.object({
  data: z.array(MerchantCheckoutSession).meta({ description: 'Newest first.' }),
  hasMore: z.boolean().meta({ description: 'More sessions follow the last one in data.' }),
});
export type CheckoutSessionList = z.infer<typeof CheckoutSessionList>;

export const FieldErrorSchema = z.object({ field: z.string(), code: z.string(), message: z.string() });

export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    requestId: z.string().optional(),
    fields: z.array(FieldErrorSchema).optional(),
  }),
});
