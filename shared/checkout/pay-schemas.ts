/**
 * Checkout API schemas for the widget and the hosted page (`/api/checkout/…`): the session as the
 * shopper sees it, the pay request, and its answers. The amount and the merchant never come from
 * the browser (DESIGN.md §7): the pay body has no amount, and unknown keys are refused.
 */
import { z } from 'zod';
import { AccountNumber, AccountType, CardExpiry, CardNumber, Cvv, RoutingNumber, text } from './fields.ts';
import { SessionStatus } from './session-schemas.ts';

/**
 * 3-D Secure: the values of an answered challenge (docs/3ds-sandbox.md), read by the widget from
 * `{challengeUrl}/result.json` and sent with the same payment again. The gateway checks them against
 * the merchant, card, amount and this checkout session, and accepts one result for one transaction.
 */
export const ThreeDSecureResult = z.strictObject({
  cavv: z.string().regex(/^[A-Za-z0-9+/=]{1,64}$/, 'threeDSecure.cavv is not valid.'),
  eci: z.string().regex(/^\d{2}$/, 'threeDSecure.eci is not valid.'),
  xid: z.string().regex(/^[A-Za-z0-9+/=]{1,64}$/, 'threeDSecure.xid is not valid.'),
  dsTransactionId: z.string().regex(/^[0-9a-fA-F-]{36}$/, 'threeDSecure.dsTransactionId is not valid.'),
});
export type ThreeDSecureResult = z.infer<typeof ThreeDSecureResult>;

export const CardPayment = z.strictObject({
  method: z.literal('card'),
  card: z.strictObject({
    number: CardNumber,
    expiry: CardExpiry,
    cvv: Cvv,
    /** Asked only when the merchant requires it (WidgetSession.nameOnCardRequired, issue 14 §3). */
    name: text('card.name', 100).optional(),
  }),
  billing: z.strictObject({ zip: text('billing.zip', 20) }).optional(),
  /** Store the card in the shopper's wallet (the session's e-mail/phone) after an approval. */
  saveCard: z.boolean().optional(),
  threeDSecure: ThreeDSecureResult.optional(),
});

/**
 * A card from the shopper's wallet, unlocked by a one-time code: the wallet credential travels in
 * the `x-payframe-wallet` header, the CVV is typed again (DESIGN.md §9).
 */
export const SavedCardPayment = z.strictObject({
  method: z.literal('saved'),
  tokenGuid: z
    .string({ error: 'tokenGuid must be text.' })
    .regex(/^[0-9a-f-]{36}$/i, 'tokenGuid is not valid.'),
  cvv: Cvv,
  threeDSecure: ThreeDSecureResult.optional(),
});

export const AchPayment = z.strictObject({
  method: z.literal('ach'),
  ach: z.strictObject({
    routingNumber: RoutingNumber,
    accountNumber: AccountNumber,
    accountType: AccountType,
    nameOnAccount: text('ach.nameOnAccount', 100),
    authorized: z.literal(true, { error: 'Please authorize the debit from your account.' }),
  }),
});

export const PayBody = z.discriminatedUnion('method', [CardPayment, AchPayment, SavedCardPayment], {
  error: "method must be 'card', 'ach' or 'saved'.",
});
export type PayBody = z.infer<typeof PayBody>;

export const PaymentMethodName = z.enum(['card', 'ach']);

/** What the shopper sees after paying: never more than the last four digits. */
export const Receipt = z.object({
  status: z.literal('succeeded'),
  transactionId: z.string().nullable().meta({ description: 'null only if the gateway did not report it.' }),
  approvalCode: z.string().nullable(),
  maskedCard: z
    .string()
    .nullable()
    .meta({ description: 'Last four digits only, e.g. "•••• 4242" (of the bank account for ACH).' }),
  cardBrand: z.string().nullable().meta({
    description: "The card's brand ('Visa', 'Mastercard'…) for a card payment; null for a bank account.",
  }),
  method: PaymentMethodName.nullable().meta({
    description: 'card or ach (an ACH debit is still processing when the receipt is shown).',
  }),
  amount: z.string(),
  currency: z.string().nullable(),
  orderNumber: z.string().nullable(),
  merchantName: z.string().nullable(),
  paidAt: z.string(),
  cardSaved: z.boolean().optional().meta({
    description:
      "true when the payment also saved the card to the wallet of the session's shopper e-mail (`saveCard`).",
  }),
});
export type Receipt = z.infer<typeof Receipt>;

/** The field a decline concerns, so the page marks it: the CVC, the expiry, the number, a bank number. */
export const DeclinedField = z.enum([
  'card.number',
  'card.expiry',
  'card.cvv',
  'ach.accountNumber',
  'ach.routingNumber',
]);
export type DeclinedField = z.infer<typeof DeclinedField>;

