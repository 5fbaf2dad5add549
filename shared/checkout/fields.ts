/**
 * Field rules of the checkout API, shared by the server's validation, the OpenAPI document and the
 * widget's forms (STYLE.md §2: declared once). Pure: no Node or DOM imports.
 *
 * Messages never quote the value: a card number typed into the wrong field must not come back in
 * an error (security-requirements.md PCI-10-5).
 */
import { z } from 'zod';
import { abaRoutingValid, BANK_ACCOUNT_NUMBER_PATTERN } from '../card/bank-account.ts';
import { validCardNumber } from '../card/card-number.ts';
import { containsCardNumber } from '../card/card-number-in-text.ts';
import { parseExpiry } from '../card/expiry.ts';
import {
  normalizeText,
  TEXT_PROBLEM_CODES,
  TEXT_PROBLEM_MESSAGES,
  textProblem,
} from '../text/text-policy.ts';

/** A decimal string with at most two decimals, greater than zero, at most 9,999,999,999.99. */
export const AMOUNT_PATTERN = /^(?:0|[1-9]\d{0,9})(?:\.\d{1,2})?$/;

export const Amount = z
  .string({ error: 'amount must be a decimal string such as "10.50".' })
  .regex(AMOUNT_PATTERN, 'amount must be a decimal string with at most two decimals, such as "10.50".')
  .refine((v) => !/^0(?:\.0{1,2})?$/.test(v), 'amount must be greater than zero.')
  .meta({ description: 'Decimal string, e.g. "10.50"; never a JSON number.', example: '24.99' });

// Codes Intl knows that are not money one can pay with (special drawing rights, unit of account).
const NOT_PAYABLE = new Set(['XDR', 'XSU', 'XUA', 'XBA', 'XBB', 'XBC', 'XBD', 'XTS', 'XXX']);
let known: ReadonlySet<string> | null = null;

/** True for an ISO 4217 code of a currency a shopper can pay in. */
export function isPayableCurrency(code: string): boolean {
  known ??= new Set(Intl.supportedValuesOf('currency'));
  return known.has(code) && !NOT_PAYABLE.has(code);
}

/** Decimals a currency allows (JPY 0, USD 2); the gateway keeps at most two. */
export function currencyDecimals(code: string): number {
  try {
    const digits = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
      .maximumFractionDigits;
    return Math.min(digits ?? 2, 2);
  } catch {
    return 2;
  }
}

/** True when `amount` has no more decimals than `currency` allows ("10.5" JPY is not). */
export function amountFitsCurrency(amount: string, currency: string): boolean {
  const decimals = (amount.split('.')[1] ?? '').replace(/0+$/, '').length;
  return decimals <= currencyDecimals(currency);
}

export const Currency = z
  .string({ error: 'currency must be a three-letter ISO 4217 code.' })
  .regex(/^[A-Z]{3}$/, 'currency must be a three-letter ISO 4217 code in capitals, such as "USD".')
  .refine(isPayableCurrency, 'currency is not a currency Payframe can charge.')
  .meta({ example: 'USD' });

/**
 * Text a merchant or shopper typed, under the one text policy (shared/text/text-policy.ts): trimmed,
 * in NFC, bounded, no control, bidi or invisible character, no card number.
 */
export function text(field: string, max: number) {
  return z
    .string({ error: `${field} must be text.` })
    .trim()
    .overwrite(normalizeText)
    .min(1, `${field} must not be empty.`)
    .max(max, `${field} must be at most ${max} characters.`)
    .check(textPolicy(field))
    .check(noCardNumber(field));
}

/** The text policy's check: the field named, the problem told, the value never quoted. */
export function textPolicy(field: string) {
  return z.superRefine<string>((value, ctx) => {
    const problem = textProblem(value);
    if (problem === null) return;
    ctx.addIssue({
      code: 'custom',
      message: `${field} ${TEXT_PROBLEM_MESSAGES[problem]}`,
      params: { code: TEXT_PROBLEM_CODES[problem] },
    });
  });
}

/**
 * The card-number rule of every free-text field (DESIGN.md §18), fields with a shape of their own
 * (e-mail, phone) included: the field is named, the value never quoted.
 */
export function noCardNumber(field: string) {
  return z.refine<string>((v) => !containsCardNumber(v), {
    message: `${field} must not contain a card number.`,
    params: { code: 'card_number' },
  });
}

/** True when the text policy refuses `value` (a control, bidi or invisible character). */
export function hasControlCharacters(value: string): boolean {
  return textProblem(value) !== null;
}

export const CardNumber = z
  .string({ error: 'Enter the card number.' })
  .max(30, 'Please check the card number.')
  .refine((v) => validCardNumber(v) !== null, 'Please check the card number.')
  .meta({ example: '4242 4242 4242 4242' });

/** The forms shared/card/expiry.ts accepts: MM/YY, MM/YYYY, MMYY, MMYYYY or YYYY-MM. */
export const CardExpiry = z
  .string({ error: 'Enter the expiry date.' })
  .trim()
  .refine((v) => parseExpiry(v) !== null, 'Enter the expiry date as MM/YY.')
  .meta({ example: '12/30' });

export const Cvv = z
  .string({ error: 'Enter the security code.' })
  .regex(/^\d{3,4}$/, 'The security code is 3 digits (4 on American Express).');

export const RoutingNumber = z
  .string({ error: 'Enter the routing number.' })
  .refine(abaRoutingValid, 'Please check the routing number (9 digits).')
  .meta({ example: '011000015' });

export const AccountNumber = z
  .string({ error: 'Enter the account number.' })
  .regex(BANK_ACCOUNT_NUMBER_PATTERN, 'The account number is 4 to 17 digits.');

export const AccountType = z.enum(['checking', 'savings', 'businessChecking'], {
  error: 'Choose checking, savings or business checking.',
});

/** An Idempotency-Key header (IDEM-1): 1–255 visible ASCII characters, e.g. a UUID v4. */
export const IdempotencyKey = z
  .string({ error: 'The Idempotency-Key header is required.' })
  .min(1, 'The Idempotency-Key header is required.')
  .max(255, 'The Idempotency-Key header must be at most 255 characters.')
  .regex(/^[\x21-\x7e]+$/, 'The Idempotency-Key header must be visible ASCII characters.');

/** A checkout-session token as the gateway makes them. */
export const SESSION_TOKEN_PATTERN = /^cs_[A-Za-z0-9_-]{43}$/;
