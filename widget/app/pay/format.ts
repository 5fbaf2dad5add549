/** Money and dates for the shopper's language. Amounts stay decimal strings end to end. */

/**
 * Intl formats a decimal string exactly (ECMA-402 "Intl.NumberFormat v3", Chrome 106+), so the
 * amount is never turned into a float; older engines convert it, which is exact for two decimals.
 */
export function formatMoney(amount: string, currency: string | null, locale: string): string {
  const options: Intl.NumberFormatOptions = currency
    ? { style: 'currency', currency }
    : { minimumFractionDigits: 2, maximumFractionDigits: 2 };
  try {
    return new Intl.NumberFormat(locale, options).format(amount as unknown as number);
  } catch {
    return currency ? `${amount} ${currency}` : amount;
  }
}

export function formatDateTime(iso: string, locale: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

/**
 * The host of the merchant's registered website, shown beside its name (issue 13 §4): what the
 * merchant registered, in ASCII (an international domain in punycode, as the URL parser gives it),
 * so a name written in look-alike letters still shows whose site it is. Null without an http(s)
 * website.
 */
export function websiteHost(website: string | null): string | null {
  if (!website) return null;
  try {
    const url = new URL(website);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.host : null;
  } catch {
    return null;
  }
}