export const PaySucceeded = z.object({
  status: z.enum(['succeeded', 'already_paid']),
  receipt: Receipt,
  redirectUrl: z
    .string()
    .nullable()
    .meta({ description: 'The signed ReturnUrl; null when the session has none.' }),
});

export const PayDeclined = z.object({
  status: z.literal('declined'),
  code: z.string().meta({ description: 'The gateway ResponseCode (docs/test-cards.md "Response codes").' }),
  message: z.string(),
  field: DeclinedField.nullable().optional().meta({
    description:
      'The one field the decline concerns (an incorrect CVC, an expired card, a wrong number or bank number); null when it concerns none.',
  }),
});

export const PayRequiresAction = z.object({
  status: z.literal('requires_action'),
  challengeUrl: z.string().meta({ description: '3-D Secure: the challenge page to show the shopper.' }),
  resultUrl: z.string().meta({
    description:
      'Poll it (GET, JSON `{status, cavv, eci, xid, dsTransactionId}`); once `authenticated`, pay again with the same details plus `threeDSecure` and a new Idempotency-Key.',
  }),
});

export const PayResponse = z.union([PaySucceeded, PayDeclined, PayRequiresAction]);
export type PayResponse = z.infer<typeof PayResponse>;

/** POST /api/checkout/sessions/:token/cancel: the shopper gave up; the session can no longer be paid. */
export const CancelResponse = z.object({ status: z.literal('canceled') });

export const WidgetSession = z.object({
  token: z.string(),
  status: SessionStatus,
  amount: z.string(),
  currency: z.string().nullable(),
  orderNumber: z.string().nullable(),
  expiresAt: z.string().nullable(),
  merchant: z.object({
    name: z.string().nullable(),
    logoUrl: z.string().nullable(),
    website: z.string().nullable(),
    brandColor: z.string().nullable().meta({
      description: "The merchant's brand colour (#rrggbb) for the Pay button and accents; null: the default.",
    }),
    cornerRadius: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The merchant's corner radius in pixels (0–24); null: the default." }),
    termsUrl: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "The merchant's terms of sale (http or https), linked in the page's footer." }),
    privacyUrl: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "The merchant's privacy policy (http or https), linked in the page's footer." }),
  }),
  methods: z.array(PaymentMethodName),
  locale: z.string().nullable().meta({ description: 'The locale the merchant chose for the session.' }),
  embedOrigins: z.array(z.string()).meta({
    description:
      "The merchant's registered origins: the only pages that may frame the checkout and receive its events.",
  }),
  threeDSecure: z
    .boolean()
    .meta({ description: 'The merchant is enrolled: a card may ask for a challenge.' }),
  returnMode: z.enum(['immediate', 'confirmation']).meta({
    description:
      'After a successful payment on the hosted page: straight back to the return URL (immediate), or the receipt until the shopper chooses to return (confirmation). An embedded form never navigates.',
  }),
  postalCode: z.enum(['required', 'hidden']).optional().meta({
    description:
      'The merchant asks for the billing postal code (required) or not (hidden: the address is not checked); absent: hidden.',
  }),
  nameOnCardRequired: z.boolean().meta({
    description:
      'The merchant asks for the name on the card: the card form shows it and a card payment needs card.name.',
  }),
  shopper: z.object({
    email: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    zipCode: z.string().nullable(),
  }),
  description: z.string().nullable(),
  lineItems: z
    .array(z.object({ name: z.string(), quantity: z.number().int(), unitAmount: z.string() }))
    .nullable(),
  backUrl: z.string().nullable().meta({
    description:
      "Back to the store without paying: the session's cancelUrl, else its returnUrl's origin; null when it has neither.",
  }),
  /** Only for a paid session: what the shopper saw, so a reload shows the receipt again. */
  receipt: Receipt.optional(),
  redirectUrl: z.string().nullable().optional(),
  unavailableMessage: z.string().nullable().optional().meta({
    description:
      'When the session cannot be paid and the Transaction Service said why (spec mode): its own words, shown to the shopper as they are.',
  }),
  capabilities: z
    .object({
      cancel: z
        .boolean()
        .meta({ description: 'false: the shopper cannot cancel the session (spec mode has no cancel).' }),
      removeSavedCard: z
        .boolean()
        .meta({ description: 'false: saved cards cannot be removed from the page.' }),
    })
    .optional()
    .meta({ description: 'What this checkout can do for the session; absent: everything.' }),
});
export type WidgetSession = z.infer<typeof WidgetSession>;

/** Headers every state-changing checkout call carries (security-requirements.md CSRF-1). */
export const CLIENT_HEADER = 'x-payframe-client';
export const CLIENT_HEADER_VALUE = 'widget';
