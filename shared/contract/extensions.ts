/**
 * Payframe's extensions to the Transaction Service: operations the spec does not have, declared
 * with the same builders so the codec, WSDL (marked as extensions), help page, types and client
 * derive from them like from the spec's own.
 */
import type { EnumValue } from './enum-values.ts';
import { developersEnumerations, developersOperations, developersTypes } from './dashboard-developers.ts';
import { paymentsEnumerations, paymentsOperations, paymentsTypes } from './dashboard-payments.ts';
import { settingsEnumerations, settingsOperations, settingsTypes } from './dashboard-settings.ts';
import { teamEnumerations, teamOperations, teamTypes } from './dashboard-team.ts';
import { complexType, enumeration, field, fields, listOf, operation } from './model.ts';
import { DeclineReason, PaymentMethodKind } from './payment-enumerations.ts';
import { UserRole } from './user-role.ts';

const required = { required: true } as const;
const requiredNil = { required: true, nillable: true } as const;

/*
 * Enumerations of the checkout seam: the checkout server reads a session's and a payment's state
 * from these fields, never from message text (DESIGN.md §16). Meanings are in docs/gateway.md.
 */

/** Where a checkout session stands. */
export const CheckoutSessionStatus = enumeration('CheckoutSessionStatus', [
  'Open',
  'Paid',
  'Expired',
  'Canceled',
]);

/** What one PayCheckoutSession call came to. */
export const CheckoutPaymentOutcome = enumeration('CheckoutPaymentOutcome', [
  'Approved',
  'Declined',
  'ChallengeRequired',
  'InProgress',
  'AlreadyPaid',
  'Closed',
]);

/** Why a payment was declined, and how a session was paid: declared in payment-enumerations.ts. */
export { DeclineReason, PaymentMethodKind };

/**
 * Where the hosted page goes after a successful payment (issue 14 §9), a merchant setting: straight
 * back to the ReturnUrl (Immediate, the default, as Stripe Checkout), or the receipt stays until the
 * shopper chooses "Return to {merchant}" (Confirmation, as a payment link's confirmation page).
 */
export const CheckoutReturnMode = enumeration('CheckoutReturnMode', ['Immediate', 'Confirmation']);

// Each name is also the type of its values: `const s: CheckoutSessionStatus = 'Open'`.
export type CheckoutSessionStatus = EnumValue<typeof CheckoutSessionStatus>;
export type CheckoutPaymentOutcome = EnumValue<typeof CheckoutPaymentOutcome>;
export type CheckoutReturnMode = EnumValue<typeof CheckoutReturnMode>;

/*
 * The merchant dashboard (issue 15): a merchant user's own session and its second factor; the
 * merchant's payments, settlement and audit log are in dashboard-payments.ts. docs/dashboard.md
 * says what each means to a merchant.
 */

/** What a merchant user may do (docs/dashboard.md "Roles"): declared in user-role.ts. */
export { UserRole };

/** Where a signed-in user stands with its second factor (TOTP, RFC 6238). */
export const SecondFactorState = enumeration('SecondFactorState', [
  'EnrolmentRequired',
  'Required',
  'Verified',
]);

export type SecondFactorState = EnumValue<typeof SecondFactorState>;

export {
  AuditOutcome,
  PaymentEventKind,
  PaymentKind,
  PaymentState,
  PaymentStateFilter,
} from './dashboard-payments.ts';

/** Every enumeration of the extensions, each declared once in the WSDL. */
export const extensionEnumerations = [
  CheckoutSessionStatus,
  CheckoutPaymentOutcome,
  DeclineReason,
  PaymentMethodKind,
  CheckoutReturnMode,
  SecondFactorState,
  UserRole,
  ...paymentsEnumerations,
  ...settingsEnumerations,
  ...developersEnumerations,
  ...teamEnumerations,
] as const;

const shopperFields = [
  'OrderNumber',
  'Email',
  'FirstName',
  'LastName',
  'Address1',
  'Address2',
  'Country',
  'StateProvince',
  'City',
  'ZipCode',
  'PhoneNumber',
  'ReturnUrl',
  'WebhookUrl',
  'Locale',
  // Back to the store without paying (issue 14 §1): the same rules as ReturnUrl.
  'CancelUrl',
] as const;

// What is bought (issue 14 §4): a description and line items, shown above the amount.
const purchaseFields = [
  field('Description', 'string'),
  field('LineItems', listOf('CheckoutLineItem')),
] as const;

