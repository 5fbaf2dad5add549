/**
 * The signed redirect's canonical string (DESIGN.md §10; docs/merchant-guide.md "Verifying the
 * redirect"). The gateway signs it under the merchant's TransactionKey when it answers a paid
 * session (GetCheckoutSession, PayCheckoutSession), so the checkout never holds or asks for a key;
 * the checkout builds the ReturnUrl from the same fields. Pure: imported by both sides.
 *
 * Five `name=value` pairs in exactly this order, values as decoded from the query (empty when
 * absent), joined by a line feed:
 *
 *   status=succeeded\ntransactionId=100042\norderNumber=A-1001\namount=24.99\ntimestamp=1767225600
 *
 * A line feed cannot occur in any value (the gateway strips control characters from order numbers),
 * so no two parameter sets share a canonical string.
 */

export const REDIRECT_PARAMS = ['status', 'transactionId', 'orderNumber', 'amount', 'timestamp'] as const;
export type RedirectParams = Record<(typeof REDIRECT_PARAMS)[number], string>;

/** What a paid session's redirect reports. */
export interface PaidRedirect {
  transactionId: string | null;
  orderNumber: string | null;
  amount: string;
  paidAt: Date;
}

export function redirectParams(p: PaidRedirect): RedirectParams {
  return {
    status: 'succeeded',
    transactionId: p.transactionId ?? '',
    orderNumber: p.orderNumber ?? '',
    amount: p.amount,
    timestamp: String(Math.floor(p.paidAt.getTime() / 1000)),
  };
}

export function canonicalRedirectString(params: RedirectParams): string {
  return REDIRECT_PARAMS.map((name) => `${name}=${params[name]}`).join('\n');
}
