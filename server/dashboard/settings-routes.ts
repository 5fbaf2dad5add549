/**
 * The merchant's settings in the dashboard (issue 16 "Settings"): business details, branding,
 * checkout options and registered origins, read and replaced through the Transaction Service as the
 * signed-in user (GetMerchantSettings, UpdateMerchantSettings): the gateway checks every value and
 * each user's role (a Viewer or Staff may read, an Admin or Owner may change; 403 otherwise).
 *
 *   GET /settings   → {settings}
 *   PUT /settings   {displayName, website, supportEmail, logoUrl, brandColor, cornerRadius,
 *                    nameOnCardRequired, returnMode, threeDSecure, methods, origins, termsUrl,
 *                    privacyUrl, postalCodeRequired, receiptEmail}
 *                   → {settings}; 400 validation_failed naming the field at fault, nothing saved
 *
 * The whole settings travel each time (the page's form): an empty text clears its field.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ValueOf } from '../../shared/contract/values.ts';
import { parseOr400 } from '../checkout/field-errors.ts';
import { PayframeError } from '../errors.ts';
import { type DashboardDeps, verified } from './user-context.ts';

type Settings = ValueOf<'MerchantSettings'>;
type Input = ValueOf<'MerchantSettingsInput'>;

const optionalText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text.` })
    .max(max, `${field} must be at most ${max} characters.`)
    .nullable()
    .optional();

export const SettingsBody = z.strictObject({
  displayName: z
    .string({ error: 'displayName must be text.' })
    .max(200, 'displayName must be at most 200 characters.'),
  website: optionalText('website', 2048),
  supportEmail: optionalText('supportEmail', 200),
  logoUrl: optionalText('logoUrl', 2048),
  brandColor: optionalText('brandColor', 7),
  cornerRadius: z
    .number({ error: 'cornerRadius must be a number of pixels.' })
    .int('cornerRadius must be a whole number of pixels from 0 to 24.')
    .min(0, 'cornerRadius must be a whole number of pixels from 0 to 24.')
    .max(24, 'cornerRadius must be a whole number of pixels from 0 to 24.')
    .nullable()
    .optional(),
  nameOnCardRequired: z.boolean({ error: 'nameOnCardRequired must be true or false.' }),
  returnMode: z.enum(['immediate', 'confirmation'], {
    error: "returnMode must be 'immediate' or 'confirmation'.",
  }),
  threeDSecure: z.boolean({ error: 'threeDSecure must be true or false.' }),
  methods: z
    .array(z.enum(['card', 'ach'], { error: "methods must be 'card' or 'ach'." }))
    .max(2)
    .min(1, 'methods must hold at least one payment method.'),
  origins: z
    .array(z.string({ error: 'origins must be text.' }).max(2048))
    .max(50, 'origins must hold at most 50.'),
  termsUrl: optionalText('termsUrl', 2048),
  privacyUrl: optionalText('privacyUrl', 2048),
  // Left out: unchanged.
  postalCodeRequired: z.boolean({ error: 'postalCodeRequired must be true or false.' }).optional(),
  receiptEmail: z.boolean({ error: 'receiptEmail must be true or false.' }).optional(),
});
export type SettingsBody = z.infer<typeof SettingsBody>;

export interface SettingsView {
  merchantId: string;
  displayName: string;
  website: string | null;
  supportEmail: string | null;
  logoUrl: string | null;
  brandColor: string | null;
  cornerRadius: number | null;
  nameOnCardRequired: boolean;
  returnMode: 'immediate' | 'confirmation';
  threeDSecure: boolean;
  methods: ('card' | 'ach')[];
  origins: string[];
  termsUrl: string | null;
  privacyUrl: string | null;
  postalCodeRequired: boolean;
  receiptEmail: boolean;
}

export function settingsView(s: Settings): SettingsView {
  return {
    merchantId: s.MerchantID,
    displayName: s.DisplayName ?? '',
    website: s.Website ?? null,
    supportEmail: s.SupportEmail ?? null,
    logoUrl: s.LogoUrl ?? null,
    brandColor: s.BrandColor ?? null,
    cornerRadius: s.CornerRadius ?? null,
    nameOnCardRequired: s.NameOnCardRequired,
    returnMode: s.ReturnMode === 'Confirmation' ? 'confirmation' : 'immediate',
    threeDSecure: s.ThreeDSecureEnrolled,
    methods: [...(s.AcceptsCard ? (['card'] as const) : []), ...(s.AcceptsAch ? (['ach'] as const) : [])],
    origins: s.Origins ?? [],
    termsUrl: s.TermsUrl ?? null,
    privacyUrl: s.PrivacyUrl ?? null,
    postalCodeRequired: s.PostalCodeRequired === true,
    receiptEmail: s.ReceiptEmail !== false,
  };
}

function inputOf(b: SettingsBody): Input {
  return {
    DisplayName: b.displayName,
    Website: b.website || undefined,
    SupportEmail: b.supportEmail || undefined,
    LogoUrl: b.logoUrl || undefined,
    BrandColor: b.brandColor || undefined,
    CornerRadius: b.cornerRadius ?? undefined,
    NameOnCardRequired: b.nameOnCardRequired,
    ReturnMode: b.returnMode === 'confirmation' ? 'Confirmation' : 'Immediate',
    ThreeDSecureEnrolled: b.threeDSecure,
    AcceptsCard: b.methods.includes('card'),
    AcceptsAch: b.methods.includes('ach'),
    Origins: b.origins,
    TermsUrl: b.termsUrl || undefined,
    PrivacyUrl: b.privacyUrl || undefined,
    ...(b.postalCodeRequired === undefined ? {} : { PostalCodeRequired: b.postalCodeRequired }),
    ...(b.receiptEmail === undefined ? {} : { ReceiptEmail: b.receiptEmail }),
  };
}

/** The gateway's field (MerchantSettingsInput) as the page's form names it. */
const BODY_FIELD: Record<string, keyof SettingsBody> = {
  DisplayName: 'displayName',
  Website: 'website',
  SupportEmail: 'supportEmail',
  LogoUrl: 'logoUrl',
  BrandColor: 'brandColor',
  CornerRadius: 'cornerRadius',
  NameOnCardRequired: 'nameOnCardRequired',
  ReturnMode: 'returnMode',
  ThreeDSecureEnrolled: 'threeDSecure',
  AcceptsCard: 'methods',
  AcceptsAch: 'methods',
  Origins: 'origins',
  TermsUrl: 'termsUrl',
  PrivacyUrl: 'privacyUrl',
  PostalCodeRequired: 'postalCodeRequired',
  ReceiptEmail: 'receiptEmail',
};

export async function settingsRoutes(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  app.get('/settings', async (request) => {
    const user = await verified(deps, request);
    const settings = await deps.checkout.port.GetMerchantSettings({}, user.context);
    return { settings: settingsView(settings) };
  });

  app.put('/settings', async (request) => {
    const user = await verified(deps, request);
    const body = parseOr400(SettingsBody, request.body);
    const r = await deps.checkout.port.UpdateMerchantSettings({ settings: inputOf(body) }, user.context);
    if (!r.Success) {
      const gatewayField = r.ErrorField ?? '';
      const field = BODY_FIELD[gatewayField] ?? 'displayName';
      // The gateway names its own field first (`LogoUrl must be …`): the form's name instead.
      const said = r.Message ?? 'is not valid.';
      const rest = said.startsWith(`${gatewayField} `) ? said.slice(gatewayField.length + 1) : said;
      const message = `${field} ${rest}`;
      throw new PayframeError('validation_failed', message, [{ field, code: 'invalid', message }]);
    }
    if (!r.Settings) throw new PayframeError('internal', 'The settings were saved but not answered.');
    return { settings: settingsView(r.Settings) };
  });
}
