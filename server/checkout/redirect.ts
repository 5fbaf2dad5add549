/**
 * The receipt and the signed redirect back to the merchant (DESIGN.md §10; checkout-anchors.md §5.8;
 * docs/merchant-guide.md "Verifying the redirect").
 *
 * The ReturnUrl gets five query parameters, `status`, `transactionId`, `orderNumber`, `amount`,
 * `timestamp` (Unix seconds of the payment), and `signature`: lowercase hex HMAC-SHA256, under the
 * merchant's TransactionKey, of the canonical string — the five `name=value` pairs in exactly that
 * order, values as decoded from the query (empty when absent), joined by a line feed:
 *
 *   status=succeeded\ntransactionId=100042\norderNumber=A-1001\namount=24.99\ntimestamp=1767225600
 *
 * A line feed cannot occur in any value (the gateway strips control characters from order numbers),
 * so no two parameter sets share a canonical string. Parameters of the same names already in the
 * ReturnUrl are replaced. The signature proves the values came from Payframe; merchants still confirm
 * the payment server to server (GET /v1/checkout-sessions/:token or the webhook), RED-3.
 */
import type { Receipt } from '../../shared/checkout/pay-schemas.ts';
import type { Payment } from './attempts.ts';
import { lastFour } from './gateway-calls.ts';
import type { Signer } from './signer.ts';

export const REDIRECT_PARAMS = ['status', 'transactionId', 'orderNumber', 'amount', 'timestamp'] as const;
export type RedirectParams = Record<(typeof REDIRECT_PARAMS)[number], string>;

export function canonicalRedirectString(params: RedirectParams): string {
  return REDIRECT_PARAMS.map((name) => `${name}=${params[name]}`).join('\n');
}

export function receiptOf(p: Payment): Receipt {
  return {
    status: 'succeeded',
    transactionId: p.transactionId,
    approvalCode: p.approvalCode,
    maskedCard: lastFour(p.maskedCard),
    amount: p.amount,
    currency: p.currency,
    orderNumber: p.orderNumber,
    merchantName: p.merchantName,
    paidAt: p.paidAt.toISOString(),
  };
}

/** The ReturnUrl with the signed result, or null when the session has no ReturnUrl. */
export async function signedRedirectUrl(signer: Signer, p: Payment): Promise<string | null> {
  if (!p.returnUrl) return null;
  const params: RedirectParams = {
    status: 'succeeded',
    transactionId: p.transactionId ?? '',
    orderNumber: p.orderNumber ?? '',
    amount: p.amount,
    timestamp: String(Math.floor(p.paidAt.getTime() / 1000)),
  };
  const url = new URL(p.returnUrl);
  for (const name of REDIRECT_PARAMS) url.searchParams.set(name, params[name]);
  url.searchParams.set('signature', await signer.sign(p.merchantId, canonicalRedirectString(params)));
  return url.href;
}

/** The pay answer for a paid session: `succeeded` for the attempt that paid it, else `already_paid`. */
export async function paidBody(
  signer: Signer,
  status: 'succeeded' | 'already_paid',
  p: Payment,
): Promise<{ status: 'succeeded' | 'already_paid'; receipt: Receipt; redirectUrl: string | null }> {
  return { status, receipt: receiptOf(p), redirectUrl: await signedRedirectUrl(signer, p) };
}
