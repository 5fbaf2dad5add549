/**
 * The merchant dashboard's reads (issue 15; docs/gateway.md "Payments for the dashboard"):
 * ListPayments, GetPayment, GetPaymentOverview and GetSettlementSummary. A merchant only — its
 * credential, or a user whose second factor is verified — and its own payments only: another
 * merchant's transaction id is not found, exactly like one that names nothing. What may still be
 * done to a payment is the gateway's own follow-on rules (follow-on.ts), never a second copy.
 */
import type { PaymentState, PaymentStateFilter } from '../../../shared/contract/extensions.ts';
import type { OperationParams, OperationResult } from '../../../shared/contract/service.ts';
import type { ValueOf } from '../../../shared/contract/values.ts';
import { fromCents, toCents } from '../../../shared/money.ts';
import { PayframeError } from '../../errors.ts';
import type { GatewayCall, GatewayDeps } from '../gateway-call.ts';
import { remainingFor } from '../payments/follow-on.ts';
import {
  type CurrencyTotal,
  GATEWAY_CURRENCY,
  latestBatches,
  paymentCurrencies,
  paymentDays,
  pendingSettlement,
} from '../payments/payment-figures.ts';
import { paymentCursor, paymentOf, paymentPage, type PaymentRow } from '../payments/payment-list.ts';
import { followingRows, threeDsAt } from '../payments/payment-timeline.ts';
import { getTransaction, type TransactionRow } from '../payments/transaction-rows.ts';
import { declineReasonOf } from '../../../shared/contract/decline-reasons.ts';

type Summary = ValueOf<'PaymentSummary'>;
type PaymentEvent = ValueOf<'PaymentEvent'>;
type PaymentDay = ValueOf<'PaymentDay'>;

export const DEFAULT_PAYMENT_LIMIT = 25;
export const MAX_PAYMENT_LIMIT = 100;
/** How many days GetPaymentOverview covers, today included. */
export const OVERVIEW_DAYS = 30;
/** How many of the newest batches GetSettlementSummary lists. */
export const MAX_BATCHES = 50;
const MAX_SEARCH = 100;
const DAY_MS = 86_400_000;

const NOT_FOUND = 'No payment of this merchant has this TransactionID.';

const METHOD = { card: 'Card', ach: 'Ach' } as const;
const METHOD_FILTER = { Card: 'card', Ach: 'ach' } as const;

/** A filter's states: Refunded finds partly refunded payments too. */
const STATES: Record<PaymentStateFilter, readonly PaymentState[]> = {
  Approved: ['Approved'],
  Declined: ['Declined'],
  Refunded: ['Refunded', 'PartiallyRefunded'],
  Voided: ['Voided'],
  Settled: ['Settled'],
};

/** The merchant acting: its own credential, or a user signed in with a verified second factor. */
function merchantActing(call: GatewayCall, op: string): string {
  if (call.principal.kind !== 'merchant')
    throw new PayframeError('forbidden', `${op} answers a merchant about its own payments.`);
  return call.principal.merchantId;
}

/** "12.30" from a numeric as the database writes it ("12.3", "0", "-5.00"). */
const money = (value: string) => fromCents(toCents(value));

/** A dateTime from the wire as an instant: a date alone is its UTC midnight, no offset is UTC. */
export function instantOf(value: string | null | undefined, field: string): Date | null {
  if (!value?.trim()) return null;
  let text = value.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) text = `${text}T00:00:00`;
  if (!/([zZ]|[+-]\d\d:\d\d)$/.test(text)) text = `${text}Z`;
  const at = new Date(text);
  if (Number.isNaN(at.getTime()))
    throw new PayframeError('invalid_request', `${field} is not a date and time this operation can use.`);
  return at;
}

