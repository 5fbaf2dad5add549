/**
 * `payframe merchant update --merchant <id> …` (issue 14 §13): changes what a merchant set up
 * wrongly without recreating it — its registered origins (the list that frames the widget and that
 * every ReturnUrl must be on), website, logo, display name, contacts, payment methods, 3-D Secure —
 * and its checkout settings: where the hosted page goes after paying, whether the card form asks
 * for the name on the card and the billing postal code, the Terms and Privacy links in the page's
 * footer, and whether the shopper gets a receipt e-mail (docs/merchant-guide.md "Checkout settings").
 * The gateway's merchant store checks every value (merchant-fields.ts) as for `merchant create`.
 * An empty value clears an optional field. Running instances on PostgreSQL hear of the change through
 * the database (merchant-cache.ts, docs/gateway.md); on PGlite a running server is handed the command
 * and runs it itself (handoff-server.ts), so its cache forgets the merchant at once.
 */
import { parseArgs } from 'node:util';
import { PayframeError } from '../errors.ts';
import type { MerchantChanges } from '../gateway/merchants/merchant-store.ts';
import {
  closeCommandDatabase,
  commandConfig,
  commandGateway,
  openCommandDatabase,
} from './command-context.ts';
import { CliError, type Output } from './output.ts';

export const MERCHANT_UPDATE_OPTIONS = {
  json: { type: 'boolean' },
  merchant: { type: 'string' },
  origin: { type: 'string', multiple: true },
  website: { type: 'string' },
  'logo-url': { type: 'string' },
  'business-name': { type: 'string' },
  email: { type: 'string' },
  phone: { type: 'string' },
  methods: { type: 'string' },
  '3ds': { type: 'boolean' },
  'no-3ds': { type: 'boolean' },
  'return-mode': { type: 'string' },
  'name-on-card': { type: 'boolean' },
  'no-name-on-card': { type: 'boolean' },
  'brand-color': { type: 'string' },
  'corner-radius': { type: 'string' },
  'terms-url': { type: 'string' },
  'privacy-url': { type: 'string' },
  'postal-code': { type: 'boolean' },
  'no-postal-code': { type: 'boolean' },
  'receipt-email': { type: 'boolean' },
  'no-receipt-email': { type: 'boolean' },
} as const;

export const MERCHANT_UPDATE_USAGE =
  'Usage: payframe merchant update --merchant <id> [--origin <url>]... [--website <url>] [--logo-url <url>] ' +
  '[--business-name <name>] [--email <e>] [--phone <p>] [--methods card,ach] [--3ds|--no-3ds] ' +
  '[--return-mode immediate|confirmation] [--name-on-card|--no-name-on-card] [--brand-color #RRGGBB] ' +
  '[--corner-radius <0-24>] [--terms-url <url>] [--privacy-url <url>] [--postal-code|--no-postal-code] ' +
  '[--receipt-email|--no-receipt-email] [--json]';

const orNull = (v: string | undefined) => (v === undefined ? undefined : v.trim() === '' ? null : v);

