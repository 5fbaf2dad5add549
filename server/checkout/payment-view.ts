/**
 * A payment as the merchant REST API answers it (shared/checkout/payment-schemas.ts), made from the
 * gateway's typed PaymentSummary and GetPayment answer: money as decimal strings, ids as strings,
 * states from the contract's enumeration, never from a message's text. No card number beyond its
 * last four digits is in either, and no CVV at all.
 */
import type { MerchantPayment, PaymentStatus } from '../../shared/checkout/payment-schemas.ts';
import type { PaymentState } from '../../shared/contract/extensions.ts';
import type { OperationResult } from '../../shared/contract/service.ts';
import type { ValueOf } from '../../shared/contract/values.ts';

type Summary = ValueOf<'PaymentSummary'>;

export const STATUS: Record<PaymentState, PaymentStatus> = {
  Authorized: 'authorized',
  Approved: 'approved',
  Declined: 'declined',
  PartiallyRefunded: 'partially_refunded',
  Refunded: 'refunded',
  Voided: 'voided',
  Settled: 'settled',
};

/** ISO 8583 codes that approve: 00, and 10 (partially approved). */
const APPROVED = new Set(['00', '10']);

const iso = (value: string): string => new Date(value).toISOString();
const orNull = (value: string | null | undefined): string | null => (value ? value : null);

function accountTypeOf(value: string | null | undefined): 'checking' | 'savings' | null {
  const t = value?.toLowerCase();
  return t === 'checking' || t === 'savings' ? t : null;
}

export function summaryView(p: Summary): MerchantPayment {
  return {
    id: p.TransactionID,
    kind: p.Kind === 'Sale' ? 'sale' : 'authorization',
    status: STATUS[p.State],
    amount: p.Amount,
    amountApproved: p.ApprovedAmount,
    amountCaptured: p.CapturedAmount,
    amountRefunded: p.RefundedAmount,
    currency: orNull(p.Currency),
    method:
      p.PaymentMethod === 'Ach'
        ? {
            type: 'ach_debit',
            accountType: accountTypeOf(p.AccountType),
            last4: orNull(p.Last4),
            settlement: 'days',
          }
        : { type: 'card', brand: orNull(p.CardBrand), last4: orNull(p.Last4) },
    customer: { email: orNull(p.CustomerEmail), name: orNull(p.CustomerName) },
    sessionToken: orNull(p.SessionToken),
    orderNumber: orNull(p.OrderNumber),
    checks: { avs: orNull(p.AvsResponseCode) },
    ...(p.DeclineReason ? { declineReason: p.DeclineReason } : {}),
    createdAt: iso(p.CreatedAt),
  };
}

/** One payment with what only its detail carries: its refunds and whether 3-D Secure took part. */
export function merchantPaymentView(d: OperationResult<'GetPayment'>): MerchantPayment {
  const view = summaryView(d.Payment!);
  const events = d.Events ?? [];
  view.checks.threeDSecure = events.some((e) => e.Kind === 'ThreeDSecure');
  view.refunds = events
    .filter((e) => e.Kind === 'Refunded' && e.TransactionID && e.Amount && APPROVED.has(e.ResponseCode ?? ''))
    .map((e) => ({ id: e.TransactionID!, amount: e.Amount!, createdAt: iso(e.At) }));
  return view;
}