function summaryOf(p: PaymentRow): Summary {
  const state = p.state as PaymentState;
  return {
    TransactionID: p.id,
    Kind: p.kind === 'sale' ? 'Sale' : 'Authorization',
    State: state,
    Amount: money(p.amount),
    ApprovedAmount: money(p.approvedAmount),
    CapturedAmount: money(p.capturedAmount),
    RefundedAmount: money(p.refundedAmount),
    Currency: p.currency ?? GATEWAY_CURRENCY,
    PaymentMethod: METHOD[p.method],
    CardBrand: p.cardBrand ?? undefined,
    Last4: p.last4 ?? undefined,
    AvsResponseCode: p.avsCode ?? undefined,
    OrderNumber: p.orderNumber ?? undefined,
    CustomerName: p.customerName ?? undefined,
    CustomerEmail: p.customerEmail ?? undefined,
    ResponseCode: p.responseCode,
    // The checkout's reasons (PayCheckoutSession), so the dashboard words a decline as the page did.
    DeclineReason: state === 'Declined' ? declineReasonOf(p.responseCode, p.method, false) : undefined,
    BatchID: p.settlementId ?? undefined,
    SessionToken: p.sessionToken ?? undefined,
    CreatedAt: p.createdAt.toISOString(),
  };
}

export function limitOf(value: number | null | undefined): number {
  const limit = value ?? DEFAULT_PAYMENT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAYMENT_LIMIT)
    throw new PayframeError('invalid_request', `Limit must be from 1 to ${MAX_PAYMENT_LIMIT}.`);
  return limit;
}