export const extensionTypes = [
  // All three are needed; they are checked by the session store (shared/checkout/line-items.ts),
  // which names the item at fault, rather than faulted as missing elements.
  complexType('CheckoutLineItem', [
    field('Name', 'string'),
    field('Quantity', 'int'),
    field('UnitAmount', 'decimal'),
  ]),
  complexType('HostedPaymentRequest', [
    field('MerchantID', 'long', required),
    field('TransactionKey', 'string'),
    field('Amount', 'decimal', required),
    ...fields(['Currency', ...shopperFields], 'string'),
    ...purchaseFields,
    // A payment link (the dashboard's): a session sent to one customer, listed apart from a
    // shop's checkouts (ListCheckoutSessions paymentLink).
    field('PaymentLink', 'boolean'),
    // How long the session stays payable, 1 minute to 30 days (43200); the server's default
    // (SESSION_TTL_MINUTES) when absent. A payment link lives longer than a checkout.
    field('ExpiresInMinutes', 'int'),
  ]),
  complexType('HostedPaymentResponse', [
    field('Success', 'boolean', required),
    field('Message', 'string'),
    field('Token', 'string'),
    field('Url', 'string'),
    field('ExpiresAt', 'dateTime', { required: true, nillable: true }),
    // When Success is false: the request field at fault, by its name in HostedPaymentRequest's
    // terms (`returnUrl`, `amount`, `email`…), so a caller acts on it without reading Message.
    field('ErrorField', 'string'),
  ]),
  complexType('MerchantSignature', [
    field('Success', 'boolean', required),
    field('Message', 'string'),
    // Lowercase hex HMAC-SHA256; absent when Success is false.
    field('Signature', 'string'),
    // During a roll's overlap, the same under the previous key (RollTransactionKey); else absent.
    field('PreviousKeySignature', 'string'),
  ]),
  // One answer holds all the checkout server needs of a session: no second call, no state in prose.
  complexType('CheckoutSessionDetail', [
    field('Token', 'string'),
    field('Status', CheckoutSessionStatus, required),
    // A payment claim is held on the session right now (another payment would answer InProgress).
    field('PaymentInProgress', 'boolean', required),
    // While a claim is held: the latest time the gateway settles it if its attempt does not (the
    // claim timeout, then one pass of its sweep). A caller waits until then, not longer.
    field('PaymentSettlesBy', 'dateTime'),
    field('TransactionID', 'long'), // when Paid
    field('Amount', 'decimal', required),
    field('Currency', 'string'),
    // Null when the service behind the checkout carries no expiry (the spec adapter: spec-port.ts).
    field('ExpiresAt', 'dateTime', requiredNil),
    field('CanceledAt', 'dateTime', requiredNil), // null unless Canceled (and canceled since 0015)
    field('CreatedAt', 'dateTime', required),
    ...fields(shopperFields, 'string'),
    ...purchaseFields,
    field('PaidAt', 'dateTime', requiredNil), // null unless Paid
    field('PaymentMethod', PaymentMethodKind), // when Paid
    field('ApprovalCode', 'string'),
    field('MaskedCardNumber', 'string'),
    // The card's brand as GetCardInfo names it ('Visa', 'Mastercard'…); when Paid by a card. The
    // receipt says it from this field, never from MaskedCardNumber (issue 14 §3).
    field('CardBrand', 'string'),
    // Lowercase hex HMAC-SHA256 of the redirect back; when Paid and ReturnUrl is set.
    field('RedirectSignature', 'string'),
    // The same under the previous TransactionKey, during a roll's overlap only.
    field('RedirectSignaturePrevious', 'string'),
    field('MerchantID', 'long', required),
    ...fields(['MerchantName', 'Logo', 'Website'], 'string'),
    ...fields(['AcceptsCard', 'AcceptsAch'], 'boolean', required),
    field('Origins', listOf('string')),
    field('ThreeDSecureEnrolled', 'boolean', required),
    // The merchant's checkout settings (issue 14 §9, §3), for the hosted page and the card form.
    field('ReturnMode', CheckoutReturnMode, required),
    field('NameOnCardRequired', 'boolean', required),
    field('PaymentLink', 'boolean', required), // made as a payment link
    // The merchant's webhook endpoint (issue 16, Developers): where the session is announced when it
    // has no WebhookUrl of its own.
    field('MerchantWebhookUrl', 'string'),
    // The merchant's branding (issue 16 "Settings"): #rrggbb and pixels (0–24); absent: the default.
    field('BrandColor', 'string'),
    field('CornerRadius', 'int'),
    // The merchant's terms of sale and privacy policy (https), for the page's footer; absent: none.
    field('TermsUrl', 'string'),
    field('PrivacyUrl', 'string'),
    // The card form asks for the billing postal code (the merchant's setting); absent: not asked.
    field('PostalCodeRequired', 'boolean'),
    // The merchant sends the shopper a receipt e-mail after an approved payment; absent: none.
    field('ReceiptEmail', 'boolean'),
    // A session that cannot be paid, in the words of the Transaction Service that said so (the spec
    // adapter: GetHostedPaymentDetails' Message, shown to the shopper as it is); Payframe's gateway
    // never sets it: its Status says all.
    field('UnavailableMessage', 'string'),
  ]),
  // One page of a merchant's sessions, newest first (ListCheckoutSessions).
  complexType('CheckoutSessionPage', [
    field('Sessions', listOf('CheckoutSessionDetail')),
    // More sessions follow the page's last one: ask again with startingAfter set to its Token.
    field('HasMore', 'boolean', required),
  ]),
  complexType('CheckoutPaymentResult', [
    field('Outcome', CheckoutPaymentOutcome, required),
    field('Status', CheckoutSessionStatus, required), // the session's status after the call
    field('PaymentSettlesBy', 'dateTime'), // InProgress: as in CheckoutSessionDetail
    field('TransactionID', 'long'),
    field('ResponseCode', 'string'),
    field('DeclineReason', DeclineReason),
    field('ResponseMessage', 'string'), // for people and logs only: never parsed
    field('ChallengeUrl', 'string'),
    field('ApprovalCode', 'string'),
    field('MaskedCardNumber', 'string'),
    field('CardBrand', 'string'), // as in CheckoutSessionDetail: a card's, also when declined
    field('Token', 'string'), // the saved card's token when the Request asked CreateToken
    field('PaidAt', 'dateTime', requiredNil),
    field('PaymentMethod', PaymentMethodKind),
    field('Amount', 'decimal', required),
    ...fields(['Currency', 'OrderNumber', 'ReturnUrl', 'WebhookUrl', 'RedirectSignature'], 'string'),
    field('MerchantID', 'long', required),
    field('MerchantName', 'string'),
    field('RedirectSignaturePrevious', 'string'), // as in CheckoutSessionDetail
    field('MerchantWebhookUrl', 'string'), // as in CheckoutSessionDetail
    // Where and in which language the receipt e-mail goes, as in CheckoutSessionDetail: the
    // session's shopper e-mail and locale, and whether the merchant sends receipts.
    field('Email', 'string'),
    field('Locale', 'string'),
    field('ReceiptEmail', 'boolean'),
  ]),
  // The signed-in user (a Login session token as the credential), for the dashboard.
  complexType('UserSession', [
    field('UserName', 'string'),
    field('Email', 'string'),
    field('MerchantID', 'long', required),
    field('MerchantName', 'string'),
    field('SecondFactor', SecondFactorState, required),
    field('Role', UserRole, required),
    field('ExpiresAt', 'dateTime', required), // 12 hours after the sign-in
    field('IdleExpiresAt', 'dateTime', required), // 15 minutes after the last call
  ]),
  // A new TOTP secret, pending until a code made with it is verified.
  complexType('SecondFactorSetup', [
    field('SetupKey', 'string'), // base32, as an authenticator app's "enter a setup key" takes it
    field('OtpAuthUri', 'string'), // otpauth://totp/…, what the QR code holds
  ]),
  complexType('SecondFactorResult', [
    field('Verified', 'boolean', required),
    field('Message', 'string'),
    // Ten single-use recovery codes, answered once: when the verification completed an enrolment.
    field('RecoveryCodes', listOf('string')),
  ]),
  ...paymentsTypes,
  ...settingsTypes,
  ...developersTypes,
  ...teamTypes,
] as const;

