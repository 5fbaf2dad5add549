/**
 * The typed seam between the checkout and the gateway (DESIGN.md §16): GetCheckoutSession,
 * PayCheckoutSession and ListEndedCheckoutSessions answer in fields and enumerations, never in
 * prose. A paid session's answer carries its redirect signature, made here under the merchant's
 * TransactionKey, so the checkout never needs the key nor a second call to sign (DESIGN.md §10).
 */
import crypto from 'node:crypto';
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from '../../../shared/checkout/session-schemas.ts';
import { canonicalRedirectString, redirectParams } from '../../../shared/checkout/redirect-signature.ts';
import { declineReasonOf } from '../../../shared/contract/decline-reasons.ts';
import type { OperationParams, OperationResult } from '../../../shared/contract/service.ts';
import { fromCents } from '../../../shared/money.ts';
import { PayframeError } from '../../errors.ts';
import type { GatewayCall, GatewayDeps } from '../gateway-call.ts';
import { claimSettlesBy } from '../payments/claim-sweep.ts';
import { paySessionSale } from '../payments/session-sale.ts';
import type { SessionStatus } from '../sessions/checkout-session-store.ts';
import {
  endedSessionRecords,
  merchantSessionCursor,
  merchantSessionRecords,
  readSessionRecord,
  type SessionPayment,
  type SessionRecord,
} from '../sessions/session-record.ts';
import { sourceSummary } from '../payments/payment-source.ts';
import { saveCardAfterSale } from './process-transaction.ts';
import { requireService } from './wallet-operations.ts';

type Detail = OperationResult<'GetCheckoutSession'>;
type ListParams = OperationParams<'ListCheckoutSessions'>;
type PayResult = OperationResult<'PayCheckoutSession'>;

const STATUS: Record<SessionStatus, Detail['Status']> = {
  open: 'Open',
  paid: 'Paid',
  expired: 'Expired',
  canceled: 'Canceled',
};

const METHOD = { card: 'Card', ach: 'Ach' } as const;

/**
 * Lowercase hex HMAC-SHA256 of the paid redirect's canonical string under the merchant's key; and
 * during a roll's overlap under the previous key too (docs/merchant-guide.md "Rolling your
 * TransactionKey"): both read with the session, no statement more.
 */
function redirectSignatures(
  deps: GatewayDeps,
  record: SessionRecord,
  payment: SessionPayment,
): { RedirectSignature?: string; RedirectSignaturePrevious?: string } {
  if (!record.session.returnUrl) return {};
  const text = canonicalRedirectString(
    redirectParams({
      token: record.session.token,
      transactionId: payment.transactionId,
      orderNumber: record.session.orderNumber,
      amount: fromCents(record.session.amountCents),
      currency: record.session.currency,
      paidAt: payment.paidAt,
    }),
  );
  const sign = (key: string) => crypto.createHmac('sha256', key).update(text, 'utf8').digest('hex');
  const previous = deps.merchants.previousKeyOf(record, deps.now());
  return {
    RedirectSignature: sign(deps.merchants.transactionKeyOf(record.keyEnc)),
    ...(previous === null ? {} : { RedirectSignaturePrevious: sign(previous) }),
  };
}

function paymentFields(deps: GatewayDeps, record: SessionRecord, payment: SessionPayment | null) {
  if (!payment) return { PaidAt: null };
  return {
    TransactionID: payment.transactionId,
    PaidAt: payment.paidAt.toISOString(),
    PaymentMethod: METHOD[payment.method],
    ApprovalCode: payment.approvalCode ?? undefined,
    MaskedCardNumber: payment.maskedCard ?? undefined,
    CardBrand: payment.cardBrand ?? undefined,
    ...redirectSignatures(deps, record, payment),
  };
}

function snapshot(record: SessionRecord) {
  const { session: s, merchant: m } = record;
  return {
    Amount: fromCents(s.amountCents),
    Currency: s.currency,
    OrderNumber: s.orderNumber ?? undefined,
    ReturnUrl: s.returnUrl ?? undefined,
    WebhookUrl: s.webhookUrl ?? undefined,
    MerchantWebhookUrl: record.merchantWebhookUrl ?? undefined,
    MerchantID: m.id,
    MerchantName: m.businessName ?? m.name,
    // Where the receipt e-mail goes, in which language, and whether the merchant sends one.
    Email: s.email ?? undefined,
    Locale: s.locale ?? undefined,
    ReceiptEmail: m.receiptEmail,
  };
}

function settlesBy(deps: GatewayDeps, record: SessionRecord) {
  return record.claimedAt ? { PaymentSettlesBy: claimSettlesBy(deps, record.claimedAt).toISOString() } : {};
}

