/**
 * ReturnUrl and merchant-origin rules (DESIGN.md §10; security-requirements.md RED-1, RED-2 and
 * attack rows 1–4): parsed with the WHATWG URL parser, never a regex; https only, except http for
 * localhost; no user info; the origin must be one of the merchant's registered origins exactly.
 */

export type UrlProblem = 'invalid_url' | 'insecure_scheme' | 'has_credentials' | 'origin_not_registered';

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
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
    return { problem: 'invalid_url' };
  return { origin: url.origin };
}

/** Checks a ReturnUrl against the merchant's origins; returns the parsed URL's text when it is allowed. */
export function checkReturnUrl(
  value: string,
  registeredOrigins: readonly string[],
): { url: string } | { problem: UrlProblem } {
  const url = parse(value.trim());
  if (!url || url.origin === 'null') return { problem: 'invalid_url' };
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLocalHost(url.hostname))) {
    return { problem: 'insecure_scheme' };
  }
  if (url.username || url.password) return { problem: 'has_credentials' };
  if (!registeredOrigins.includes(url.origin)) return { problem: 'origin_not_registered' };
  // Encoded CR/LF or NUL would come back to life in a careless consumer's header (attack row 4).
  if (/%(0[0ad])/i.test(url.href)) return { problem: 'invalid_url' };
  return { url: url.href };
}

export const URL_PROBLEM_MESSAGES: Record<UrlProblem, string> = {
  invalid_url: 'is not a valid absolute URL.',
  insecure_scheme: 'must use https (http is allowed only for localhost).',
  has_credentials: 'must not contain a user name or password.',
  origin_not_registered: "is not on one of the merchant's registered origins.",
};
