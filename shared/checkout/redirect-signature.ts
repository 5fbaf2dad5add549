/**
 * The signed redirect's canonical string (DESIGN.md §10; docs/merchant-guide.md "Verifying the
 * redirect"). The gateway signs it under the merchant's TransactionKey when it answers a paid
 * session (GetCheckoutSession, PayCheckoutSession), so the checkout never holds or asks for a key;
 * the checkout builds the ReturnUrl from the same fields. Pure: imported by both sides.
 *
 * Seven `name=value` pairs in exactly this order, values as decoded from the query (empty when
 * absent), joined by a line feed:
 *
 *   status=succeeded\ntoken=cs_…\ntransactionId=100042\norderNumber=A-1001\namount=24.99\n
 *   currency=USD\ntimestamp=1767225600
 *
 * The session `token` and the `currency` (issue 14 §11) let a merchant reconcile the redirect with
 * the session it created without a look-up. A line feed cannot occur in any value (the text policy
 * refuses control characters in order numbers), so no two parameter sets share a canonical string.
 */

export const REDIRECT_PARAMS = [
  'status',
  'token',
  'transactionId',
  'orderNumber',
  'amount',
  'currency',
  'timestamp',
] as const;
export type RedirectParams = Record<(typeof REDIRECT_PARAMS)[number], string>;

/** What a paid session's redirect reports. */
export interface PaidRedirect {
  token: string;
  transactionId: string | null;
  orderNumber: string | null;
  amount: string;
  /** null for a session whose currency the gateway does not report (an older SOAP session). */
  currency: string | null;
  paidAt: Date;
}

export function redirectParams(p: PaidRedirect): RedirectParams {
  return {
    status: 'succeeded',
    token: p.token,
    transactionId: p.transactionId ?? '',
    orderNumber: p.orderNumber ?? '',
    amount: p.amount,
    currency: p.currency ?? '',
    timestamp: String(Math.floor(p.paidAt.getTime() / 1000)),
  };
}

/**
 * During a TransactionKey roll's overlap the redirect carries, beside `signature` (the new key's),
 * this parameter: the same canonical string's signature under the previous key (docs/merchant-guide.md
 * "Rolling your TransactionKey"). Absent outside an overlap.
 */
export const PREVIOUS_SIGNATURE_PARAM = 'previousSignature';

export function canonicalRedirectString(params: RedirectParams): string {
  return REDIRECT_PARAMS.map((name) => `${name}=${params[name]}`).join('\n');
}