export function sessionDetail(deps: GatewayDeps, record: SessionRecord): Detail {
  const { session: s, merchant: m } = record;
  return {
    Token: s.token,
    Status: STATUS[s.status],
    // Also once the session's time ran out: a claim taken before then may still turn out charged
    // (the gateway's claim sweep settles it), so the session's end is not yet known.
    PaymentInProgress: record.claimed && (s.status === 'open' || s.status === 'expired'),
    ...settlesBy(deps, record),
    ...snapshot(record),
    CancelUrl: s.cancelUrl ?? undefined,
    Description: s.description ?? undefined,
    LineItems: s.lineItems?.map((i) => ({ Name: i.name, Quantity: i.quantity, UnitAmount: i.unitAmount })),
    ExpiresAt: s.expiresAt.toISOString(),
    CanceledAt: s.canceledAt?.toISOString() ?? null,
    CreatedAt: s.createdAt.toISOString(),
    Email: s.email ?? undefined,
    FirstName: s.firstName ?? undefined,
    LastName: s.lastName ?? undefined,
    Address1: s.address1 ?? undefined,
    Address2: s.address2 ?? undefined,
    Country: s.country ?? undefined,
    StateProvince: s.stateProvince ?? undefined,
    City: s.city ?? undefined,
    ZipCode: s.zipCode ?? undefined,
    PhoneNumber: s.phoneNumber ?? undefined,
    Locale: s.locale ?? undefined,
    ...paymentFields(deps, record, record.payment),
    Logo: m.logoUrl ?? undefined,
    Website: m.website ?? undefined,
    AcceptsCard: m.paymentMethods.includes('card'),
    AcceptsAch: m.paymentMethods.includes('ach'),
    Origins: m.origins,
    ThreeDSecureEnrolled: m.threeDsEnrolled,
    ReturnMode: m.returnMode === 'confirmation' ? 'Confirmation' : 'Immediate',
    PaymentLink: s.paymentLink,
    NameOnCardRequired: m.nameOnCardRequired,
    BrandColor: m.brandColor ?? undefined,
    CornerRadius: m.cornerRadius ?? undefined,
    TermsUrl: m.termsUrl ?? undefined,
    PrivacyUrl: m.privacyUrl ?? undefined,
    PostalCodeRequired: m.postalCodeRequired,
  };
}

const NOT_FOUND = 'This checkout session does not exist.';

