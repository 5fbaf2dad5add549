/**
 * SignForMerchant (Payframe extension; DESIGN.md §10): HMAC-SHA256 of a message under a merchant's
 * TransactionKey (and, during a roll's overlap, under the previous key too), for a checkout server in
 * its own process. Redirects and webhooks must be signed
 * with the key the merchant holds, and the key must never leave the gateway, so the gateway signs.
 *
 * Only the service credential may call it (a merchant can sign with its own key; letting it ask
 * here would add nothing but a way to probe other merchants' ids).
 */
import crypto from 'node:crypto';
import type { OperationParams, OperationResult } from '../../../shared/contract/service.ts';
import { PayframeError } from '../../errors.ts';
import type { GatewayCall, GatewayDeps } from '../gateway-call.ts';
import { requireService } from './wallet-operations.ts';

type Result = OperationResult<'SignForMerchant'>;

/**
 * Characters one message may hold. A redirect's canonical string is a few hundred; a webhook's is
 * `<t>.<body>` with a body of a few kilobytes. The request body limit bounds it anyway; this keeps a
 * caller's bug from turning the gateway into a hashing service for megabytes.
 */
export const MAX_SIGNED_MESSAGE = 64 * 1024;

export const NO_MERCHANT = 'No merchant matches this request.';

export async function signForMerchant(
  params: OperationParams<'SignForMerchant'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<Result> {
  requireService(call.principal, 'SignForMerchant');
  const message = params.message;
  // An absent message is a caller's bug; signing '' in its place would hide it.
  if (message === undefined || message === null)
    return { Success: false, Message: 'Give the message to sign.' };
  if (message.length > MAX_SIGNED_MESSAGE) {
    return { Success: false, Message: `The message is longer than ${MAX_SIGNED_MESSAGE} characters.` };
  }
  const keys = await deps.merchants.signingKeys(deps.db, params.merchantID, deps.now());
  // A typed refusal (the `not_found` fault), so the caller acts on its code, not on this text.
  if (!keys) throw new PayframeError('not_found', NO_MERCHANT);
  const [key, previous] = keys as [string, string | undefined];
  const sign = (k: string) => crypto.createHmac('sha256', k).update(message, 'utf8').digest('hex');
  return {
    Success: true,
    Message: 'Signed.',
    Signature: sign(key),
    // During a roll's overlap the previous key signs too (docs/merchant-guide.md).
    PreviousKeySignature: previous === undefined ? undefined : sign(previous),
  };
}
