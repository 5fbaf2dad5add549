/**
 * The dashboard API's answers (docs/dashboard.md; the table in issue 15's plan), made from the
 * gateway's typed results: money as decimal strings, ids as strings, times as ISO 8601, states as
 * the contract's enumerations. Nothing here reads a message's text.
 */
import type { ValueOf } from '../../shared/contract/values.ts';
import type { WebhookDelivery } from '../checkout/webhook-deliveries.ts';

type PaymentSummary = ValueOf<'PaymentSummary'>;
type PaymentEvent = ValueOf<'PaymentEvent'>;
type PaymentDay = ValueOf<'PaymentDay'>;

export interface Payment {
  id: string;
  kind: PaymentSummary['Kind'];
  state: PaymentSummary['State'];
  amount: string;
  approvedAmount: string;
  capturedAmount: string;
  refundedAmount: string;
  currency: string | null;
  method: PaymentSummary['PaymentMethod'];
  brand?: string;
  last4?: string;
  /** A card payment's AVS letter; absent: the address was not checked. */
  avs?: string;
  orderNumber?: string;
  customerName?: string;
  customerEmail?: string;
  responseCode?: string;
  declineReason?: NonNullable<PaymentSummary['DeclineReason']>;
  batchId?: string;
  createdAt: string;
}

const iso = (value: string): string => new Date(value).toISOString();
const missing = (name: string): never => {
  throw new Error(`The gateway answered a checkout session without ${name}.`);
};

/** `{key: value}` when the value is there, `{}` otherwise (optional fields stay absent, not null). */
function some<K extends string, V>(key: K, value: V | null | undefined): { [P in K]?: V } {
  return value === null || value === undefined || value === '' ? {} : ({ [key]: value } as { [P in K]: V });
}

export function paymentView(p: PaymentSummary): Payment {
  return {
    id: p.TransactionID,
    kind: p.Kind,
    state: p.State,
    amount: p.Amount,
    approvedAmount: p.ApprovedAmount,
    capturedAmount: p.CapturedAmount,
    refundedAmount: p.RefundedAmount,
    currency: p.Currency ?? null,
    method: p.PaymentMethod,
    ...some('brand', p.CardBrand),
    ...some('last4', p.Last4),
    ...some('avs', p.AvsResponseCode),
    ...some('orderNumber', p.OrderNumber),
    ...some('customerName', p.CustomerName),
    ...some('customerEmail', p.CustomerEmail),
    ...some('responseCode', p.ResponseCode),
    ...some('declineReason', p.DeclineReason),
    ...some('batchId', p.BatchID),
    createdAt: iso(p.CreatedAt),
  };
}

export function eventView(e: PaymentEvent) {
  return {
    kind: e.Kind,
    at: iso(e.At),
    ...some('amount', e.Amount),
    ...some('transactionId', e.TransactionID),
    ...some('responseCode', e.ResponseCode),
  };
}

/** A webhook event of the payment's checkout session and where its delivery stands. */
export function webhookView(d: WebhookDelivery) {
  return {
    event: d.type,
    status: d.state,
    attempts: d.attempts,
    createdAt: d.createdAt.toISOString(),
    ...some('deliveredAt', d.deliveredAt?.toISOString()),
    ...some('nextAttemptAt', d.nextAttemptAt?.toISOString()),
  };
}

export function dayView(d: PaymentDay) {
  return { date: d.Date ?? '', volume: d.Volume, approved: d.Approved, declined: d.Declined };
}

type SessionDetail = ValueOf<'CheckoutSessionDetail'>;

/** A payment link: a checkout session of the merchant, with the address a customer pays it at. */
export function linkView(s: SessionDetail, publicUrl: string) {
  const token = s.Token ?? '';
  return {
    token,
    url: `${publicUrl}/pay/${token}`,
    amount: s.Amount,
    currency: s.Currency ?? null,
    orderNumber: s.OrderNumber ?? null,
    ...some('email', s.Email),
    ...some('description', s.Description),
    status: s.Status,
    // Payframe's gateway dates every session; only the spec adapter, which serves no dashboard, cannot.
    expiresAt: iso(s.ExpiresAt ?? missing('ExpiresAt')),
    createdAt: iso(s.CreatedAt),
    ...some('transactionId', s.TransactionID),
  };
}
export type Link = ReturnType<typeof linkView>;
