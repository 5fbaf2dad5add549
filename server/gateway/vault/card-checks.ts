/**
 * The gateway's card checks (DESIGN.md §5, §12): pure, no I/O. Card brands come from the well-kept
 * `credit-card-type` (STYLE.md §12); what a well-formed number, an expiry and a routing number are
 * comes from `shared/card/`, the rules the widget and the checkout API use too.
 *
 * Every message here is for a shopper or a merchant and never contains the number it is about
 * (security-requirements.md PCI-10-5, PCI-351-1).
 */
import creditCardType from 'credit-card-type';
import { validCardNumber } from '../../../shared/card/card-number.ts';
import {
  type Expiry,
  expiryInPast,
  expiryInRange,
  expiryTooFarAhead,
  parseExpiry,
} from '../../../shared/card/expiry.ts';

/** Display names, as credit-card-type's `niceType` spells them, or 'Unknown' for an unlisted BIN. */
export type CardBrand =
  | 'Visa'
  | 'Mastercard'
  | 'American Express'
  | 'Discover'
  | 'Diners Club'
  | 'JCB'
  | 'UnionPay'
  | 'Maestro'
  | 'Mir'
  | 'Elo'
  | 'Hiper'
  | 'Hipercard'
  | 'Verve'
  | 'Naranja'
  | 'Troy'
  | 'Unknown';

/** credit-card-type's longest pattern: a number's brand depends on no more of its digits. */
const BRAND_DIGITS = 8;
/** Brands by BIN (first BRAND_DIGITS digits) and length; bounded, emptied when full. */
const brands = new Map<string, CardBrand>();
const BRANDS_MAX = 2048;

/**
 * The brand of a card number (or of its first digits), from its BIN. Kept by BIN and length: the
 * library tests every brand's patterns on each call, and a pay asks twice (the check, the vault).
 */
export function cardBrand(pan: string): CardBrand {
  const key = pan.length >= BRAND_DIGITS ? `${pan.slice(0, BRAND_DIGITS)}/${pan.length}` : null;
  const known = key === null ? undefined : brands.get(key);
  if (known) return known;
  const matches = creditCardType(pan);
  // Several brands can share a prefix; prefer one whose lengths include this number's.
  const best = matches.find((m) => m.lengths.includes(pan.length)) ?? matches[0];
  const brand = (best?.niceType as CardBrand | undefined) ?? 'Unknown';
  if (key !== null) {
    if (brands.size >= BRANDS_MAX) brands.clear();
    brands.set(key, brand);
  }
  return brand;
}

/** Length of the card security code: four digits on the front of American Express cards. */
export function cvvLength(brand: CardBrand): 3 | 4 {
  return brand === 'American Express' ? 4 : 3;
}

/**
 * Digits shown of a PAN (security-requirements.md PCI-341-1: at most first six + last four). Numbers
 * of 13 digits or more show 6 + 4; the rare 12-digit ones (some Maestro) show 4 + 4 so that at least
 * four digits stay hidden.
 */
export function panParts(pan: string): { bin: string; last4: string; masked: string } {
  const binLength = pan.length >= 13 ? 6 : 4;
  const bin = pan.slice(0, binLength);
  const last4 = pan.slice(-4);
  return { bin, last4, masked: maskPan(bin, last4, pan.length) };
}

/** '424242******4242' from the shown parts and the number's length. */
export function maskPan(bin: string, last4: string, length: number): string {
  return `${bin}${'*'.repeat(Math.max(length - bin.length - last4.length, 0))}${last4}`;
}

export type CardCheckFailure = {
  ok: false;
  reason: 'invalid_number' | 'invalid_expiry' | 'expired' | 'invalid_cvv';
  /** The input the problem is about, so a form can show it there. */
  field: 'number' | 'expiry' | 'cvv';
  message: string;
};

export type CardCheckResult =
  | { ok: true; pan: string; brand: CardBrand; bin: string; last4: string; masked: string; expiry?: Expiry }
  | CardCheckFailure;

function fail(reason: CardCheckFailure['reason'], message: string): CardCheckFailure {
  const field = reason === 'invalid_number' ? 'number' : reason === 'invalid_cvv' ? 'cvv' : 'expiry';
  return { ok: false, reason, field, message };
}

/**
 * Checks what a shopper typed. `expiry` and `cvv` are checked when given. The CVV is only looked
 * at, never returned (PCI-331-2).
 */
export function validateCard(
  input: { number: string; expiry?: string | Expiry | null; cvv?: string | null },
  now: Date,
): CardCheckResult {
  const pan = validCardNumber(input.number);
  if (!pan) {
    return fail('invalid_number', 'The card number is not valid. Please check it and try again.');
  }
  const brand = cardBrand(pan);
  let expiry: Expiry | undefined;
  if (input.expiry !== undefined && input.expiry !== null) {
    const parsed = typeof input.expiry === 'string' ? parseExpiry(input.expiry) : checkedExpiry(input.expiry);
    if (!parsed || expiryTooFarAhead(parsed.year, now)) {
      return fail('invalid_expiry', 'The expiration date is not valid. Please enter it as MM/YY.');
    }
    if (expiryInPast(parsed.month, parsed.year, now))
      return fail('expired', 'This card has expired. Please use another card.');
    expiry = parsed;
  }
  if (input.cvv !== undefined && input.cvv !== null) {
    const length = cvvLength(brand);
    if (!new RegExp(`^\\d{${length}}$`).test(input.cvv.trim())) {
      return fail(
        'invalid_cvv',
        length === 4
          ? 'The security code must be the 4 digits on the front of the card.'
          : 'The security code must be the 3 digits on the back of the card.',
      );
    }
  }
  return { ok: true, pan, brand, ...panParts(pan), ...(expiry ? { expiry } : {}) };
}

function checkedExpiry(e: Expiry): Expiry | null {
  return expiryInRange(e.month, e.year) ? e : null;
}

/** A bank account number for display: its last four digits only ('****6789'). */
export function maskAccount(account: string): string {
  const digits = account.replace(/\D/g, '');
  return digits.length > 4 ? `****${digits.slice(-4)}` : '****';
}
