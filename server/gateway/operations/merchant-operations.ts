/**
 * GetMerchantInfo, GetMerchantDetails and Verify3DSecureMerchant (spec "Merchant data"; DESIGN.md
 * "What the spec leaves open"): merchant data and branding; GetMerchantDetails finds a merchant by
 * id, by public code, or by a checkout-session token so the hosted page can brand itself. The
 * TransactionKey goes only to the merchant it belongs to.
 */
import type { OperationParams, OperationResult } from '../../../shared/contract/service.ts';
import { PayframeError } from '../../errors.ts';
import { actOn } from '../auth.ts';
import type { GatewayCall, GatewayDeps } from '../gateway-call.ts';
import type { Merchant } from '../merchants/merchant-store.ts';
import { isSessionToken } from '../sessions/checkout-session-store.ts';

const NOT_FOUND = 'No merchant matches this request.';

/**
 * The key, to the merchant that called with it only (it holds it already, as the spec answers it).
 * Never to a dashboard user: the key is shown once, when made or rolled (issue 16). Not during a
 * roll's overlap either: the caller may hold the key being retired, and the new one must not reach
 * whoever holds that (docs/merchant-guide.md "Rolling your TransactionKey").
 */
async function ownKey(deps: GatewayDeps, call: GatewayCall, merchant: Merchant): Promise<string | undefined> {
  if (call.principal.kind !== 'merchant' || call.principal.merchantId !== merchant.id) return undefined;
  if (call.principal.user) return undefined;
  const record = await deps.merchants.record(deps.db, merchant.id);
  if (!record || deps.merchants.previousKeyOf(record, deps.now()) !== null) return undefined;
  return deps.merchants.transactionKeyOf(record.keyEnc);
}

export async function getMerchantInfo(
  params: OperationParams<'GetMerchantInfo'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'GetMerchantInfo'>> {
  const id = actOn(call.principal, params.merchantID);
  const merchant = await deps.merchants.get(deps.db, id);
  if (!merchant) throw new PayframeError('not_found', NOT_FOUND);
  return { MerchantID: merchant.id, TransactionKey: await ownKey(deps, call, merchant), Name: merchant.name };
}

async function findMerchant(deps: GatewayDeps, merchantId: string, code: string): Promise<Merchant | null> {
  if (merchantId) return deps.merchants.get(deps.db, merchantId);
  if (isSessionToken(code)) {
    const session = await deps.sessions.getByToken(deps.db, code);
    return session ? deps.merchants.get(deps.db, session.merchantId) : null;
  }
  return deps.merchants.getByCode(deps.db, code);
}

export async function getMerchantDetails(
  params: OperationParams<'GetMerchantDetails'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'GetMerchantDetails'>> {
  const merchantId = params.merchantId?.trim() ?? '';
  const code = params.code?.trim() ?? '';
  if (!merchantId && !code) {
    throw new PayframeError(
      'invalid_request',
      'Give merchantId, or code (a public merchant code or a checkout-session token).',
    );
  }
  if (merchantId && !/^\d{1,19}$/.test(merchantId))
    throw new PayframeError('invalid_request', 'merchantId must be a number.');
  const merchant = await findMerchant(deps, merchantId, code);
  // A merchant sees only itself; asking about another says nothing about whether it exists.
  if (call.principal.kind === 'merchant' && merchant?.id !== call.principal.merchantId) {
    throw new PayframeError('forbidden', 'This credential may not act on that merchant.');
  }
  if (!merchant) throw new PayframeError('not_found', NOT_FOUND);
  return {
    MerchantId: merchant.id,
    TransactionKey: await ownKey(deps, call, merchant),
    Logo: merchant.logoUrl ?? undefined,
    BusinessName: merchant.businessName ?? merchant.name,
    Address1: merchant.address1 ?? undefined,
    Address2: merchant.address2 ?? undefined,
    City: merchant.city ?? undefined,
    State: merchant.state ?? undefined,
    Country: merchant.country ?? undefined,
    Zip: merchant.zip ?? undefined,
    Phone: merchant.phone ?? undefined,
    Email: merchant.email ?? undefined,
    Website: merchant.website ?? undefined,
    PaymentMethods: merchant.paymentMethods.join(','),
  };
}

export async function verify3DSecureMerchant(
  params: OperationParams<'Verify3DSecureMerchant'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'Verify3DSecureMerchant'>> {
  const id = actOn(call.principal, params.merchantID);
  const merchant = await deps.merchants.get(deps.db, id);
  if (!merchant) throw new PayframeError('not_found', NOT_FOUND);
  return merchant.threeDsEnrolled;
}
