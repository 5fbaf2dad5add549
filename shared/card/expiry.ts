/**
 * A card's expiry: the one set of forms every Payframe input accepts, and when a card stops being
 * valid. The widget's form, the checkout API's schema (shared/checkout/fields.ts) and the
 * Transaction Service's `ExpirationDate` (server/gateway/vault/card-checks.ts) all parse with
 * `parseExpiry`, so what one accepts the others accept (docs/test-cards.md "Expiry"). Pure: no
 * Node or DOM imports.
 */

export interface Expiry {
  /** 1–12. */
  month: number;
  /** Four digits, 2000–2099. */
  year: number;
}

/**
 * The accepted forms, and only these (a two-digit year is 20YY):
 *   MM/YY, MM/YYYY   a slash, with or without spaces around it, as people type and browsers fill;
 *   MMYY, MMYYYY     the same without a separator, as `CardDetail.ExpirationDate` is written;
 *   YYYY-MM          ISO 8601, as `<input type="month">` and many systems write it.
 * The month always has two digits: without them "1230" and "12030" would each read two ways.
 */
const FORMS: ReadonlyArray<{ pattern: RegExp; month: number; year: number }> = [
  { pattern: /^(\d{2})(?:\s*\/\s*)?(\d{2}|\d{4})$/, month: 1, year: 2 },
  { pattern: /^(\d{4})-(\d{2})$/, month: 2, year: 1 },
];

/** `{month, year}` from one of the accepted forms (surrounding spaces ignored); null otherwise. */
export function parseExpiry(text: string): Expiry | null {
  const t = text.trim();
  for (const form of FORMS) {
    const m = form.pattern.exec(t);
    if (!m) continue;
    const mm = m[form.month]!;
    const yy = m[form.year]!;
    const month = Number(mm);
    const year = yy.length === 2 ? 2000 + Number(yy) : Number(yy);
    return expiryInRange(month, year) ? { month, year } : null;
  }
  return null;
}

/** A real month of a year 2000–2099 (the years a two-digit form can name). */
export function expiryInRange(month: number, year: number): boolean {
  return (
    Number.isInteger(month) &&
    Number.isInteger(year) &&
    month >= 1 &&
    month <= 12 &&
    year >= 2000 &&
    year <= 2099
  );
}

/** 'MMYY', the form `CardDetail.ExpirationDate` carries. */
export function formatExpiryMMYY({ month, year }: Expiry): string {
  return `${String(month).padStart(2, '0')}${String(year % 100).padStart(2, '0')}`;
}

/**
 * A card is valid through the last day of its expiry month, wherever the shopper is: it expires
 * when that day has ended in the last time zone on earth (UTC-12), so nobody is turned away early —
 * not by the server, and not by the shopper's own clock in the widget.
 */
export function expiryInPast(month: number, year: number, now: Date): boolean {
  const endsAt = Date.UTC(year, month, 1, 12); // month is 1-based, so this is the next month's first day
  return now.getTime() >= endsAt;
}

/**
 * The earliest expiry still valid at `now`: `expiryInPast` ends a month at 12:00 UTC on the next
 * month's first day, so the valid months start with the one `now - 12 h` falls in. Lets a database
 * filter by the same rule (`(year, month) >= earliestUnexpired(now)`).
 */
export function earliestUnexpired(now: Date): Expiry {
  const shifted = new Date(now.getTime() - 12 * 3600 * 1000);
  return { month: shifted.getUTCMonth() + 1, year: shifted.getUTCFullYear() };
}

/** How far ahead an expiry may be before it is taken for a typing mistake. */
export const MAX_EXPIRY_YEARS_AHEAD = 20;

/** An expiry further ahead than any card is issued for: most likely a typing mistake. */
export function expiryTooFarAhead(year: number, now: Date): boolean {
  return year > now.getUTCFullYear() + MAX_EXPIRY_YEARS_AHEAD;
}
