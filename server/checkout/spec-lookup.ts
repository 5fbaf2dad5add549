/**
 * Exactly once without the service's help (issue 20; server/checkout/README.md "Spec mode"): a
 * foreign ProcessTransaction may not be idempotent, so an attempt whose answer was lost is never sent
 * again before it is settled by looking the payment up. The adapter stamps the session token into
 * the request's CustomValue1; GetTransactionHistories of the merchant, from a day before the attempt
 * to a day after now (the service's dates may be in its own time zone), finds it again:
 *
 *   - a transaction with CustomValue1 = the token, the session's amount and an ApprovalCode: charged;
 *   - such transactions without an ApprovalCode only (declined), or none: not charged by this
 *     attempt — the caller concludes so only when the service still offers the session;
 *   - the history cannot be read, or a transaction with the token but another amount: undecided —
 *     the shopper is told the payment is being confirmed, and the next recovery run asks again.
 */
import { toCents } from '../../shared/money.ts';
import type { CallContext } from '../gateway/port.ts';
import type { ForeignCall } from './spec-service.ts';

export type Lookup =
  | {
      kind: 'charged';
      transactionId: string;
      approvalCode: string | null;
      last4: string | null;
      amount: string;
      paidAt: Date | null;
    }
  | { kind: 'none' }
  | { kind: 'undecided' };

const DAY_MS = 86_400_000;

/** The service's dateTime: with its offset when it writes one, else read as UTC. */
function instantOf(value: string | null | undefined): Date | null {
  if (!value) return null;
  const d = new Date(/(Z|[+-]\d\d:\d\d)$/.test(value) ? value : `${value}Z`);
  return Number.isNaN(d.getTime()) ? null : d;
}

function sameAmount(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  try {
    return toCents(a) === toCents(b);
  } catch {
    return false;
  }
}

export async function lookUpPayment(
  call: ForeignCall,
  context: Pick<CallContext, 'requestId'>,
  q: { merchantId: string; token: string; amount: string | null; from: Date; to: Date },
): Promise<Lookup> {
  let history;
  try {
    history = await call(
      'GetTransactionHistories',
      {
        startDate: new Date(q.from.getTime() - DAY_MS).toISOString(),
        endDate: new Date(q.to.getTime() + DAY_MS).toISOString(),
        merchantID: q.merchantId,
      },
      context,
    );
  } catch {
    return { kind: 'undecided' };
  }
  const ours = history.filter((t) => t.CustomValue1 === q.token);
  const charged = ours.find((t) => !!t.ApprovalCode?.trim());
  if (!charged) return { kind: 'none' };
  // A session's amount is fixed; another amount under its token is not a payment this checkout sent.
  if (q.amount !== null && !sameAmount(charged.TransactionAmount, q.amount)) return { kind: 'undecided' };
  return {
    kind: 'charged',
    transactionId: charged.TransactionID,
    approvalCode: charged.ApprovalCode ?? null,
    last4: charged.CardNumberLast4Digit?.replace(/\D/g, '').slice(-4) || null,
    amount: charged.TransactionAmount,
    paidAt: instantOf(charged.TransactionDate),
  };
}
