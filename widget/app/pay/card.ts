/**
 * Card and bank-account checks for the forms. They mirror the server's zod rules
 * (shared/checkout/fields.ts), which stay authoritative; zod itself is kept out of the page's
 * first paint (it would be most of the 40 KB budget).
 */
import creditCardType from 'credit-card-type';
import { luhnValid } from '../../../shared/card/luhn.ts';
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

/** "1230" → "12/30"; a single month digit above 1 becomes "0x/". */
export function formatExpiry(value: string, deleting: boolean): string {
  let d = digitsOf(value).slice(0, 4);
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
export type Problem = { key: MessageKey; vars?: Record<string, string | number> };
export type Problems<T> = Partial<Record<keyof T, Problem>>;

export function cardNumberProblem(value: string): Problem | undefined {
  const d = digitsOf(value);
  if (d === '') return { key: 'errCardNumberRequired' };
  const brand = brandOf(d);
  if (!/^\d{12,19}$/.test(d) || !luhnValid(d) || (brand.type !== '' && !brand.lengths.includes(d.length)))
    return { key: 'errCardNumber' };
  return undefined;
}

/** MM/YY, valid through the last day of its month (docs/test-cards.md "Expiry"). */
export function expiryProblem(value: string, now = new Date()): Problem | undefined {
  if (value.trim() === '') return { key: 'errExpiryRequired' };
  const m = /^(0[1-9]|1[0-2])\s*\/\s*(\d{2})$/.exec(value.trim());
  if (!m) return { key: 'errExpiryFormat' };
  const year = 2000 + Number(m[2]);
  const month = Number(m[1]);
  if (year * 12 + month < now.getFullYear() * 12 + now.getMonth() + 1) return { key: 'errExpiryPast' };
  return undefined;
}

export function cvvProblem(value: string, size: number): Problem | undefined {
  if (value === '') return { key: 'errCvvRequired' };
  return new RegExp(`^\\d{${size}}$`).test(value) ? undefined : { key: 'errCvvLength', vars: { n: size } };
}

export function cardProblems(v: CardValues): Problems<CardValues> {
  const brand = brandOf(digitsOf(v.number));
  return {
    number: cardNumberProblem(v.number),
    expiry: expiryProblem(v.expiry),
    cvv: cvvProblem(v.cvv, brand.cvvSize),
    name: v.name.trim() === '' ? { key: 'errNameRequired' } : undefined,
  };
}

/** ABA checksum (3-7-1), as shared/checkout/fields.ts abaChecksumValid (that module imports zod). */
export function abaValid(routing: string): boolean {
  if (!/^\d{9}$/.test(routing) || routing === '000000000') return false;
  const w = [3, 7, 1];
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (routing.charCodeAt(i) - 48) * w[i % 3]!;
  return sum % 10 === 0;
}

export interface AchValues {
  routing: string;
  account: string;
  accountType: 'checking' | 'savings' | 'businessChecking';
  name: string;
  authorized: boolean;
}

export function achProblems(v: AchValues): Problems<AchValues> {
  return {
    routing: abaValid(v.routing) ? undefined : { key: 'errRouting' },
    account: /^\d{4,17}$/.test(v.account) ? undefined : { key: 'errAccount' },
    name: v.name.trim() === '' ? { key: 'errNameOnAccount' } : undefined,
    authorized: v.authorized ? undefined : { key: 'errAuthorize' },
  };
}
