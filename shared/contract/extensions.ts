/**
 * Payframe's extensions to the Transaction Service: operations the spec does not have, declared
 * with the same builders so the codec, WSDL (marked as extensions), help page, types and client
 * derive from them like from the spec's own.
 */
import type { EnumValue } from './enum-values.ts';
import { developersEnumerations, developersOperations, developersTypes } from './dashboard-developers.ts';
import { settingsEnumerations, settingsOperations, settingsTypes } from './dashboard-settings.ts';
import { teamEnumerations, teamOperations, teamTypes } from './dashboard-team.ts';
import { complexType, enumeration, field, fields, listOf, operation } from './model.ts';
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

/** Why a payment was declined, for the shopper's message and the merchant's webhook. */
export const DeclineReason = enumeration('DeclineReason', [
  'CardDeclined',
  'InsufficientFunds',
  'PartialApproval',
  'ExpiredCard',
  'InvalidCardNumber',
  'IncorrectCvc',
  'AuthenticationFailed',
  'MethodNotAccepted',
  // The merchant asks for the name on the card (NameOnCardRequired) and the payment had none.
  'NameOnCardRequired',
  'BankDeclined',
  'InvalidAccount',
  'InvalidRoutingNumber',
  'InvalidRequest',
  'ProcessorError',
]);

/** How a session was paid. */
export const PaymentMethodKind = enumeration('PaymentMethodKind', ['Card', 'Ach']);

/**
 * Where the hosted page goes after a successful payment (issue 14 §9), a merchant setting: straight
 * back to the ReturnUrl (Immediate, the default, as Stripe Checkout), or the receipt stays until the
 * shopper chooses "Return to {merchant}" (Confirmation, as a payment link's confirmation page).
 */
export const CheckoutReturnMode = enumeration('CheckoutReturnMode', ['Immediate', 'Confirmation']);

// Each name is also the type of its values: `const s: CheckoutSessionStatus = 'Open'`.
export type CheckoutSessionStatus = EnumValue<typeof CheckoutSessionStatus>;
export type CheckoutPaymentOutcome = EnumValue<typeof CheckoutPaymentOutcome>;
export type DeclineReason = EnumValue<typeof DeclineReason>;
export type PaymentMethodKind = EnumValue<typeof PaymentMethodKind>;
export type CheckoutReturnMode = EnumValue<typeof CheckoutReturnMode>;

/*
 * The merchant dashboard (issue 15): a merchant user's own session, its second factor, and the
 * merchant's payments as fields. docs/dashboard.md says what each means to a merchant.
 */

/** What a merchant user may do (docs/dashboard.md "Roles"): declared in user-role.ts. */
export { UserRole };

/** Where a signed-in user stands with its second factor (TOTP, RFC 6238). */
export const SecondFactorState = enumeration('SecondFactorState', [
  'EnrolmentRequired',
  'Required',
  'Verified',
]);

/** A payment's state as the dashboard lists it (a sale or an authorisation and what followed it). */
export const PaymentState = enumeration('PaymentState', [
  'Authorized',
  'Approved',
  'Declined',
  'PartiallyRefunded',
  'Refunded',
  'Voided',
  'Settled',
]);

/** A payment's filter by state: Refunded covers partly refunded payments too. */
export const PaymentStateFilter = enumeration('PaymentStateFilter', [
  'Approved',
  'Declined',
  'Refunded',
  'Voided',
  'Settled',
]);

/** What happened to a payment, in its timeline. */
export const PaymentEventKind = enumeration('PaymentEventKind', [
  'SessionCreated',
  'ThreeDSecure',
  'Approved',
  'Declined',
  'Captured',
  'Voided',
  'Refunded',
  'Settled',
]);

/** A sale takes the money at once; an authorisation holds it until captured. */
export const PaymentKind = enumeration('PaymentKind', ['Sale', 'Authorization']);