export const extensionOperationList = [
  operation({
    name: 'CreateHostedPayment',
    doc: 'Creates a checkout session and returns its token and hosted-page URL.',
    params: [field('request', 'HostedPaymentRequest')],
    result: 'HostedPaymentResponse',
    extension: true,
  }),
  // The spec has no way to take a card out of the shopper's wallet (docs/gateway-wallet-codes.md).
  operation({
    name: 'RemoveStoredCard',
    doc: "Removes a card from the shopper's wallet (checkout server only).",
    params: [field('email', 'string'), field('phoneNumber', 'string'), field('tokenGuid', 'string')],
    result: 'OperationStatus',
    extension: true,
  }),
  operation({
    name: 'CancelHostedPayment',
    doc: 'Cancels an open checkout session so it can no longer be paid (not while a payment is in progress).',
    params: [field('token', 'string')],
    result: 'OperationStatus',
    extension: true,
  }),
  // A checkout server in its own process holds no TransactionKey, yet signs redirects and webhooks
  // under it (DESIGN.md §10): the gateway signs for it, and the key never leaves the gateway.
  operation({
    name: 'SignForMerchant',
    doc: "Signs a message (UTF-8) with HMAC-SHA256 under the merchant's TransactionKey (checkout server only).",
    params: [field('merchantID', 'long', required), field('message', 'string')],
    result: 'MerchantSignature',
    extension: true,
  }),
  // The typed checkout seam (DESIGN.md §16): the session's state and a payment's outcome as fields
  // and enumerations, where GetHostedPaymentDetails and ProcessTransaction only have message text.
  operation({
    name: 'GetCheckoutSession',
    doc: 'A checkout session: status, payment and merchant settings in one answer (a merchant sees its own only).',
    params: [field('token', 'string')],
    result: 'CheckoutSessionDetail',
    extension: true,
  }),
  operation({
    name: 'PayCheckoutSession',
    doc: 'Pays a checkout session once and answers a typed outcome (checkout server only).',
    params: [field('token', 'string'), field('request', 'Request')],
    result: 'CheckoutPaymentResult',
    extension: true,
  }),
  // How the checkout learns of sessions that ended without it (SOAP-made, canceled over SOAP), to
  // announce them to the merchant's webhook: REST- and SOAP-made sessions alike.
  operation({
    name: 'ListEndedCheckoutSessions',
    doc: 'Sessions with a webhook URL that expired unpaid or were canceled in a time range (checkout server only).',
    params: [
      field('endedAfter', 'dateTime', required),
      field('endedBefore', 'dateTime', required),
      field('maxCount', 'int', required),
    ],
    result: listOf('CheckoutSessionDetail'),
    extension: true,
  }),
  // The merchant's reconciliation list (issue 14 §11), cursor-paginated like Stripe's lists: a page
  // after the session `startingAfter`, newest first; `status` as GetCheckoutSession answers it (an
  // open session past its time is Expired); `limit` 1–100, 10 when absent.
  operation({
    name: 'ListCheckoutSessions',
    doc: "The merchant's own checkout sessions, newest first, a page at a time (merchant only).",
    params: [
      field('orderNumber', 'string'),
      field('status', CheckoutSessionStatus),
      // true: only payment links; false: only the rest; absent: every session.
      field('paymentLink', 'boolean'),
      field('limit', 'int'),
      field('startingAfter', 'string'),
    ],
    result: 'CheckoutSessionPage',
    extension: true,
  }),
  // The merchant dashboard (issue 15). A Login session token is the credential
  // (`Authorization: Bearer ls_…`); until its second factor is verified, only these four answer.
  operation({
    name: 'GetUserSession',
    doc: "The signed-in user's session: who, which merchant, and where its second factor stands.",
    params: [],
    result: 'UserSession',
    extension: true,
  }),
  operation({
    name: 'BeginSecondFactorEnrolment',
    doc: 'Starts enrolling the signed-in user in a TOTP second factor (only when not enrolled).',
    params: [],
    result: 'SecondFactorSetup',
    extension: true,
  }),
  operation({
    name: 'VerifySecondFactor',
    doc: "Checks a TOTP code or a recovery code for the signed-in user's session.",
    params: [field('code', 'string')],
    result: 'SecondFactorResult',
    extension: true,
  }),
  operation({
    name: 'EndUserSession',
    doc: "Ends the signed-in user's session (signing out).",
    params: [],
    result: 'OperationStatus',
    extension: true,
  }),
  ...paymentsOperations,
  ...settingsOperations,
  ...developersOperations,
  ...teamOperations,
] as const;
