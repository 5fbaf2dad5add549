/**
 * The receipt and the signed redirect back to the merchant (DESIGN.md §10; checkout-anchors.md §5.8;
 * docs/merchant-guide.md "Verifying the redirect").
 *
 * The ReturnUrl gets seven query parameters, `status`, `token`, `transactionId`, `orderNumber`,
 * `amount`, `currency`, `timestamp` (Unix seconds of the payment), and `signature`: lowercase hex HMAC-SHA256, under the
 * merchant's TransactionKey, of the canonical string (shared/checkout/redirect-signature.ts); during a
 * key roll's overlap also `previousSignature`, the same under the previous key.
 * The gateway makes the signature with the payment's answer, so nothing is signed here; only a
 * payment recorded before the gateway did so is signed through the signer. Parameters of the same
 * names already in the ReturnUrl are replaced. The signature proves the values came from Payframe;
 * merchants still confirm the payment server to server (GET /v1/checkout-sessions/:token or the
 * webhook), RED-3.
 */
import type { Receipt } from '../../shared/checkout/pay-schemas.ts';
import {
  canonicalRedirectString,
  PREVIOUS_SIGNATURE_PARAM,
  REDIRECT_PARAMS,
  redirectParams,
} from '../../shared/checkout/redirect-signature.ts';
import { lastFour } from './gateway-calls.ts';
import type { Payment } from './records.ts';
import type { Signer } from './signer.ts';

export function receiptOf(p: Payment): Receipt {
  return {
    status: 'succeeded',
    transactionId: p.transactionId,
    approvalCode: p.approvalCode,
    maskedCard: lastFour(p.maskedCard),
    cardBrand: p.method === 'card' ? p.cardBrand : null,
    method: p.method === 'card' || p.method === 'ach' ? p.method : null,
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
  const params = redirectParams({ ...p, token: p.sessionToken });
  const url = new URL(p.returnUrl);
  for (const name of REDIRECT_PARAMS) url.searchParams.set(name, params[name]);
  const [signature, previous] = await signaturesOf(signer, p, params);
  url.searchParams.set('signature', signature);
  // During a TransactionKey roll's overlap, the previous key's too; never one the ReturnUrl brought.
  if (previous) url.searchParams.set(PREVIOUS_SIGNATURE_PARAM, previous);
  else url.searchParams.delete(PREVIOUS_SIGNATURE_PARAM);
  return url.href;
}

/**
 * The redirect's signatures: the gateway's, as its answer gave them (the new key's, and the previous
 * key's during a roll's overlap); else the signer's, every key that signs now — for a payment read
 * back from the checkout's database, which keeps one signature, made under the key of its day. When
 * signing fails, a stored signature is kept as it is: the redirect is never left unsigned by it.
 */
async function signaturesOf(
  signer: Signer,
  p: Payment,
  params: ReturnType<typeof redirectParams>,
): Promise<[string, string | null]> {
  if (p.redirectSignature && p.redirectSignaturePrevious !== undefined)
    return [p.redirectSignature, p.redirectSignaturePrevious];
  const text = canonicalRedirectString(params);
  const all = p.redirectSignature
    ? await signer.signAll(p.merchantId, text).catch(() => [p.redirectSignature!])
    : await signer.signAll(p.merchantId, text);
  return [all[0]!, all[1] ?? null];
}

export type PaidBody = { status: 'succeeded' | 'already_paid'; receipt: Receipt; redirectUrl: string | null };

/** The pay answer for a paid session: `succeeded` for the attempt that paid it, else `already_paid`. */
/** `cardSaved`: this payment also saved the card to the shopper's wallet (the receipt says so). */
export async function paidBody(
  signer: Signer,
  status: 'succeeded' | 'already_paid',
  p: Payment,
  cardSaved = false,
): Promise<PaidBody> {
  const receipt = cardSaved ? { ...receiptOf(p), cardSaved: true } : receiptOf(p);
  return { status, receipt, redirectUrl: await signedRedirectUrl(signer, p) };
}
