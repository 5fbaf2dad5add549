/**
 * GetMerchantSettings and UpdateMerchantSettings (issue 16 "Settings"): a merchant reads and
 * changes its own business details, branding, checkout options and registered origins — the
 * merchant the credential names, never another. The changes go through the merchant store's
 * `update`, as `payframe merchant update` does: every value is checked there (merchant-fields.ts)
 * before the one statement that writes them, so a value refused saves nothing; the instance's cache
 * forgets the merchant and every other instance hears of it (migration 0018), so the next session,
 * hosted page and widget frame (its frame-ancestors) use the new settings at once.
 */
import type { OperationParams, OperationResult } from '../../../shared/contract/service.ts';
import type { ValueOf } from '../../../shared/contract/values.ts';
import { PayframeError } from '../../errors.ts';
import type { GatewayCall, GatewayDeps } from '../gateway-call.ts';
import type { Merchant, MerchantChanges, PaymentMethod } from '../merchants/merchant-store.ts';

type Settings = ValueOf<'MerchantSettings'>;
type Input = ValueOf<'MerchantSettingsInput'>;

/** The store's field names (merchant-fields.ts) as MerchantSettingsInput names them. */
const INPUT_FIELD: Record<string, keyof Input> = {
  name: 'DisplayName',
  businessName: 'DisplayName',
  website: 'Website',
  email: 'SupportEmail',
  logoUrl: 'LogoUrl',
  brandColor: 'BrandColor',
  cornerRadius: 'CornerRadius',
  returnMode: 'ReturnMode',
  paymentMethods: 'AcceptsCard',
  origin: 'Origins',
  origins: 'Origins',
  termsUrl: 'TermsUrl',
  privacyUrl: 'PrivacyUrl',
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_ORIGINS = 50;

export function settingsOf(m: Merchant): Settings {
  return {
    MerchantID: m.id,
    DisplayName: m.businessName ?? m.name,
    Website: m.website ?? undefined,
    SupportEmail: m.email ?? undefined,
    LogoUrl: m.logoUrl ?? undefined,
    BrandColor: m.brandColor ?? undefined,
    CornerRadius: m.cornerRadius ?? undefined,
    NameOnCardRequired: m.nameOnCardRequired,
    ReturnMode: m.returnMode === 'confirmation' ? 'Confirmation' : 'Immediate',
    ThreeDSecureEnrolled: m.threeDsEnrolled,
    AcceptsCard: m.paymentMethods.includes('card'),
    AcceptsAch: m.paymentMethods.includes('ach'),
    Origins: m.origins,
    TermsUrl: m.termsUrl ?? undefined,
    PrivacyUrl: m.privacyUrl ?? undefined,
    PostalCodeRequired: m.postalCodeRequired,
    ReceiptEmail: m.receiptEmail,
  };
}

function merchantOf(call: GatewayCall, operation: string): string {
  if (call.principal.kind !== 'merchant')
    throw new PayframeError('forbidden', `${operation} answers a merchant about its own settings.`);
  return call.principal.merchantId;
}

/** A refused value, named by its field in MerchantSettingsInput. */
class Refused extends Error {
  constructor(
    readonly field: keyof Input,
    message: string,
  ) {
    super(`${field} ${message}`);
  }
}

/** The store's changes for the whole settings; what the store does not check is checked here. */
export function changesOf(input: Input): MerchantChanges {
  const displayName = input.DisplayName?.trim() ?? '';
  if (displayName === '') throw new Refused('DisplayName', 'must be 1 to 200 characters.');
  const email = input.SupportEmail?.trim() ?? '';
  if (email !== '' && (email.length > 200 || !EMAIL.test(email)))
    throw new Refused('SupportEmail', 'must be an e-mail address (name@example.com).');
  if (input.ReturnMode !== 'Immediate' && input.ReturnMode !== 'Confirmation')
    throw new Refused('ReturnMode', "must be 'Immediate' or 'Confirmation'.");
  const origins = input.Origins ?? [];
  if (origins.length > MAX_ORIGINS) throw new Refused('Origins', `must hold at most ${MAX_ORIGINS} origins.`);
  const methods: PaymentMethod[] = [
    ...(input.AcceptsCard ? (['card'] as const) : []),
    ...(input.AcceptsAch ? (['ach'] as const) : []),
  ];
  if (methods.length === 0)
    throw new Refused('AcceptsCard', 'and AcceptsAch: at least one payment method must be accepted.');
  return {
    businessName: displayName,
    website: input.Website ?? null,
    email: email || null,
    logoUrl: input.LogoUrl?.trim() || null,
    brandColor: input.BrandColor ?? null,
    cornerRadius: input.CornerRadius ?? null,
    nameOnCardRequired: input.NameOnCardRequired,
    returnMode: input.ReturnMode === 'Confirmation' ? 'confirmation' : 'immediate',
    threeDsEnrolled: input.ThreeDSecureEnrolled,
    paymentMethods: methods,
    origins,
    termsUrl: input.TermsUrl?.trim() || null,
    privacyUrl: input.PrivacyUrl?.trim() || null,
    // Left out (a caller that predates them): unchanged.
    ...(typeof input.PostalCodeRequired === 'boolean'
      ? { postalCodeRequired: input.PostalCodeRequired }
      : {}),
    ...(typeof input.ReceiptEmail === 'boolean' ? { receiptEmail: input.ReceiptEmail } : {}),
  };
}

export async function getMerchantSettings(
  _params: OperationParams<'GetMerchantSettings'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'GetMerchantSettings'>> {
  const merchant = await deps.merchants.get(deps.db, merchantOf(call, 'GetMerchantSettings'));
  if (!merchant) throw new PayframeError('not_found', 'The merchant does not exist.');
  return settingsOf(merchant);
}

export async function updateMerchantSettings(
  params: OperationParams<'UpdateMerchantSettings'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'UpdateMerchantSettings'>> {
  const id = merchantOf(call, 'UpdateMerchantSettings');
  const refused = async (field: keyof Input, message: string) => {
    const current = await deps.merchants.get(deps.db, id);
    return {
      Success: false,
      ErrorField: field,
      Message: message,
      Settings: current ? settingsOf(current) : undefined,
    };
  };
  if (!params.settings) return refused('DisplayName', 'settings are required.');
  let merchant: Merchant | null;
  try {
    merchant = await deps.merchants.update(deps.db, id, changesOf(params.settings));
  } catch (error) {
    if (error instanceof Refused) return refused(error.field, error.message);
    const problem = error instanceof PayframeError ? error.fields?.[0] : undefined;
    if (!problem) throw error;
    // The store names the field its own way (`businessName must …`): said in the settings' terms.
    const field = INPUT_FIELD[problem.field] ?? 'DisplayName';
    const rest = problem.message.startsWith(`${problem.field} `)
      ? problem.message.slice(problem.field.length + 1)
      : problem.message;
    return refused(field, `${field} ${rest}`);
  }
  if (!merchant) throw new PayframeError('not_found', 'The merchant does not exist.');
  return { Success: true, Settings: settingsOf(merchant) };
}

export const SETTINGS_HANDLERS = {
  GetMerchantSettings: getMerchantSettings,
  UpdateMerchantSettings: updateMerchantSettings,
};
