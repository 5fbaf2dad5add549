/**
 * Exactly once without the service's help (issue 20; server/checkout/README.md "Spec mode"): a
 * foreign ProcessTransaction may not be idempotent, so an attempt whose answer was lost is never sent
 * again before it is settled by looking the payment up. The adapter stamps the session token into
 * the request's CustomValue1; GetTransactionHistories of the merchant, from 14 hours before the
 * attempt to a day after it (the service's dates may be in its own time zone), finds it again. Of
 * the transactions carrying the token, those this checkout recorded as declines of the session's
 * attempts are left aside; of the rest:
 *
 *   - one with the session's amount and an ApprovalCode: charged;
 *   - none at all: not charged — the caller concludes so only when the service, asked after its
 *     history, still offers the session;
 *   - any other (no ApprovalCode, as an ACH approval may have; another amount): undecided, as when
 *     the history cannot be read — the shopper is told the payment is being confirmed, and the next
 *     recovery run asks again. Never "not charged" on a row the checkout cannot explain.
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

const HOUR_MS = 3_600_000;

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
  q: {
    merchantId: string;
    token: string;
    amount: string;
    startedAt: Date;
    now: Date;
    /** TransactionIDs the checkout recorded as declines of this session's attempts. */
    ours: ReadonlySet<string>;
  },
): Promise<Lookup> {
  let history;
  try {
    history = await call(
      'GetTransactionHistories',
      {
        startDate: new Date(q.startedAt.getTime() - 14 * HOUR_MS).toISOString(),
        endDate: new Date(q.startedAt.getTime() + 24 * HOUR_MS).toISOString(),
        merchantID: q.merchantId,
      },
      context,
    );
  } catch {
    return { kind: 'undecided' };
  }
  const rows = history.filter((t) => t.CustomValue1 === q.token && !q.ours.has(t.TransactionID));
  const charged = rows.find((t) => !!t.ApprovalCode?.trim() && sameAmount(t.TransactionAmount, q.amount));
  if (!charged) return rows.length === 0 ? { kind: 'none' } : { kind: 'undecided' };
  return {
    kind: 'charged',
    transactionId: charged.TransactionID,
    approvalCode: charged.ApprovalCode ?? null,
    last4: charged.CardNumberLast4Digit?.replace(/\D/g, '').slice(-4) || null,
    amount: q.amount,
    paidAt: instantOf(charged.TransactionDate),
  };
}