/** The merchant's payments, newest first, a page at a time after StartingAfter. */
export async function listPayments(
  params: OperationParams<'ListPayments'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'ListPayments'>> {
  const merchantId = merchantActing(call, 'ListPayments');
  const f = params.filter ?? {};
  const limit = limitOf(f.Limit);
  const startingAfter = f.StartingAfter?.trim() || null;
  // The cursor is one of the merchant's own payments: anyone else's is not found, as none is.
  const after = startingAfter ? await paymentCursor(deps.db, merchantId, startingAfter) : null;
  if (startingAfter && !after) throw new PayframeError('not_found', NOT_FOUND);
  const search = f.Search?.trim() || null;
  if (search && search.length > MAX_SEARCH)
    throw new PayframeError('invalid_request', `Search must be at most ${MAX_SEARCH} characters.`);
  const page = await paymentPage(deps.db, {
    merchantId,
    states: f.State ? STATES[f.State] : null,
    method: f.PaymentMethod ? METHOD_FILTER[f.PaymentMethod] : null,
    createdFrom: instantOf(f.CreatedFrom, 'CreatedFrom'),
    createdBefore: instantOf(f.CreatedBefore, 'CreatedBefore'),
    search,
    after,
    limit,
  });
  return { Payments: page.payments.map(summaryOf), HasMore: page.hasMore };
}

/** The timeline: the session, 3-D Secure, the payment, what followed it, oldest first. */
async function eventsOf(deps: GatewayDeps, merchantId: string, p: PaymentRow): Promise<PaymentEvent[]> {
  const events: PaymentEvent[] = [];
  const at = (d: Date) => d.toISOString();
  if (p.sessionCreatedAt) events.push({ Kind: 'SessionCreated', At: at(p.sessionCreatedAt) });
  const threeDs = await threeDsAt(deps.db, merchantId, p);
  if (threeDs) events.push({ Kind: 'ThreeDSecure', At: at(threeDs) });
  if (p.state === 'Declined') {
    events.push({
      Kind: 'Declined',
      At: at(p.createdAt),
      Amount: money(p.amount),
      TransactionID: p.id,
      ResponseCode: p.responseCode,
    });
  }
  const kinds = {
    sale: 'Approved',
    auth: 'Approved',
    capture: 'Captured',
    void: 'Voided',
    refund: 'Refunded',
  };
  for (const row of await followingRows(deps.db, merchantId, p.id)) {
    events.push({
      Kind: kinds[row.kind] as PaymentEvent['Kind'],
      At: at(row.createdAt),
      Amount: money(row.amount),
      TransactionID: row.id,
      ResponseCode: row.responseCode,
    });
    // The payment and its captures settle; a refund settles with them, shown as the refund.
    if (row.settledAt && row.kind !== 'refund')
      events.push({ Kind: 'Settled', At: at(row.settledAt), TransactionID: row.id });
  }
  // Stable: events of one instant keep the order above (the session before its payment).
  return events.sort((a, b) => Date.parse(a.At) - Date.parse(b.At));
}

/** One payment with its timeline and what the gateway would still accept for it. */
export async function getPayment(
  params: OperationParams<'GetPayment'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'GetPayment'>> {
  const merchantId = merchantActing(call, 'GetPayment');
  const id = params.transactionID?.trim() ?? '';
  const payment = await paymentOf(deps.db, merchantId, id);
  const row = payment ? await getTransaction(deps.db, merchantId, id) : null;
  if (!payment || !row) throw new PayframeError('not_found', NOT_FOUND);
  const refund = await refundTarget(deps, merchantId, row);
  return {
    Payment: summaryOf(payment),
    Events: await eventsOf(deps, merchantId, payment),
    RefundableAmount: fromCents(refund?.cents ?? 0n),
    ...(refund ? { RefundTransactionID: refund.id } : {}),
    CapturableAmount: fromCents(remainingFor('capture', row)),
    Voidable: remainingFor('void', row) > 0n,
  };
}

/**
 * The transaction a refund of this payment goes to, by the gateway's rule that only a sale or a
 * capture is refunded: the sale itself, or an authorisation's newest capture with something left
 * to refund. Null when nothing can be refunded.
 */
async function refundTarget(
  deps: GatewayDeps,
  merchantId: string,
  row: TransactionRow,
): Promise<{ id: string; cents: bigint } | null> {
  const candidates =
    row.kind === 'auth'
      ? (await followingRows(deps.db, merchantId, row.id))
          .filter((r) => r.kind === 'capture')
          .map((r) => r.id)
          .reverse()
      : [row.id];
  for (const id of candidates) {
    const target = id === row.id ? row : await getTransaction(deps.db, merchantId, id);
    const cents = target ? remainingFor('refund', target) : 0n;
    if (cents > 0n) return { id, cents };
  }
  return null;
}

/** The last OVERVIEW_DAYS UTC days by the gateway's clock, oldest first, today last. */
export async function getPaymentOverview(
  params: OperationParams<'GetPaymentOverview'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'GetPaymentOverview'>> {
  const merchantId = merchantActing(call, 'GetPaymentOverview');
  const now = deps.now();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const first = today - (OVERVIEW_DAYS - 1) * DAY_MS;
  const [from, before] = [new Date(first), new Date(today + DAY_MS)];
  const currencies = await paymentCurrencies(deps.db, merchantId, from, before);
  const asked = params.currency?.trim().toUpperCase();
  if (asked && !/^[A-Z]{3}$/.test(asked))
    throw new PayframeError('invalid_request', 'currency must be an ISO 4217 code such as USD.');
  const currency = asked || (currencies[0] ?? GATEWAY_CURRENCY);
  const rows = await paymentDays(deps.db, merchantId, from, before, currency);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const days: PaymentDay[] = Array.from({ length: OVERVIEW_DAYS }, (_, i) => {
    const day = new Date(first + i * DAY_MS).toISOString().slice(0, 10);
    const r = byDay.get(day);
    return {
      Date: day,
      Volume: money(r?.volume ?? '0'),
      Approved: r?.approved ?? 0,
      Declined: r?.declined ?? 0,
    };
  });
  return { Currency: currency, Today: days[OVERVIEW_DAYS - 1]!, Days: days, Currencies: currencies };
}

/** What the next SettleTransaction would settle, and the newest batches. */
export async function getSettlementSummary(
  _params: OperationParams<'GetSettlementSummary'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'GetSettlementSummary'>> {
  const merchantId = merchantActing(call, 'GetSettlementSummary');
  const pending = await pendingSettlement(deps.db, merchantId);
  const batches = await latestBatches(deps.db, merchantId, MAX_BATCHES);
  const amounts = (totals: CurrencyTotal[]) =>
    totals.map((t) => ({ Currency: t.currency, Amount: money(t.total) }));
  return {
    PendingCount: pending.count,
    PendingTotals: amounts(pending.totals),
    Batches: batches.map((b) => ({
      BatchID: b.settlementId,
      SettledAt: b.closedAt.toISOString(),
      TransactionCount: b.count,
      Totals: amounts(b.totals),
    })),
  };
}

export const PAYMENT_HANDLERS = {
  ListPayments: listPayments,
  GetPayment: getPayment,
  GetPaymentOverview: getPaymentOverview,
  GetSettlementSummary: getSettlementSummary,
};
