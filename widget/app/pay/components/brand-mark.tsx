/**
 * The card networks' own marks (the `payment-icons` package's SVGs, made small at build time:
 * scripts/brand-marks-plugin.ts), as images of the build: cached for good, outside the page's
 * script. Decorative: the brand's name is said in text beside the mark or in the field's
 * description.
 */
import { MARK_URLS } from 'virtual:brand-marks';

/** Every brand with a mark, as credit-card-type names it, and as the page writes it. */
export const MARKED_BRANDS = [
  ['visa', 'Visa'],
  ['mastercard', 'Mastercard'],
  ['american-express', 'American Express'],
  ['discover', 'Discover'],
  ['diners-club', 'Diners Club'],
  ['jcb', 'JCB'],
  ['unionpay', 'UnionPay'],
] as const;

/** The marks shown in the card number field before a brand is known. */
export const LEAD_BRANDS = MARKED_BRANDS.slice(0, 4);

/** The mark's key for a brand as the gateway names it ('Visa', 'Mastercard'…); '' when it has none. */
export function markOf(brandName: string | null): string {
  const name = (brandName ?? '').toLowerCase().replace(/[^a-z]/g, '');
  return (
    MARKED_BRANDS.find(
      ([type, n]) => n.toLowerCase().replace(/[^a-z]/g, '') === name || type === name,
    )?.[0] ?? ''
  );
}

export function BrandMark({ type }: { type: string }) {
  const url = (MARK_URLS as Record<string, string | undefined>)[type];
  if (!url) return null;
  return <img class="pf-brand" src={url} alt="" width={32} height={20} data-brand={type} decoding="async" />;
}
