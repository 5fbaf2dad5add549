/**
 * The shapes the dashboard API answers (docs/dashboard.md): money as decimal strings, ids as
 * strings, times as ISO 8601. The enumerations mirror the gateway's (shared/contract/extensions.ts:
 * PaymentState, PaymentStateFilter, PaymentEventKind, PaymentMethodKind); they are listed here as
 * values because the filters and the words for them need them at run time, and importing the
 * contract would bring its schema builders into the browser.
 */

export type SecondFactor = 'EnrolmentRequired' | 'Required' | 'Verified';

/** What the user may do (UserRole). */
export type UserRole = 'Owner' | 'Admin' | 'Staff' | 'Viewer';

export interface SessionInfo {
  user: { name: string; email: string | null };
  merchant: { id: string; name?: string };
  secondFactor: SecondFactor;
  role: UserRole;
  expiresAt: string;
  idleExpiresAt: string;
}

export const PAYMENT_STATES = [
  'Authorized',
  'Approved',
  'Declined',
  'PartiallyRefunded',
  'Refunded',
  'Voided',
  'Settled',
] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

/** The list's status filter: Refunded covers partly refunded payments too. */
export const STATE_FILTERS = ['Approved', 'Declined', 'Refunded', 'Voided', 'Settled'] as const;
export type StateFilter = (typeof STATE_FILTERS)[number];

export const METHODS = ['Card', 'Ach'] as const;
export type Method = (typeof METHODS)[number];

export const EVENT_KINDS = [
  'SessionCreated',
  'ThreeDSecure',
  'Approved',
  'Declined',
  'Captured',
  'Voided',
  'Refunded',
  'Settled',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export interface Payment {
  id: string;
  kind: 'Sale' | 'Authorization';
  state: PaymentState;
  amount: string;
  approvedAmount: string;
  capturedAmount: string;
  refundedAmount: string;
  currency: string | null;
  method: Method;
  brand?: string;
  last4?: string;
  orderNumber?: string;
  customerName?: string;
  customerEmail?: string;
  responseCode?: string;
  declineReason?: string;
  createdAt: string;
}

/** The list's filters as the query carries them (`from`/`to`: YYYY-MM-DD, UTC days, `to` inclusive). */
export interface PaymentFilters {
  state?: StateFilter | '';
  method?: Method | '';
  from?: string;
  to?: string;
  q?: string;
}

export interface PaymentPage {
  payments: Payment[];
  hasMore: boolean;
}

export interface PaymentEvent {
  kind: EventKind;
  at: string;
  amount?: string;
  transactionId?: string;
  responseCode?: string;
}

export const WEBHOOK_STATUSES = ['pending', 'delivered', 'abandoned'] as const;

/** A webhook event of the payment's checkout session, and where its delivery stands. */
export interface WebhookDelivery {
  event: string;
  status: (typeof WEBHOOK_STATUSES)[number];
  attempts: number;
  createdAt: string;
  deliveredAt?: string;
  nextAttemptAt?: string;
}

export interface PaymentDetail {
  payment: Payment;
  events: PaymentEvent[];
  refundable: string;
  capturable: string;
  voidable: boolean;
  webhooks: WebhookDelivery[];
}

export interface TransactionResult {
  transactionId?: string;
  approved: boolean;
  responseCode: string | null;
  message: string;
}

export interface PaymentDay {
  date: string;
  volume: string;
  approved: number;
  declined: number;
}

export interface Overview {
  /** The figures' currency: amounts of different currencies are never added together. */
  currency: string | null;
  /** Every currency with payments in the 30 days, most payments first. */
  currencies: string[];
  today: PaymentDay | null;
  days: PaymentDay[];
}

export const LINK_STATUSES = ['Open', 'Paid', 'Expired', 'Canceled'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

export interface PaymentLink {
  token: string;
  url: string;
  amount: string;
  currency: string | null;
  orderNumber: string | null;
  email?: string;
  description?: string;
  status: LinkStatus;
  expiresAt: string;
  createdAt: string;
  transactionId?: string;
}

export interface LinkPage {
  links: PaymentLink[];
  hasMore: boolean;
}

export const EXPIRY_DAYS = [1, 7, 14, 30] as const;

export interface NewLink {
  amount: string;
  orderNumber: string;
  email?: string;
  description?: string;
  expiresInDays: (typeof EXPIRY_DAYS)[number];
}

/** An amount in one currency: amounts of several currencies are listed, never added together. */
export interface CurrencyAmount {
  currency: string | null;
  amount: string;
}

export interface Settlement {
  pendingCount: number;
  pendingTotals: CurrencyAmount[];
  batches: { id: string; settledAt: string; count: number; totals: CurrencyAmount[] }[];
}

export interface SettleResult {
  batchId?: string;
  count: number;
  totals: CurrencyAmount[];
}

/** The audit log's filters as the query carries them (`action`: a prefix; `from`/`to` as the payments'). */
export interface AuditFilters {
  action?: string;
  user?: string;
  outcome?: AuditOutcome | '';
  from?: string;
  to?: string;
}

export const AUDIT_OUTCOMES = ['Success', 'Failure', 'Info'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** One event of the audit log: who (a user's name, `anonymous` or `cli`), what, when, from where. */
export interface AuditEvent {
  id: string;
  at: string;
  actor: string;
  action: string;
  outcome: AuditOutcome;
  origin: string | null;
  subject: string | null;
  detail: { name: string; value: string }[];
}

export interface AuditPage {
  events: AuditEvent[];
  hasMore: boolean;
}