/** The changes the options ask for; none at all is a usage error (nothing would happen). */
export function changesOf(values: {
  origin?: string[];
  website?: string;
  'logo-url'?: string;
  'business-name'?: string;
  email?: string;
  phone?: string;
  methods?: string;
  '3ds'?: boolean;
  'no-3ds'?: boolean;
  'return-mode'?: string;
  'name-on-card'?: boolean;
  'no-name-on-card'?: boolean;
  'brand-color'?: string;
  'corner-radius'?: string;
  'terms-url'?: string;
  'privacy-url'?: string;
  'postal-code'?: boolean;
  'no-postal-code'?: boolean;
  'receipt-email'?: boolean;
  'no-receipt-email'?: boolean;
}): MerchantChanges {
  if (values['3ds'] && values['no-3ds'])
    throw new CliError('invalid_arguments', '--3ds and --no-3ds contradict each other.', 2);
  if (values['name-on-card'] && values['no-name-on-card'])
    throw new CliError('invalid_arguments', '--name-on-card and --no-name-on-card contradict each other.', 2);
  if (values['postal-code'] && values['no-postal-code'])
    throw new CliError('invalid_arguments', '--postal-code and --no-postal-code contradict each other.', 2);
  if (values['receipt-email'] && values['no-receipt-email'])
    throw new CliError(
      'invalid_arguments',
      '--receipt-email and --no-receipt-email contradict each other.',
      2,
    );
  const mode = values['return-mode'];
  if (mode !== undefined && mode !== 'immediate' && mode !== 'confirmation')
    throw new CliError('invalid_arguments', "--return-mode must be 'immediate' or 'confirmation'.", 2);
  const radius = values['corner-radius']?.trim();
  if (radius !== undefined && radius !== '' && !/^\d{1,2}$/.test(radius))
    throw new CliError(
      'invalid_arguments',
      '--corner-radius must be a whole number of pixels from 0 to 24.',
      2,
    );
  const changes: MerchantChanges = {
    // --origin replaces the whole list: `--origin a --origin b` registers exactly a and b.
    origins: values.origin,
    website: orNull(values.website),
    logoUrl: orNull(values['logo-url']),
    businessName: orNull(values['business-name']),
    email: orNull(values.email),
    phone: orNull(values.phone),
    paymentMethods: values.methods
      ? (values.methods.split(',').map((m) => m.trim()) as MerchantChanges['paymentMethods'])
      : undefined,
    threeDsEnrolled: values['3ds'] ? true : values['no-3ds'] ? false : undefined,
    returnMode: mode,
    nameOnCardRequired: values['name-on-card'] ? true : values['no-name-on-card'] ? false : undefined,
    // The hosted page's branding (issue 16, as the dashboard's Settings): "" clears either.
    brandColor: orNull(values['brand-color']),
    cornerRadius: radius === undefined ? undefined : radius === '' ? null : Number(radius),
    // The payment page's footer links: "" clears either.
    termsUrl: orNull(values['terms-url']),
    privacyUrl: orNull(values['privacy-url']),
    postalCodeRequired: values['postal-code'] ? true : values['no-postal-code'] ? false : undefined,
    receiptEmail: values['receipt-email'] ? true : values['no-receipt-email'] ? false : undefined,
  };
  if (Object.values(changes).every((v) => v === undefined))
    throw new CliError('invalid_arguments', `Nothing to change. ${MERCHANT_UPDATE_USAGE}`, 2);
  return changes;
}

export async function merchantUpdate(args: string[], out: Output): Promise<void> {
  const { values } = parseArgs({ args, strict: true, options: MERCHANT_UPDATE_OPTIONS });
  if (!values.merchant)
    throw new CliError('invalid_arguments', `--merchant is required. ${MERCHANT_UPDATE_USAGE}`, 2);
  const changes = changesOf(values);
  const config = commandConfig();
  const db = await openCommandDatabase(config);
  try {
    const { deps } = await commandGateway(config, db);
    const merchant = await deps.merchants.update(db, values.merchant, changes).catch((err: unknown) => {
      if (err instanceof PayframeError) throw new CliError(err.code, err.message);
      throw err;
    });
    if (!merchant) throw new CliError('not_found', `No merchant ${values.merchant}.`);
    out.result(
      {
        merchantId: merchant.id,
        name: merchant.name,
        businessName: merchant.businessName,
        origins: merchant.origins,
        website: merchant.website,
        logoUrl: merchant.logoUrl,
        paymentMethods: merchant.paymentMethods,
        threeDsEnrolled: merchant.threeDsEnrolled,
        returnMode: merchant.returnMode,
        nameOnCardRequired: merchant.nameOnCardRequired,
        brandColor: merchant.brandColor,
        cornerRadius: merchant.cornerRadius,
        termsUrl: merchant.termsUrl,
        privacyUrl: merchant.privacyUrl,
        postalCodeRequired: merchant.postalCodeRequired,
        receiptEmail: merchant.receiptEmail,
      },
      [
        `Merchant ${merchant.id} updated: ${merchant.businessName ?? merchant.name}`,
        `Origins: ${merchant.origins.length ? merchant.origins.join(', ') : '(none: no page can embed the checkout)'}`,
        `Website: ${merchant.website ?? '(none)'}`,
        `Logo: ${merchant.logoUrl ?? '(none)'}`,
        `After paying: ${merchant.returnMode === 'confirmation' ? 'the receipt until the shopper returns' : 'back to the ReturnUrl at once'}`,
        `Name on card: ${merchant.nameOnCardRequired ? 'asked' : 'not asked'}`,
        `Postal code: ${merchant.postalCodeRequired ? 'asked (the address is checked)' : 'not asked (the address is not checked)'}`,
        `Terms: ${merchant.termsUrl ?? '(none)'}; privacy: ${merchant.privacyUrl ?? '(none)'}`,
        `Receipt e-mail: ${merchant.receiptEmail ? 'sent to the shopper' : 'not sent'}`,
        `Branding: ${merchant.brandColor ?? 'default colour'}, ${merchant.cornerRadius === null ? 'default radius' : `${merchant.cornerRadius}px radius`}`,
      ],
    );
  } finally {
    await closeCommandDatabase(db);
  }
}
