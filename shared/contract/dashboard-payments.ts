/**
 * The merchant dashboard's payments extensions (issue 15): the merchant's payments and their
 * timelines, the 30-day overview, settlement and the audit log of its users.
 * Declared with the contract's builders (model.ts); extensions.ts adds them to the extension lists,
 * so the WSDL, codec, help page and types derive from them. docs/dashboard.md says what each means.
 */
import type { EnumValue } from './enum-values.ts';
import { complexType, enumeration, field, listOf, operation } from './model.ts';
import { DeclineReason, PaymentMethodKind } from './payment-enumerations.ts';

const required = { required: true } as const;

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

/**
 * A payment's filter by state: Refunded covers partly refunded payments too. The last three, added
 * for the merchant REST API's `status`, each name one PaymentState: an authorisation not captured,
 * a payment refunded in part, one refunded in full.
 */
export const PaymentStateFilter = enumeration('PaymentStateFilter', [
  'Approved',
  'Declined',
  'Refunded',
  'Voided',
  'Settled',
  'Authorized',
  'PartiallyRefunded',
  'FullyRefunded',
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

export type PaymentState = EnumValue<typeof PaymentState>;
export type PaymentStateFilter = EnumValue<typeof PaymentStateFilter>;
export type PaymentEventKind = EnumValue<typeof PaymentEventKind>;
export type PaymentKind = EnumValue<typeof PaymentKind>;
export type AuditOutcome = EnumValue<typeof AuditOutcome>;

/** The enumerations of this part, each declared once in the WSDL. */
export const paymentsEnumerations = [
  PaymentState,
  PaymentStateFilter,
  PaymentEventKind,
  PaymentKind,
  AuditOutcome,
] as const;

/** The complex types of this part. */
export const paymentsTypes = [
  complexType('PaymentFilter', [
    field('State', PaymentStateFilter),
    field('PaymentMethod', PaymentMethodKind),
    field('CreatedFrom', 'dateTime'), // inclusive
    field('CreatedBefore', 'dateTime'), // exclusive
    // An order number, a card's or account's last four digits, an amount (12.34) or a transaction id.
    field('Search', 'string'),
    field('Limit', 'int'), // 1–100, 25 when absent
    field('StartingAfter', 'long'), // the last TransactionID of the page before
    // Appended, optional (the merchant REST API's filters): each an exact match, any case.
    field('OrderNumber', 'string'),
    field('Email', 'string'), // the checkout session's shopper e-mail
    field('Currency', 'string'), // ISO 4217
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
    // Appended, optional (older clients read the type as before): a card payment's address check
    // (AVS), the processor's letter (Y, Z, A, N, U, R, S), absent when the address was not checked
    // (the merchant does not ask for the postal code); a bank account's type (checking, savings).
    field('AvsResponseCode', 'string'),
    field('AccountType', 'string'),
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
] as const;

/** The operations of this part (each with `extension: true`). */
export const paymentsOperations = [
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
] as const;
