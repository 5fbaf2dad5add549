/**
 * The dashboard's session cookie (issue 15 "Signing in"; OWASP ASVS V3/V7). Its value is the Login
 * session token itself — opaque, 256 random bits, stored by the gateway only as a hash — so this
 * server keeps no session state: every call hands the token to the gateway as `Bearer`, and the
 * gateway decides (idle 15 minutes, absolute 12 hours, ended by sign-out or a password reset).
 *
 * Over https the cookie is `__Host-payframe_dashboard` (Secure, Path=/, no Domain: the browser
 * refuses it from any other host or over plain http); over plain http (development) it is
 * `payframe_dashboard` without Secure. Always HttpOnly (no script reads it) and SameSite=Strict (no
 * other site's request carries it).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A Login session token as the gateway issues it (docs/gateway-users.md "Login"). */
const TOKEN = /^ls_[A-Za-z0-9_-]{43}$/;

export interface SessionCookie {
  name: string;
  /** The token the request carries, or null when it carries none that could be one. */
  read(request: FastifyRequest): string | null;
  /** Sets a new token, kept by the browser until `expiresAt` (the session's absolute end). */
  set(reply: FastifyReply, token: string, expiresAt: Date, now: Date): void;
  clear(reply: FastifyReply): void;
}

export function sessionCookie(publicUrl: string): SessionCookie {
  const secure = new URL(publicUrl).protocol === 'https:';
  const name = secure ? '__Host-payframe_dashboard' : 'payframe_dashboard';
  const attributes = `Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
  return {
    name,
    read(request) {
      const header = request.headers.cookie ?? '';
      for (const pair of header.split(';')) {
        const at = pair.indexOf('=');
        if (at < 0 || pair.slice(0, at).trim() !== name) continue;
        const value = pair.slice(at + 1).trim();
        if (TOKEN.test(value)) return value;
      }
      return null;
    },
    set(reply, token, expiresAt, now) {
      const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000));
      reply.header('set-cookie', `${name}=${token}; ${attributes}; Max-Age=${maxAge}`);
    },
    clear(reply) {
      reply.header('set-cookie', `${name}=; ${attributes}; Max-Age=0`);
    },
  };
}
