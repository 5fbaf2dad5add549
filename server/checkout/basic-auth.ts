/**
 * HTTP Basic credentials (RFC 7617) as merchants send them to merchant REST. Parsed here, not
 * imported from the gateway, so the checkout runs without the gateway's code (split wiring).
 */
export interface BasicCredential {
  username: string;
  password: string;
}

export function parseBasicAuthorization(header: string | undefined): BasicCredential | null {
  const m = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header ?? '');
  if (!m?.[1]) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
