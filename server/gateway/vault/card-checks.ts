/**
 * Card and bank-account checks (DESIGN.md §5, §12): pure, no I/O. Card brands come from the
 * well-kept `credit-card-type` (STYLE.md §12); Luhn from `shared/card/luhn.ts`.
 *
 * Every message here is for a shopper or a merchant and never contains the number it is about
 * (security-requirements.md PCI-10-5, PCI-351-1).
 */
import creditCardType from 'credit-card-type';
import { luhnValid } from '../../../shared/card/luhn.ts';

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

export interface Expiry {
  month: number;
  /** Four digits. */
  year: number;
}

/** Digits of a card number with spaces and dashes removed, or null unless 12–19 digits remain. */
export function normalizePan(text: string): string | null {
  // Spaces and dashes between digit groups, as people type them; a leading sign is not a card number.
  const trimmed = text.trim();
  if (!/^\d/.test(trimmed)) return null;
  const digits = trimmed.replace(/[\s-]/g, '');
  return /^\d{12,19}$/.test(digits) ? digits : null;
}

/** The brand of a card number (or of its first digits), from its BIN. */
export function cardBrand(pan: string): CardBrand {
  const matches = creditCardType(pan);
  // Several brands can share a prefix; prefer one whose lengths include this number's.
  const best = matches.find((m) => m.lengths.includes(pan.length)) ?? matches[0];
  return (best?.niceType as CardBrand | undefined) ?? 'Unknown';
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

const EXPIRY_FORMATS: ReadonlyArray<[RegExp, (m: RegExpExecArray) => [string, string]]> = [
  [/^(\d{2})(\d{2})$/, (m) => [m[1]!, m[2]!]], // MMYY
  [/^(\d{2})(\d{4})$/, (m) => [m[1]!, m[2]!]], // MMYYYY
  [/^(\d{1,2})\s*[/-]\s*(\d{2}|\d{4})$/, (m) => [m[1]!, m[2]!]], // MM/YY, MM/YYYY, M/YY, MM-YY
  [/^(\d{4})-(\d{1,2})$/, (m) => [m[2]!, m[1]!]], // YYYY-MM
];

/** `{month, year}` from MMYY, MM/YY, MM/YYYY, MMYYYY or YYYY-MM; null for anything else. */
export function parseExpiry(text: string): Expiry | null {
  const t = text.trim();
  for (const [pattern, pick] of EXPIRY_FORMATS) {
    const m = pattern.exec(t);
    if (!m) continue;
    const [mm, yy] = pick(m);
    const month = Number(mm);
    const year = yy.length === 2 ? 2000 + Number(yy) : Number(yy);
    if (month < 1 || month > 12 || year < 2000 || year > 2099) return null;
    return { month, year };
  }
  return null;
}

/** 'MMYY', the form CardDetail.ExpirationDate carries. */
export function formatExpiry({ month, year }: Expiry): string {
  return `${String(month).padStart(2, '0')}${String(year % 100).padStart(2, '0')}`;
}

/**
 * A card is valid through the last day of its expiry month, wherever the shopper is: it expires
 * when that day has ended in the last time zone on earth (UTC-12), so nobody is turned away early.
 */
export function isExpired({ month, year }: Expiry, now: Date): boolean {
  const endsAt = Date.UTC(year, month, 1, 12); // month is 1-based, so this is the next month's first day
  return now.getTime() >= endsAt;
}

/** How far ahead an expiry may be before it is taken for a typing mistake. */
const MAX_YEARS_AHEAD = 20;

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
  const pan = normalizePan(input.number);
  if (!pan || !luhnValid(pan)) {
    return fail('invalid_number', 'The card number is not valid. Please check it and try again.');
  }
  const brand = cardBrand(pan);
  let expiry: Expiry | undefined;
  if (input.expiry !== undefined && input.expiry !== null) {
    const parsed = typeof input.expiry === 'string' ? parseExpiry(input.expiry) : checkedExpiry(input.expiry);
    if (!parsed || parsed.year > now.getUTCFullYear() + MAX_YEARS_AHEAD) {
      return fail('invalid_expiry', 'The expiration date is not valid. Please enter it as MM/YY.');
    }
    if (isExpired(parsed, now)) return fail('expired', 'This card has expired. Please use another card.');
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
  const ok = Number.isInteger(e.month) && Number.isInteger(e.year) && e.month >= 1 && e.month <= 12;
  return ok && e.year >= 2000 && e.year <= 2099 ? e : null;
}

/** Valid ABA routing prefixes: Federal Reserve districts 01–12 (and 00, the US Government), thrifts 21–32, electronic 61–72, traveler's cheques 80. */
function abaPrefixValid(prefix: number): boolean {
  return prefix <= 12 || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72) || prefix === 80;
}

/** A US ABA routing number: nine digits, a valid prefix, weights 3-7-1 summing to a multiple of 10. */
export function abaRoutingValid(routing: string): boolean {
  const r = routing.trim();
  if (!/^\d{9}$/.test(r) || r === '000000000' || !abaPrefixValid(Number(r.slice(0, 2)))) return false;
  const weights = [3, 7, 1];
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (r.charCodeAt(i) - 48) * weights[i % 3]!;
  return sum % 10 === 0;
}

/** A bank account number for display: its last four digits only ('****6789'). */
export function maskAccount(account: string): string {
  const digits = account.replace(/\D/g, '');
  return digits.length > 4 ? `****${digits.slice(-4)}` : '****';
}
