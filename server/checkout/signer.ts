/**
 * Signing under a merchant's TransactionKey (DESIGN.md §10): redirects and webhooks carry an
 * HMAC-SHA256 the merchant checks with the key it already holds. The checkout never holds keys
 * itself: in-process the signer reads the gateway's merchant store; in the split wiring it must be
 * an operation the gateway offers to the service credential (see server/checkout/README.md).
 */
import crypto from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import { PayframeError } from '../errors.ts';

export interface Signer {
  /** HMAC-SHA256 of `text` (UTF-8) under the merchant's TransactionKey, as lowercase hex. */
  sign(merchantId: string, text: string): Promise<string>;
}

export function hmacHex(key: string | Buffer, text: string): string {
  return crypto.createHmac('sha256', key).update(text, 'utf8').digest('hex');
}

/** A signer over the gateway's merchant store, for the in-process wiring. */
export function merchantKeySigner(
  merchants: { transactionKey(q: Queryable, id: string): Promise<string | null> },
  db: Queryable,
): Signer {
  return {
    async sign(merchantId, text) {
      const key = await merchants.transactionKey(db, merchantId);
      if (!key) throw new PayframeError('not_found', 'No merchant matches this request.');
      return hmacHex(key, text);
    },
  };
}
