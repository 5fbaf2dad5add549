/**
 * Signing under a merchant's TransactionKey (DESIGN.md §10): redirects and webhooks carry an
 * HMAC-SHA256 the merchant checks with the key it already holds. The checkout never holds keys
 * itself: in-process the signer may read the gateway's merchant store; in the split wiring the
 * gateway signs for it (SignForMerchant, service credential only), so no key leaves the gateway.
 */
import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { TransactionService } from '../../shared/contract/service.ts';
import type { Queryable } from '../db/database.ts';
import { PayframeError } from '../errors.ts';
import type { CallContext } from '../gateway/port.ts';
import { defaultContexts } from './contexts.ts';

export interface Signer {
  /** HMAC-SHA256 of `text` (UTF-8) under the merchant's TransactionKey, as lowercase hex. */
  sign(merchantId: string, text: string): Promise<string>;
  /**
   * The same under every key that signs now: the current key's first, then during a roll's overlap
   * the previous key's (docs/merchant-guide.md "Rolling your TransactionKey").
   */
  signAll(merchantId: string, text: string): Promise<string[]>;
}

export function hmacHex(key: string | Buffer, text: string): string {
  return crypto.createHmac('sha256', key).update(text, 'utf8').digest('hex');
}

/** A signer over the gateway's merchant store, for the in-process wiring. */
export function merchantKeySigner(
  merchants: { signingKeys(q: Queryable, id: string, now: Date): Promise<string[] | null> },
  db: Queryable,
  now: () => Date = () => new Date(),
): Signer {
  const signAll = async (merchantId: string, text: string) => {
    const keys = await merchants.signingKeys(db, merchantId, now());
    if (!keys) throw new PayframeError('not_found', 'No merchant matches this request.');
    return keys.map((key) => hmacHex(key, text));
  };
  return { signAll, sign: async (merchantId, text) => (await signAll(merchantId, text))[0]! };
}

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/**
 * A signer over the port (SignForMerchant), for the split wiring: the checkout needs no key. Works
 * in-process too. A failed call is thrown as it is; a redirect or webhook is then not signed at all,
 * never signed wrongly.
 */
export function portSigner(port: TransactionService<CallContext>, log: FastifyBaseLogger): Signer {
  const context = () =>
    defaultContexts.service({ requestId: 'checkout-signer', remoteAddress: '127.0.0.1', log });
  const signAll = async (merchantId: string, text: string) => {
    const r = await port.SignForMerchant({ merchantID: merchantId, message: text }, context());
    // An unknown merchant is the gateway's `not_found` fault, thrown as it is (a PayframeError).
    if (!r.Success) throw new Error(`The gateway did not sign: ${r.Message ?? 'no reason given'}`);
    if (!r.Signature || !HEX_SHA256.test(r.Signature))
      throw new Error('The gateway answered no valid signature.');
    if (r.PreviousKeySignature && !HEX_SHA256.test(r.PreviousKeySignature))
      throw new Error('The gateway answered no valid signature.');
    return r.PreviousKeySignature ? [r.Signature, r.PreviousKeySignature] : [r.Signature];
  };
  return { signAll, sign: async (merchantId, text) => (await signAll(merchantId, text))[0]! };
}
