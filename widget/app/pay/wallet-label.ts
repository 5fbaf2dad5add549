/** How a saved card is named in the wallet list (issue 14 §6). Pure. */
import { expiryInPast } from '../../../shared/card/expiry.ts';
import type { WalletCard } from '../../../shared/checkout/index.ts';

/**
 * "Visa ••4242" — brand and last four once each (as the receipt and an ACH account say them); a
 * name the shopper gave the card after it, but not the gateway's default name, which only repeats
 * them.
 */
export function cardLabel(c: WalletCard): string {
  const last4 = c.maskedCardNumber.replace(/\D/g, '').slice(-4);
  const own = c.displayName && !c.displayName.includes(last4) ? c.displayName : null;
  return [[c.cardType, `••${last4}`].filter(Boolean).join(' '), own].filter(Boolean).join(' · ');
}

/** The card's expiry as printed on it, "12/30"; null when the gateway did not say. */
export function expiryText(c: WalletCard): string | null {
  if (!c.expiry) return null;
  return `${String(c.expiry.month).padStart(2, '0')}/${String(c.expiry.year % 100).padStart(2, '0')}`;
}

/**
 * The card can no longer pay, by the rule the gateway applies (valid through the last day of its
 * month anywhere on earth). The gateway leaves such cards out, so this is a card that ran out while
 * the page was open, or a clock ahead of the gateway's.
 */
export function cardExpired(c: WalletCard, now: Date): boolean {
  return c.expiry !== null && expiryInPast(c.expiry.month, c.expiry.year, now);
}
