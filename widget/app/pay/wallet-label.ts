/** How a saved card is named in the wallet list (issue 14 §6). Pure. */
import type { WalletCard } from '../../../shared/checkout/index.ts';

/**
 * "Visa •••• 4242" — brand and last four once each; a name the shopper gave the card after it, but
 * not the gateway's default name, which only repeats them.
 */
export function cardLabel(c: WalletCard): string {
  const last4 = c.maskedCardNumber.replace(/\D/g, '').slice(-4);
  const own = c.displayName && !c.displayName.includes(last4) ? c.displayName : null;
  return [[c.cardType, `•••• ${last4}`].filter(Boolean).join(' '), own].filter(Boolean).join(' · ');
}
