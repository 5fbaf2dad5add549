/**
 * The merchant dashboard's settings extensions. Settings (issue 16): the merchant's business details, branding, checkout options and registered origins, read and changed by its Owner or Admin.
 * Declared with the contract's builders (model.ts); extensions.ts adds them to the extension lists,
 * so the WSDL, codec, help page and types derive from them. docs/dashboard.md says what each means.
 */
import { complexType, field, listOf, operation } from './model.ts';

const required = { required: true } as const;

/** The enumerations of this part, each declared once in the WSDL. */
export const settingsEnumerations = [] as const;

/**
 * The settings' fields, as GetMerchantSettings answers them and UpdateMerchantSettings takes them
 * whole: an optional text absent (or empty) is cleared, the lists are the complete lists.
 */
const settingsFields = [
  // The name the hosted page shows (the security issue's text rules; no look-alike mixed scripts).
  field('DisplayName', 'string'),
  field('Website', 'string'), // http(s); its host is shown beside the name
  field('SupportEmail', 'string'),
  field('LogoUrl', 'string'), // https only
  field('BrandColor', 'string'), // #RRGGBB; absent: Payframe's default look
  field('CornerRadius', 'int'), // pixels, 0–24; absent: Payframe's default
  field('NameOnCardRequired', 'boolean', required),
  // After a successful payment on the hosted page: 'Immediate' (back to the ReturnUrl at once) or
  // 'Confirmation' (the receipt until the shopper returns), as CheckoutReturnMode names them.
  field('ReturnMode', 'string', required),
  field('ThreeDSecureEnrolled', 'boolean', required),
  // The methods the checkout offers: at least one.
  field('AcceptsCard', 'boolean', required),
  field('AcceptsAch', 'boolean', required),
  // The registered origins, each as a ReturnUrl's origin is checked (https, or http on localhost).
  field('Origins', listOf('string')),
  // The merchant's terms of sale and privacy policy (https only), linked in the payment page's footer.
  field('TermsUrl', 'string'),
  field('PrivacyUrl', 'string'),
  // The card form asks for the billing postal code, checked by the processor (AVS); off: not asked,
  // and the address is not checked. Left out of UpdateMerchantSettings: unchanged.
  field('PostalCodeRequired', 'boolean'),
  // A receipt e-mail to the shopper after an approved payment (on by default). Left out of
  // UpdateMerchantSettings: unchanged.
  field('ReceiptEmail', 'boolean'),
] as const;

/** The complex types of this part. */
export const settingsTypes = [
  complexType('MerchantSettings', [field('MerchantID', 'long', required), ...settingsFields]),
  complexType('MerchantSettingsInput', settingsFields),
  complexType('MerchantSettingsResult', [
    // false: nothing was saved; ErrorField names the field at fault (its name in
    // MerchantSettingsInput) and Message says what is wrong with it.
    field('Success', 'boolean', required),
    field('Message', 'string'),
    field('ErrorField', 'string'),
    field('Settings', 'MerchantSettings'), // the settings as they are now
  ]),
] as const;

/** The operations of this part (each with `extension: true`). */
export const settingsOperations = [
  operation({
    name: 'GetMerchantSettings',
    doc: "The merchant's business details, branding, checkout options and registered origins (merchant only).",
    params: [],
    result: 'MerchantSettings',
    extension: true,
  }),
  operation({
    name: 'UpdateMerchantSettings',
    doc: "Replaces the merchant's settings, all checked before any is saved; new sessions use them at once (merchant only).",
    params: [field('settings', 'MerchantSettingsInput')],
    result: 'MerchantSettingsResult',
    extension: true,
  }),
] as const;
