/**
 * The shopper's contacts that key the wallet (docs/gateway-wallet-codes.md "Contacts"): pure, no
 * I/O. Everything that stores, matches or sends to a contact uses these forms, so
 * `Jo@Shop.example` and `jo@shop.example`, or `+1 (415) 555-0100` and `4155550100`, are one shopper.
 *
 *   e-mail: trimmed and lower-cased, at most 254 characters, `local@domain.tld` without spaces;
 *   phone:  '+' and 7–15 digits (E.164). Spaces, dots, dashes, slashes and parentheses are dropped;
 *           a leading 00 is read as '+'; without a country code, 10 digits (or 11 starting with 1)
 *           are a North American number (+1), anything else must be given in international form.
 */

export interface Contacts {
  email: string | null;
  phone: string | null;
}

export type ContactsResult = { ok: true; contacts: Contacts } | { ok: false; message: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The stored form of an e-mail address, or null when it is not one. */
export function normalizeEmail(text: string): string | null {
  const email = text.trim().toLowerCase();
  return email.length <= 254 && EMAIL.test(email) ? email : null;
}

/** The stored form of a phone number ('+14155550100'), or null when it is not one. */
export function normalizePhone(text: string): string | null {
  let t = text.trim().replace(/[\s./()-]/g, '');
  if (t.startsWith('00')) t = `+${t.slice(2)}`;
  if (t.startsWith('+')) return /^\+[1-9]\d{6,14}$/.test(t) ? t : null;
  if (/^[2-9]\d{9}$/.test(t)) return `+1${t}`;
  if (/^1[2-9]\d{9}$/.test(t)) return `+${t}`;
  return null;
}

/**
 * Both contacts from what a caller sent (empty or absent: not given). A given contact that is not
 * valid is a problem, not "not given": the caller meant someone.
 */
export function parseContacts(input: {
  email?: string | null;
  phone?: string | null;
  emailField?: string;
  phoneField?: string;
}): ContactsResult {
  const emailText = input.email?.trim() ?? '';
  const phoneText = input.phone?.trim() ?? '';
  const email = emailText ? normalizeEmail(emailText) : null;
  if (emailText && !email) {
    return { ok: false, message: `${input.emailField ?? 'email'} is not a valid e-mail address.` };
  }
  const phone = phoneText ? normalizePhone(phoneText) : null;
  if (phoneText && !phone) {
    return {
      ok: false,
      message: `${input.phoneField ?? 'phoneNumber'} is not a valid phone number; give it in international form, e.g. +44 20 7946 0958.`,
    };
  }
  return { ok: true, contacts: { email, phone } };
}

export function hasContact(c: Contacts): boolean {
  return c.email !== null || c.phone !== null;
}