/** How an audited action ended (audit_events.outcome). */
export const AuditOutcome = enumeration('AuditOutcome', ['Success', 'Failure', 'Info']);

export type SecondFactorState = EnumValue<typeof SecondFactorState>;
export type PaymentState = EnumValue<typeof PaymentState>;
export type PaymentStateFilter = EnumValue<typeof PaymentStateFilter>;
export type PaymentEventKind = EnumValue<typeof PaymentEventKind>;
export type PaymentKind = EnumValue<typeof PaymentKind>;
export type AuditOutcome = EnumValue<typeof AuditOutcome>;

/** Every enumeration of the extensions, each declared once in the WSDL. */
export const extensionEnumerations = [
  CheckoutSessionStatus,
  CheckoutPaymentOutcome,
  DeclineReason,
  PaymentMethodKind,
  CheckoutReturnMode,
  SecondFactorState,
  UserRole,
  PaymentState,
  PaymentStateFilter,
  PaymentEventKind,
  PaymentKind,
  AuditOutcome,
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
    field('ExpiresAt', 'dateTime', required),
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
  complexType('PaymentFilter', [
    field('State', PaymentStateFilter),
    field('PaymentMethod', PaymentMethodKind),
    field('CreatedFrom', 'dateTime'), // inclusive
    field('CreatedBefore', 'dateTime'), // exclusive
    // An order number, a card's or account's last four digits, an amount (12.34) or a transaction id.
    field('Search', 'string'),
    field('Limit', 'int'), // 1–100, 25 when absent
    field('StartingAfter', 'long'), // the last TransactionID of the page before
  ]),
  complexType('PaymentSummary', [
    field('TransactionID', 'long', required),
    field('Kind', PaymentKind, required),
    field('State', PaymentState, required),
    field('Amount', 'decimal', required), // what was asked
    field('ApprovedAmount', 'decimal', required),
    field('CapturedAmount', 'decimal', required),
    field('RefundedAmount', 'decimal', required),
    field('Currency', 'string'),
    field('PaymentMethod', PaymentMethodKind, required),
    field('CardBrand', 'string'),
    field('Last4', 'string'), // the card's, or the bank account's
    field('OrderNumber', 'string'),
    field('CustomerName', 'string'),
    field('CustomerEmail', 'string'),
    field('ResponseCode', 'string'),
    field('DeclineReason', DeclineReason),
    field('BatchID', 'long'),
    field('SessionToken', 'string'), // when paid through a checkout session
    field('CreatedAt', 'dateTime', required),
  ]),
  complexType('PaymentPage', [
    field('Payments', listOf('PaymentSummary')),
    field('HasMore', 'boolean', required),
  ]),
  complexType('PaymentEvent', [
    field('Kind', PaymentEventKind, required),
    field('At', 'dateTime', required),
    field('Amount', 'decimal'),
    field('TransactionID', 'long'),
    field('ResponseCode', 'string'),
  ]),
  complexType('MerchantPaymentDetail', [
    field('Payment', 'PaymentSummary'),
    field('Events', listOf('PaymentEvent')),
    field('RefundableAmount', 'decimal', required), // 0 unless a refund is possible now
    // Where a refund goes (OriginalTransactionID): the sale itself, or an authorisation's newest
    // capture with something left to refund; absent when nothing can be refunded.
    field('RefundTransactionID', 'long'),
    field('CapturableAmount', 'decimal', required), // 0 unless an authorisation can be captured
    field('Voidable', 'boolean', required), // approved, not settled, nothing refunded
  ]),
  complexType('PaymentDay', [
    field('Date', 'string'), // YYYY-MM-DD in UTC
    field('Volume', 'decimal', required), // approved sales and captures, refunds not taken off
    field('Approved', 'int', required),
    field('Declined', 'int', required),
  ]),
  // The figures of one currency: amounts of different currencies are never added together.
  complexType('PaymentOverview', [
    field('Currency', 'string'), // the figures' currency (ISO 4217)
    field('Today', 'PaymentDay', required), // always answered, also on a day without payments
    field('Days', listOf('PaymentDay')), // the last 30 days, oldest first, today last
    // Every currency the merchant took payments in over the 30 days, most payments first.
    field('Currencies', listOf('string')),
  ]),
  // An amount in one currency: totals of several currencies are listed, never added together.
  complexType('CurrencyAmount', [field('Currency', 'string'), field('Amount', 'decimal', required)]),
  complexType('SettlementBatch', [
    field('BatchID', 'long', required),
    field('SettledAt', 'dateTime', required),
    field('TransactionCount', 'int', required),
    field('Totals', listOf('CurrencyAmount')), // the net per currency, by currency code
  ]),
  complexType('SettlementSummary', [
    field('PendingCount', 'int', required),
    field('PendingTotals', listOf('CurrencyAmount')), // the net per currency, by currency code
    field('Batches', listOf('SettlementBatch')), // newest first, at most 50
  ]),
  // The audit log's filter (ListAuditEvents): every field narrows, none required.
  complexType('AuditEventFilter', [
    field('ActionPrefix', 'string'), // "operation." or "user.login", matched from the start
    field('UserName', 'string'), // events by or about this user of the merchant
    field('Outcome', AuditOutcome),
    field('OccurredFrom', 'dateTime'), // inclusive
    field('OccurredBefore', 'dateTime'), // exclusive
    field('Limit', 'int'), // 1–100, 25 when absent
    field('StartingAfter', 'long'), // the last EventID of the page before
  ]),
  // One of an event's detail fields, its value as text (a number or a boolean written out).
  complexType('AuditDetailField', [field('Name', 'string', required), field('Value', 'string', required)]),
  complexType('AuditEventEntry', [
    field('EventID', 'long', required),
    field('OccurredAt', 'dateTime', required),
    // The acting user's name, or "anonymous" (a sign-in not yet made), or "cli" (an operator).
    field('Actor', 'string', required),
    field('Action', 'string', required), // user.login, operation.ProcessTransaction, …
    field('Outcome', AuditOutcome, required),
    field('Origin', 'string'), // the caller's address
    field('Subject', 'string'), // the user the event is about, when another than the actor
    field('Detail', listOf('AuditDetailField')), // by name
  ]),
  complexType('AuditEventPage', [
    field('Events', listOf('AuditEventEntry')),
    field('HasMore', 'boolean', required),
  ]),
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
  operation({
    name: 'ListPayments',
    doc: "The merchant's payments (sales and authorisations), newest first, a page at a time (merchant only).",
    params: [field('filter', 'PaymentFilter')],
    result: 'PaymentPage',
    extension: true,
  }),
  operation({
    name: 'GetPayment',
    doc: 'One payment of the merchant with its timeline and what may still be done to it (merchant only).',
    params: [field('transactionID', 'long', required)],
    result: 'MerchantPaymentDetail',
    extension: true,
  }),
  operation({
    name: 'GetPaymentOverview',
    doc: "The merchant's volume, approvals and declines per day over the last 30 days, in one currency (merchant only).",
    // The currency of the figures; absent: the one with the most payments in the 30 days.
    params: [field('currency', 'string')],
    result: 'PaymentOverview',
    extension: true,
  }),
  operation({
    name: 'GetSettlementSummary',
    doc: "What awaits settlement and the merchant's latest settled batches (merchant only).",
    params: [],
    result: 'SettlementSummary',
    extension: true,
  }),
  operation({
    name: 'ListAuditEvents',
    doc: "The audit log of the merchant's users, newest first, a page at a time (merchant only).",
    params: [field('filter', 'AuditEventFilter')],
    result: 'AuditEventPage',
    extension: true,
  }),
  ...settingsOperations,
  ...developersOperations,
  ...teamOperations,
] as const;
