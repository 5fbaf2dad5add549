/**
 * Card and bank-account checks for the forms: the rules of shared/card/, the same functions the
 * server's zod schemas (shared/checkout/fields.ts) and the gateway call, so the form accepts exactly
 * what the server does. zod itself is kept out of the page's first paint (it would be most of the
 * 40 KB budget); shared/card/ has no dependency.
 */
import creditCardType from 'credit-card-type';
import { abaRoutingValid, bankAccountNumberValid } from '../../../shared/card/bank-account.ts';
import { validCardNumber } from '../../../shared/card/card-number.ts';
import { expiryInPast, expiryTooFarAhead, parseExpiry } from '../../../shared/card/expiry.ts';
import type { MessageKey } from './i18n/index.ts';

export interface Brand {
  type: string;
  name: string;
  gaps: number[];
  lengths: number[];
  cvvSize: number;
}

const UNKNOWN: Brand = {
  type: '',
  name: '',
  gaps: [4, 8, 12],
  lengths: [12, 13, 14, 15, 16, 17, 18, 19],
  cvvSize: 3,
};

export function digitsOf(value: string): string {
  return value.replace(/\D/g, '');
}

/** The brand once the digits name exactly one (a "4" is Visa; a "5" could be several). */
export function brandOf(digits: string): Brand {
  if (digits === '') return UNKNOWN;
  const found = creditCardType(digits);
  const c = found.length === 1 ? found[0] : undefined;
  if (!c) return UNKNOWN;
  return { type: c.type, name: c.niceType, gaps: c.gaps, lengths: c.lengths, cvvSize: c.code.size };
}

/** Digits grouped as the brand prints them (4-4-4-4, Amex 4-6-5), cut at the brand's longest length. */
export function formatCardNumber(value: string): string {
  const brand = brandOf(digitsOf(value));
  const digits = digitsOf(value).slice(0, Math.max(...brand.lengths));
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (brand.gaps.includes(i)) out += ' ';
    out += digits[i];
  }
  return out;
}

/**
 * As the shopper types: "1230" → "12/30", "122030" → "12/2030"; a single month digit above 1 becomes
 * "0x/". A whole date filled in or pasted in another accepted form ("2030-12") is written as MM/YYYY.
 */
export function formatExpiry(value: string, deleting: boolean): string {
  const whole = parseExpiry(value);
  if (whole) {
    const year = digitsOf(value).length === 4 ? String(whole.year).slice(2) : String(whole.year);
    return `${String(whole.month).padStart(2, '0')}/${year}`;
  }
  let d = digitsOf(value).slice(0, 6);
  if (d.length === 1 && d > '1') d = `0${d}`;
  if (d.length > 2 || (d.length === 2 && !deleting)) return `${d.slice(0, 2)}/${d.slice(2)}`;
  return d;
}

export interface CardValues {
  number: string;
  expiry: string;
  cvv: string;
  name: string;
  zip: string;
}

/** What the card form asks beyond number, expiry and CVC: the merchant's settings. */
export interface CardAsks {
  name: boolean;
  postalCode: boolean;
}
/**
 * A field's problem: a message of the page's dictionary, or words already in the shopper's language
 * (a decline's message, shown at the field it concerns).
 */
export type Problem = { key: MessageKey; vars?: Record<string, string | number> } | { text: string };
export type Problems<T> = Partial<Record<keyof T, Problem>>;

export function cardNumberProblem(value: string): Problem | undefined {
  if (digitsOf(value) === '') return { key: 'errCardNumberRequired' };
  return validCardNumber(value) ? undefined : { key: 'errCardNumber' };
}

/** An accepted form, valid through the last day of its month (docs/test-cards.md "Expiry"). */
export function expiryProblem(value: string, now = new Date()): Problem | undefined {
  if (value.trim() === '') return { key: 'errExpiryRequired' };
  const expiry = parseExpiry(value);
  if (!expiry || expiryTooFarAhead(expiry.year, now)) return { key: 'errExpiryFormat' };
  return expiryInPast(expiry.month, expiry.year, now) ? { key: 'errExpiryPast' } : undefined;
}

export function cvvProblem(value: string, size: number): Problem | undefined {
  if (value === '') return { key: 'errCvvRequired' };
  return new RegExp(`^\\d{${size}}$`).test(value) ? undefined : { key: 'errCvvLength', vars: { n: size } };
}

/** The name on the card and the postal code are checked only when the merchant asks for them. */
export function cardProblems(v: CardValues, asks: CardAsks): Problems<CardValues> {
  const brand = brandOf(digitsOf(v.number));
  return {
    number: cardNumberProblem(v.number),
    expiry: expiryProblem(v.expiry),
    cvv: cvvProblem(v.cvv, brand.cvvSize),
    name: asks.name && v.name.trim() === '' ? { key: 'errNameRequired' } : undefined,
    zip: asks.postalCode && v.zip.trim() === '' ? { key: 'errZipRequired' } : undefined,
  };
}

export interface AchValues {
  routing: string;
  account: string;
  /** The account number typed a second time: a digit wrong is caught before the bank sees it. */
  confirm: string;
  accountType: 'checking' | 'savings' | 'businessChecking';
  name: string;
  authorized: boolean;
}

export function achProblems(v: AchValues): Problems<AchValues> {
  return {
    routing: abaRoutingValid(v.routing) ? undefined : { key: 'errRouting' },
    account: bankAccountNumberValid(v.account) ? undefined : { key: 'errAccount' },
    confirm:
      v.confirm === ''
        ? { key: 'errConfirmRequired' }
        : v.confirm !== v.account
          ? { key: 'errConfirmMismatch' }
          : undefined,
    name: v.name.trim() === '' ? { key: 'errNameOnAccount' } : undefined,
    authorized: v.authorized ? undefined : { key: 'errAuthorize' },
  };
}
