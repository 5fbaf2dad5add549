/**
 * ReturnUrl and merchant-origin rules (DESIGN.md §10; security-requirements.md RED-1, RED-2 and
 * attack rows 1–4): parsed with the WHATWG URL parser, never a regex; https only, except http for
 * localhost; no user info; at most 2,048 characters; no control, invisible or bidi character, raw or
 * percent-encoded (C0, DEL, C1, the text policy's format characters); the origin must be one of the merchant's registered origins exactly.
 *
 * The one validator of a ReturnUrl (and a WebhookUrl): the merchant REST schema, the gateway's
 * CreateHostedPayment over every binding, and CreateInvoice all call `checkReturnUrl`.
 */

export type UrlProblem =
  | 'invalid_url'
  | 'not_an_origin'
  | 'insecure_scheme'
  | 'has_credentials'
  | 'origin_not_registered'
  | 'too_long'
  | 'encoded_control';

/** The longest ReturnUrl accepted, before and after parsing (browsers and proxies cut longer ones). */
export const MAX_URL_LENGTH = 2048;

/**
 * A percent-encoded control character: C0 (`%00`–`%1F`), DEL (`%7F`), or C1 in UTF-8 (`%C2%80`–
 * `%C2%9F`). Decoded by a careless consumer, CR/LF becomes a header line (attack row 4).
 */
const ENCODED_CONTROL = /%(?:[01][0-9a-f]|7f|c2%[89][0-9a-f])/i;
/**
 * A percent-encoded invisible or direction-changing character (the text policy's, in UTF-8): soft
 * hyphen, ALM, zero-width and LRM/RLM, U+2028/2029, the bidi embeddings, overrides and isolates,
 * the BOM. The URL parser encodes them when they come raw, so one test covers both spellings.
 */
const ENCODED_INVISIBLE = /%(?:c2%ad|d8%9c|e2%80%(?:8[b-f]|a[89a-e])|e2%81%(?:a[0-9a-f])|ef%bb%bf)/i;

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function isLocalHost(hostname: string): boolean {
  return LOCAL_HOSTS.has(hostname) || hostname.endsWith('.localhost');
}

function parse(value: string): URL | null {
  // Control characters (CR/LF header injection, tabs the parser would drop) and backslashes
  // (which the parser turns into slashes) are refused outright.
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || c === 0x5c) return null;
  }
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** A registered origin in canonical form (`https://shop.example:8443`), or the problem with it. */
export function normalizeOrigin(value: string): { origin: string } | { problem: UrlProblem } {
  const url = parse(value.trim());
  if (!url || url.origin === 'null') return { problem: 'invalid_url' };
  if (url.username || url.password) return { problem: 'has_credentials' };
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLocalHost(url.hostname))) {
    return { problem: 'insecure_scheme' };
  }
  // A valid URL with more than an origin: the problem is the path (query, fragment), not the URL.
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
    return { problem: 'not_an_origin' };
  return { origin: url.origin };
}

/**
 * The rules of a URL Payframe sends a browser (or a webhook) to, all but the registered origin:
 * the parsed URL, or the problem.
 */
function checkUrl(value: string): URL | { problem: UrlProblem } {
  const trimmed = value.trim();
  if (trimmed.length > MAX_URL_LENGTH) return { problem: 'too_long' };
  const url = parse(trimmed);
  if (!url || url.origin === 'null') return { problem: 'invalid_url' };
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLocalHost(url.hostname))) {
    return { problem: 'insecure_scheme' };
  }
  if (url.username || url.password) return { problem: 'has_credentials' };
  if (ENCODED_CONTROL.test(url.href) || ENCODED_INVISIBLE.test(url.href))
    return { problem: 'encoded_control' };
  // Parsing may lengthen it (percent-encoding, punycode): the URL sent is what must fit.
  if (url.href.length > MAX_URL_LENGTH) return { problem: 'too_long' };
  return url;
}

/** Checks a ReturnUrl against the merchant's origins; returns the parsed URL's text when it is allowed. */
export function checkReturnUrl(
  value: string,
  registeredOrigins: readonly string[],
): { url: string } | { problem: UrlProblem } {
  const url = checkUrl(value);
  if (!(url instanceof URL)) return url;
  if (!registeredOrigins.includes(url.origin)) return { problem: 'origin_not_registered' };
  return { url: url.href };
}

/** Checks a URL on any origin (a WebhookUrl): every rule of `checkReturnUrl` but registration. */
export function checkUrlAnyOrigin(value: string): { url: string } | { problem: UrlProblem } {
  const url = checkUrl(value);
  return url instanceof URL ? { url: url.href } : url;
}

export const URL_PROBLEM_MESSAGES: Record<UrlProblem, string> = {
  invalid_url: 'is not a valid absolute URL.',
  not_an_origin:
    'must be an origin only: scheme, host and port (https://shop.example), with no path, query or fragment.',
  insecure_scheme: 'must use https (http is allowed only for localhost).',
  has_credentials: 'must not contain a user name or password.',
  origin_not_registered: "is not on one of the merchant's registered origins.",
  too_long: `must be at most ${MAX_URL_LENGTH} characters.`,
  encoded_control: 'must not contain control, invisible or direction-changing characters.',
};
