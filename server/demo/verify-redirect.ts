/**
 * What a merchant's `/return` handler does (docs/merchant-guide.md "Verifying the redirect"): the
 * HMAC-SHA256 under the TransactionKey of the seven parameters in order, compared in constant time.
 * Written from the guide, not imported from server/checkout/redirect.ts: the demo store is a
 * merchant, and must succeed with what the guide tells merchants.
 */
import crypto from 'node:crypto';

const SIGNED = [
  'status',
  'token',
  'transactionId',
  'orderNumber',
  'amount',
  'currency',
  'timestamp',
] as const;

export function verifyRedirect(query: URLSearchParams, transactionKey: string): boolean {
  const signed = SIGNED.map((name) => `${name}=${query.get(name) ?? ''}`).join('\n');
  const expected = crypto.createHmac('sha256', transactionKey).update(signed, 'utf8').digest('hex');
  const given = query.get('signature') ?? '';
  // The shape first: timingSafeEqual throws on byte lengths that differ (a non-ASCII character).
  return /^[0-9a-f]{64}$/.test(given) && crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}
