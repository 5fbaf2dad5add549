/** GetCardInfo and GetCardDetailsFromEncryptedData, over the pure rules in card-info.ts. */
import type { OperationParams, OperationResult } from '../../../shared/contract/service.ts';
import { PayframeError } from '../../errors.ts';
import { actOn } from '../auth.ts';
import { cardDetailsFromEncryptedData, getCardInfo as cardInfo } from '../card-info.ts';
import type { GatewayCall, GatewayDeps } from '../gateway-call.ts';

export async function getCardInfo(
  params: OperationParams<'GetCardInfo'>,
  call: GatewayCall,
): Promise<OperationResult<'GetCardInfo'>> {
  actOn(call.principal, params.request?.MerchantID?.trim() || undefined);
  return cardInfo(params.request);
}

export async function getCardDetailsFromEncryptedData(
  params: OperationParams<'GetCardDetailsFromEncryptedData'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'GetCardDetailsFromEncryptedData'>> {
  const merchantId = actOn(call.principal, params.merchantID);
  const readerKeyHex = await deps.merchants.readerKey(deps.db, merchantId);
  if (!readerKeyHex) throw new PayframeError('not_found', 'No merchant matches this request.');
  return cardDetailsFromEncryptedData({
    encryptedData: params.encryptedData,
    deviceName: params.deviceName,
    readerKeyHex,
  });
}
