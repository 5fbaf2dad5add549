/**
 * Webhooks from the dashboard (issue 16, Developers): the merchant's endpoint and signing secret,
 * which are gateway configuration (merchants/webhook-settings.ts), and the checkout's signing call.
 *
 *   GetWebhookSettings        the endpoint and whether a secret is set, never the secret (Admin)
 *   SetWebhookEndpoint        sets or clears the endpoint, checked as a session's WebhookUrl (Owner)
 *   RollWebhookSecret         a new whsec_… answered once; the old one signs 24 h more (Owner)
 *                             (both: a signed-in user only, never a TransactionKey)
 *   SignWebhook               HMAC-SHA256 under each secret in use (checkout server only)
 *   AuthorizeWebhookDelivery  the user may resend or send a test event, recorded in the audit log
 *                             (Admin); the checkout, which owns the deliveries, then sends
 *
 * Roles are the gateway's (user-roles.ts); a change made by a user is audited by the wrapper.
 */
import crypto from 'node:crypto';
import { checkUrlAnyOrigin, URL_PROBLEM_MESSAGES } from '../../../shared/return-url.ts';
import type { OperationParams, OperationResult } from '../../../shared/contract/service.ts';
import { PayframeError } from '../../errors.ts';
import type { GatewayCall, GatewayDeps } from '../gateway-call.ts';
import type { Principal } from '../port.ts';
import {
  readWebhookSettings,
  rollWebhookSecret,
  setWebhookEndpoint,
  signingSecrets,
  type WebhookSettings,
} from '../merchants/webhook-settings.ts';
import { MAX_SIGNED_MESSAGE, NO_MERCHANT } from './sign-operations.ts';
import { requireService } from './wallet-operations.ts';

type Settings = OperationResult<'GetWebhookSettings'>;

function merchantOf(principal: Principal, operation: string): string {
  if (principal.kind !== 'merchant')
    throw new PayframeError('forbidden', `${operation} answers a merchant about its own webhooks.`);
  return principal.merchantId;
}

function answer(merchantId: string, s: WebhookSettings): Settings {
  return {
    MerchantID: merchantId,
    EndpointUrl: s.endpointUrl ?? undefined,
    SecretCreatedAt: s.secretCreatedAt?.toISOString(),
    PreviousSecretValidUntil: s.previousSecretValidUntil?.toISOString(),
  };
}

/** The endpoint as stored: checked as a session's WebhookUrl (https; http for localhost only). */
export function checkedEndpoint(value: string | null | undefined): string | null {
  const text = value?.trim() ?? '';
  if (!text) return null;
  const checked = checkUrlAnyOrigin(text);
  if ('problem' in checked) {
    const message = `endpointUrl ${URL_PROBLEM_MESSAGES[checked.problem]}`;
    throw new PayframeError('validation_failed', message, [
      { field: 'endpointUrl', code: 'invalid', message },
    ]);
  }
  return checked.url;
}

async function getWebhookSettings(
  _params: OperationParams<'GetWebhookSettings'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<Settings> {
  const merchantId = merchantOf(call.principal, 'GetWebhookSettings');
  return answer(merchantId, await readWebhookSettings(deps.db, merchantId, deps.now()));
}

/**
 * The endpoint and the secret are changed by a signed-in Owner only: a merchant's TransactionKey is
 * refused, so a leaked key cannot send the merchant's events elsewhere or replace its secret.
 */
function ownerUserOf(principal: Principal, operation: string): string {
  const merchantId = merchantOf(principal, operation);
  if (principal.kind !== 'merchant' || !principal.user)
    throw new PayframeError(
      'forbidden',
      `${operation} is for a signed-in user of the dashboard, not a TransactionKey.`,
    );
  return merchantId;
}

async function setEndpoint(
  params: OperationParams<'SetWebhookEndpoint'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<Settings> {
  const merchantId = ownerUserOf(call.principal, 'SetWebhookEndpoint');
  const url = checkedEndpoint(params.endpointUrl);
  return answer(merchantId, await setWebhookEndpoint(deps.db, merchantId, url, deps.now()));
}

async function rollSecret(
  _params: OperationParams<'RollWebhookSecret'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'RollWebhookSecret'>> {
  const merchantId = ownerUserOf(call.principal, 'RollWebhookSecret');
  const r = await rollWebhookSecret(deps.db, deps.secrets, merchantId, deps.now());
  return {
    Success: true,
    Message: 'A new signing secret was made. It is shown this once.',
    Secret: r.secret,
    PreviousSecretValidUntil: r.previousSecretValidUntil?.toISOString(),
  };
}

async function signWebhook(
  params: OperationParams<'SignWebhook'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'SignWebhook'>> {
  requireService(call.principal, 'SignWebhook');
  const message = params.message;
  if (message === undefined || message === null)
    return { Success: false, Message: 'Give the message to sign.' };
  if (message.length > MAX_SIGNED_MESSAGE)
    return { Success: false, Message: `The message is longer than ${MAX_SIGNED_MESSAGE} characters.` };
  if (!(await deps.merchants.transactionKey(deps.db, params.merchantID)))
    throw new PayframeError('not_found', NO_MERCHANT);
  const keys = await signingSecrets(deps.db, deps.secrets, params.merchantID, deps.now());
  return {
    Success: true,
    Message: keys.length ? 'Signed.' : 'No webhook secret: sign under the TransactionKey.',
    Signatures: keys.map((k) => crypto.createHmac('sha256', k).update(message, 'utf8').digest('hex')),
  };
}

async function authorizeDelivery(
  params: OperationParams<'AuthorizeWebhookDelivery'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'AuthorizeWebhookDelivery'>> {
  const merchantId = merchantOf(call.principal, 'AuthorizeWebhookDelivery');
  const settings = await readWebhookSettings(deps.db, merchantId, deps.now());
  if (params.kind === 'TestEvent' && !settings.endpointUrl)
    return { Success: false, Message: 'Set a webhook endpoint before sending a test event.' };
  if (params.kind === 'Resend' && !/^evt_[A-Za-z0-9_-]{1,64}$/.test(params.eventID ?? ''))
    return { Success: false, Message: 'Name the event to resend (its id, evt_…).' };
  return { Success: true, Message: 'Allowed.', EndpointUrl: settings.endpointUrl ?? undefined };
}

export const WEBHOOK_HANDLERS = {
  GetWebhookSettings: getWebhookSettings,
  SetWebhookEndpoint: setEndpoint,
  RollWebhookSecret: rollSecret,
  SignWebhook: signWebhook,
  AuthorizeWebhookDelivery: authorizeDelivery,
};