/** The checkout server sees every session; a merchant its own only (anyone else's: not found). */
export async function getCheckoutSession(
  params: OperationParams<'GetCheckoutSession'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<Detail> {
  const record = await readSessionRecord(deps.db, deps, params.token?.trim() ?? '');
  const visible =
    record && (call.principal.kind !== 'merchant' || call.principal.merchantId === record.session.merchantId);
  if (!record || !visible) throw new PayframeError('not_found', NOT_FOUND);
  return sessionDetail(deps, record);
}

/**
 * Pays the session once, as a sale (DESIGN.md §8), and says what happened as an Outcome. The
 * session's own fields come with every answer the checkout records (amount, order, merchant,
 * webhook URL), so it needs no read of its own before or after.
 */
export async function payCheckoutSession(
  params: OperationParams<'PayCheckoutSession'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<PayResult> {
  requireService(call.principal, 'PayCheckoutSession');
  const r = params.request;
  if (!r) throw new PayframeError('invalid_request', 'The request element is required.');
  const method = r.IsAchTransaction ? 'ach' : 'card';
  const token = params.token?.trim() ?? '';
  if (r.IsRecurring || (r.TransactionType?.trim() && r.TransactionType.trim().toLowerCase() !== 'sale')) {
    throw new PayframeError('invalid_request', 'A checkout session is paid by a sale, without a schedule.');
  }
  const out = await paySessionSale(deps, 'sale', r, token, null);
  switch (out.kind) {
    case 'not_found':
      throw new PayframeError('not_found', NOT_FOUND);
    case 'in_progress':
      return {
        Outcome: 'InProgress',
        Status: 'Open',
        ...settlesBy(deps, out.record),
        ...snapshot(out.record),
        PaidAt: null,
      };
    case 'unavailable': {
      const record = out.record;
      if (record.session.status === 'paid') {
        return {
          Outcome: 'AlreadyPaid',
          Status: 'Paid',
          ...snapshot(record),
          ...paymentFields(deps, record, record.payment),
        };
      }
      return { Outcome: 'Closed', Status: STATUS[record.session.status], ...snapshot(record), PaidAt: null };
    }
    case 'refused': {
      const { responseCode, message, reason } = out.problem;
      return {
        ...declined(out.record, responseCode, message, method, false),
        ...(reason ? { DeclineReason: reason } : {}),
      };
    }
    case 'done':
      break;
  }
  const { record, sale } = out;
  const summary = sourceSummary(sale.source);
  if (!sale.row) {
    return {
      Outcome: 'ChallengeRequired',
      Status: 'Open',
      ...snapshot(record),
      ResponseCode: sale.result.responseCode,
      ResponseMessage: sale.result.responseMessage,
      ChallengeUrl: sale.challengeUrl,
      MaskedCardNumber: summary.masked,
      CardBrand: summary.brand ?? undefined,
      PaidAt: null,
    };
  }
  const row = sale.row;
  if (!sale.result.approved) {
    return {
      ...declined(record, row.responseCode, row.responseMessage, method, !!sale.detail),
      TransactionID: row.id,
      MaskedCardNumber: summary.masked,
      CardBrand: summary.brand ?? undefined,
    };
  }
  const payment: SessionPayment = {
    transactionId: row.id,
    paidAt: row.createdAt,
    method: sale.source.kind,
    approvalCode: row.approvalCode,
    maskedCard: summary.masked,
    cardBrand: summary.brand,
  };
  // "Save this card" puts the card in the wallet of the session's e-mail, the address the page shows
  // beside the checkbox — and only that one; without an e-mail nothing is saved.
  const email = record.session.email;
  const savedToken =
    r.CreateToken && email
      ? await saveCardAfterSale(deps, sale, { ...r, Email: email, Phone: undefined })
      : null;
  return {
    Outcome: 'Approved',
    Status: 'Paid',
    ...snapshot(record),
    ResponseCode: row.responseCode,
    ...paymentFields(deps, record, payment),
    ...(savedToken ? { Token: savedToken } : {}),
  };
}

function declined(
  record: SessionRecord,
  code: string,
  message: string,
  method: 'card' | 'ach',
  partial: boolean,
): PayResult {
  return {
    Outcome: 'Declined',
    Status: 'Open',
    ...snapshot(record),
    ResponseCode: code,
    DeclineReason: declineReasonOf(code, method, partial),
    ResponseMessage: message,
    PaidAt: null,
  };
}

/** Most sessions one ListEndedCheckoutSessions answer holds. */
export const MAX_ENDED_SESSIONS = 100;

/**
 * Sessions with a webhook URL that ended (expired unpaid, or canceled) in [endedAfter, endedBefore),
 * in the order they ended, for the checkout's announcements: REST- and SOAP-made sessions alike.
 */
export async function listEndedCheckoutSessions(
  params: OperationParams<'ListEndedCheckoutSessions'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'ListEndedCheckoutSessions'>> {
  requireService(call.principal, 'ListEndedCheckoutSessions');
  const after = new Date(params.endedAfter);
  const before = new Date(params.endedBefore);
  if (Number.isNaN(after.getTime()) || Number.isNaN(before.getTime()))
    throw new PayframeError('invalid_request', 'endedAfter and endedBefore must be dates.');
  const limit = Math.min(Math.max(1, params.maxCount), MAX_ENDED_SESSIONS);
  const records = await endedSessionRecords(deps.db, deps, after, before, limit);
  return records.map((record) => sessionDetail(deps, record));
}

const STATUS_FILTER: Record<NonNullable<ListParams['status']>, SessionStatus> = {
  Open: 'open',
  Paid: 'paid',
  Expired: 'expired',
  Canceled: 'canceled',
};

/**
 * A page of the calling merchant's own sessions, newest first, after the session `startingAfter`.
 * Only a merchant lists (principal.ts), and only its own: a cursor naming anyone else's session is
 * not found, exactly like one naming no session, so the list never tells them apart.
 */
export async function listCheckoutSessions(
  params: ListParams,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'ListCheckoutSessions'>> {
  const principal = call.principal;
  if (principal.kind !== 'merchant')
    throw new PayframeError('forbidden', "ListCheckoutSessions lists a merchant's own sessions.");
  const limit = params.limit ?? DEFAULT_LIST_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT)
    throw new PayframeError('invalid_request', `limit must be from 1 to ${MAX_LIST_LIMIT}.`);
  const startingAfter = params.startingAfter?.trim();
  const after = startingAfter
    ? await merchantSessionCursor(deps.db, principal.merchantId, startingAfter)
    : null;
  if (startingAfter && !after) throw new PayframeError('not_found', NOT_FOUND);
  const page = await merchantSessionRecords(deps.db, deps, {
    merchantId: principal.merchantId,
    status: params.status ? STATUS_FILTER[params.status] : null,
    orderNumber: params.orderNumber ?? null,
    paymentLink: params.paymentLink ?? null,
    after,
    limit,
  });
  return { Sessions: page.records.map((record) => sessionDetail(deps, record)), HasMore: page.hasMore };
}
