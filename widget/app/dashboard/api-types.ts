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
  /** A card payment's address check (AVS letter); absent: the address was not checked. */
  avs?: string;
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

/** The merchant's settings (GET/PUT /settings, issue 16 "Settings"); null: not set (the default). */
export interface MerchantSettings {
  merchantId: string;
  displayName: string;
  website: string | null;
  supportEmail: string | null;
  logoUrl: string | null;
  brandColor: string | null;
  cornerRadius: number | null;
  nameOnCardRequired: boolean;
  returnMode: 'immediate' | 'confirmation';
  threeDSecure: boolean;
  methods: ('card' | 'ach')[];
  origins: string[];
  /** The payment page's footer links (https); null: none. */
  termsUrl: string | null;
  privacyUrl: string | null;
  /** The card form asks for the billing postal code (off: the address is not checked). */
  postalCodeRequired: boolean;
  /** The shopper gets a receipt e-mail after paying. */
  receiptEmail: boolean;
}

/** What Save sends: the whole settings (an empty text clears its field). */
export type SettingsChange = Omit<MerchantSettings, 'merchantId'>;

/** Developers (server/dashboard/developer-routes.ts): the merchant id and the code snippets. */
export interface DevelopersInfo {
  merchantId: string;
  publicUrl: string;
  snippets: { rest: string; embed: string; redirect: string };
}

/** The TransactionKey's state, never the key: each key's last use and the overlap's end. */
export interface KeyStatus {
  lastUsedAt: string | null;
  previousValidUntil: string | null;
  previousLastUsedAt: string | null;
}

/** How long the replaced key keeps working after a roll (TransactionKeyOverlap). */
export type KeyOverlap = 'None' | 'OneHour' | 'TwentyFourHours';

/** A roll's answer: the new key, shown this once. */
export interface KeyRoll {
  transactionKey: string;
  previousValidUntil: string | null;
}

/** Webhooks (server/dashboard/webhook-routes.ts): the merchant's endpoint and secret, never the secret itself. */
export interface WebhookSettings {
  endpointUrl: string | null;
  secretCreatedAt: string | null;
  previousSecretValidUntil: string | null;
}

/** One delivery of the merchant's webhooks, and what its last attempt met. */
export interface WebhookDeliveryRow {
  id: string;
  event: string;
  status: (typeof WEBHOOK_STATUSES)[number];
  /** The last attempt's HTTP status; null before any, or when it got no answer. */
  statusCode: number | null;
  durationMs: number | null;
  attempts: number;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  error: string | null;
  url: string;
}

/** A delivery with its request body and the first 1 KB of the last answer's body. */
export interface WebhookDeliveryDetail extends WebhookDeliveryRow {
  body: string;
  responseHead: string | null;
}

export interface WebhookDeliveryPage {
  deliveries: WebhookDeliveryRow[];
  hasMore: boolean;
}

/** One user of the merchant's team (ListUsers). */
export interface TeamUser {
  id: string;
  name: string;
  email: string | null;
  role: UserRole;
  /** Enrolled in a second factor. */
  secondFactor: boolean;
  disabled: boolean;
  /** Locked out for now after ten failed sign-ins (it ends by itself). */
  locked: boolean;
  lastSignInAt: string | null;
  createdAt: string;
}

/** An invitation sent and still pending. */
export interface TeamInvitation {
  id: string;
  email: string;
  role: UserRole;
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
}

export interface Team {
  users: TeamUser[];
  invitations: TeamInvitation[];
}

/** What an invitation link is for (the acceptance page). */
export interface InvitationInfo {
  email: string;
  role: UserRole;
  merchantName: string;
  expiresAt: string;
}
