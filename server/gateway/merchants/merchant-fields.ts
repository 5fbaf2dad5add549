/**
 * What a merchant's fields may hold (DESIGN.md §18; security.md XSS-1, XSS-2; issue 13 §4): the
 * text policy (shared/text) on every text shown to shoppers, the mixed-script check on display
 * names, https logo URLs, an http(s) website (its host is shown beside the name), registered
 * origins in canonical form, known payment methods.
 */
import { normalizeOrigin, URL_PROBLEM_MESSAGES } from '../../../shared/return-url.ts';
import {
  hasMixedScriptWord,
  MIXED_SCRIPT_CODE,
  MIXED_SCRIPT_MESSAGE,
} from '../../../shared/text/mixed-script.ts';
import {
  normalizeText,
  TEXT_PROBLEM_CODES,
  TEXT_PROBLEM_MESSAGES,
  textProblem,
} from '../../../shared/text/text-policy.ts';
import { PayframeError } from '../../errors.ts';
import { type PaymentMethod, RETURN_MODES, type ReturnMode } from './merchant.ts';

function invalid(field: string, message: string): PayframeError {
  return new PayframeError('validation_failed', `${field} ${message}`, [
    { field, code: 'invalid', message: `${field} ${message}` },
  ]);
}

/** Validates a logo URL at configuration time (security-requirements.md XSS-2, attack row 7). */
export function checkLogoUrl(value: string | null | undefined): string | null {
  return checkHttpsUrl('logoUrl', value);
}

/** The merchant's terms of sale or privacy policy, linked in the payment page's footer: as a logo URL. */
export function checkPolicyUrl(
  field: 'termsUrl' | 'privacyUrl',
  value: string | null | undefined,
): string | null {
  return checkHttpsUrl(field, value);
}

/** An https URL without credentials, at most 2048 characters; empty clears it. */
function checkHttpsUrl(field: string, value: string | null | undefined): string | null {
  const text = value?.trim() ?? '';
  if (!text) return null;
  if (text.length > 2048) throw invalid(field, 'must be at most 2048 characters.');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(field, 'is not a valid URL.');
  }
  if (url.protocol !== 'https:') throw invalid(field, 'must be an https URL.');
  if (url.username || url.password) throw invalid(field, 'must not contain credentials.');
  return url.href;
}

/** A field that fails the text policy (shared/text), named with its problem's stable code. */
function refusedText(field: string, message: string, code: string): PayframeError {
  return new PayframeError('validation_failed', `${field} ${message}`, [
    { field, code, message: `${field} ${message}` },
  ]);
}

/** Text shown to shoppers (address, phone, e-mail): in NFC, without control, bidi or invisible characters. */
export function checkText(field: string, value: string | null | undefined, max = 200): string | null {
  const text = value === null || value === undefined ? '' : normalizeText(value.trim());
  if (text === '') return null;
  if (text.length > max) throw invalid(field, `must be at most ${max} characters.`);
  const problem = textProblem(text);
  if (problem) throw refusedText(field, TEXT_PROBLEM_MESSAGES[problem], TEXT_PROBLEM_CODES[problem]);
  return text;
}

/**
 * A display name (the merchant's name, its business name): the text policy, and no word mixing
 * scripts the way a look-alike spoof does (shared/text/mixed-script.ts, UTS #39).
 */
export function checkDisplayName(field: string, value: string | null | undefined): string | null {
  const name = checkText(field, value);
  if (name !== null && hasMixedScriptWord(name))
    throw refusedText(field, MIXED_SCRIPT_MESSAGE, MIXED_SCRIPT_CODE);
  return name;
}

export function checkName(value: string | undefined): string {
  const name = checkDisplayName('name', value);
  if (!name) throw invalid('name', 'must be 1 to 200 characters.');
  return name;
}

/**
 * The merchant's website, shown as its host beside the name on the hosted page: an http(s) URL
 * without credentials; an international domain is kept in its ASCII (punycode) form, as parsed.
 */
export function checkWebsite(value: string | null | undefined): string | null {
  const text = checkText('website', value, 2048);
  if (text === null) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid('website', 'is not a valid URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw invalid('website', 'must be an https URL.');
  if (url.username || url.password) throw invalid('website', 'must not contain credentials.');
  return url.href;
}

export function checkOrigins(values: readonly string[]): string[] {
  const origins: string[] = [];
  for (const o of values) {
    const n = normalizeOrigin(o);
    if ('problem' in n) throw invalid('origin', `${JSON.stringify(o)} ${URL_PROBLEM_MESSAGES[n.problem]}`);
    if (!origins.includes(n.origin)) origins.push(n.origin);
  }
  return origins;
}

export function checkMethods(methods: readonly PaymentMethod[]): PaymentMethod[] {
  if (methods.length === 0 || methods.some((m) => m !== 'card' && m !== 'ach')) {
    throw invalid('paymentMethods', "must be one or both of 'card' and 'ach'.");
  }
  return [...methods];
}

export function checkReturnMode(mode: ReturnMode): ReturnMode {
  if (!RETURN_MODES.includes(mode)) throw invalid('returnMode', "must be 'immediate' or 'confirmation'.");
  return mode;
}

/** A brand colour: `#rrggbb` (hex, either case), kept in lower case; empty clears it. */
export function checkBrandColor(value: string | null | undefined): string | null {
  const text = value?.trim() ?? '';
  if (text === '') return null;
  if (!/^#[0-9a-fA-F]{6}$/.test(text)) throw invalid('brandColor', 'must be a colour written #RRGGBB.');
  return text.toLowerCase();
}

/** The smallest and largest corner radius, in pixels (the widget's `theme.radius` takes the same). */
export const CORNER_RADIUS_RANGE = { min: 0, max: 24 } as const;

/** A corner radius in whole pixels, 0 to 24; null clears it. */
export function checkCornerRadius(value: number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const { min, max } = CORNER_RADIUS_RANGE;
  if (!Number.isInteger(value) || value < min || value > max)
    throw invalid('cornerRadius', `must be a whole number of pixels from ${min} to ${max}.`);
  return value;
}
