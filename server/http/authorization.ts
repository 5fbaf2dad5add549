/**
 * The Bearer scheme of an `Authorization` header (RFC 6750 §2.1): how a merchant user's Login
 * session token travels (the dashboard). Here, not in the gateway or the checkout, because both
 * read it: the checkout relays it in the split wiring, the gateway resolves it.
 */
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The token of an `Authorization: Bearer …` header, or null when the header is another scheme. */
export function bearerToken(header: string | undefined): string | null {
  const m = header ? BEARER.exec(header) : null;
  return m?.[1] ?? null;
}
