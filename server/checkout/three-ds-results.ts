/**
 * The result of a 3-D Secure challenge, for the widget to poll on its own origin
 * (`GET /api/checkout/sessions/:token/three-ds/:id`): the page's CSP allows `connect-src 'self'`
 * only, and in the split wiring the challenge lives on the gateway's origin. In one process the
 * result is read from the gateway's challenge store; a checkout-only instance reads the gateway's
 * public `result.json` server to server.
 */
import type { ThreeDsService } from '../gateway/three-ds/three-ds-service.ts';
import type { Queryable } from '../db/database.ts';

export interface ChallengeResultView {
  status: 'pending' | 'authenticated' | 'failed' | 'used' | 'expired';
  cavv: string | null;
  eci: string | null;
  xid: string | null;
  dsTransactionId: string | null;
}

export interface ThreeDsResults {
  /**
   * null when the gateway knows no such challenge made for this checkout session (issue 13 §5: a
   * challenge is bound to the session it was made for; another session's is not found).
   */
  result(challengeId: string, sessionToken: string): Promise<ChallengeResultView | null>;
  /** The origin the challenge pages come from, when it is not this server's own. */
  frameOrigin: string | null;
}

/** A challenge id as the gateway makes them (three-ds-service.ts), checked before any lookup. */
export const CHALLENGE_ID = /^[A-Za-z0-9_-]{16,64}$/;

/** The challenge id in a challenge URL the gateway answered (`…/3ds/challenge/<id>`), or null. */
export function challengeIdOf(challengeUrl: string): string | null {
  const m = /\/3ds\/challenge\/([^/?#]+)$/.exec(challengeUrl);
  return m && CHALLENGE_ID.test(m[1]!) ? m[1]! : null;
}

export function inProcessThreeDsResults(service: ThreeDsService, db: Queryable): ThreeDsResults {
  return {
    frameOrigin: null,
    async result(id, sessionToken) {
      const c = await service.challengeStatus(db, id);
      if (!c || c.checkoutSessionToken !== sessionToken) return null;
      const r = c.result;
      return {
        status: c.status,
        cavv: r?.cavv ?? null,
        eci: r?.eci ?? null,
        xid: r?.xid ?? null,
        dsTransactionId: r?.dsTransactionId ?? null,
      };
    },
  };
}

export function remoteThreeDsResults(options: {
  /** Where this server reaches the gateway (TRANSACTION_SERVICE_URL). */
  baseUrl: string;
  /** Where shoppers' browsers reach it (the challenge pages' origin). */
  publicUrl: string;
  timeoutMs?: number;
}): ThreeDsResults {
  const base = options.baseUrl.replace(/\/+$/, '');
  return {
    frameOrigin: new URL(options.publicUrl).origin,
    async result(id, sessionToken) {
      const query = new URLSearchParams({ session: sessionToken });
      const res = await fetch(`${base}/3ds/challenge/${encodeURIComponent(id)}/result.json?${query}`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      if (!res.ok) {
        await res.body?.cancel(); // frees the connection now, not at garbage collection
        if (res.status === 404) return null;
        throw new Error(`the gateway answered ${res.status} for a 3-D Secure result`);
      }
      const body = (await res.json()) as ChallengeResultView;
      const text = (v: unknown) => (typeof v === 'string' ? v : null);
      const statuses = ['pending', 'authenticated', 'failed', 'used', 'expired'] as const;
      if (!statuses.includes(body.status))
        throw new Error('the gateway answered an unknown 3-D Secure status');
      return {
        status: body.status,
        cavv: text(body.cavv),
        eci: text(body.eci),
        xid: text(body.xid),
        dsTransactionId: text(body.dsTransactionId),
      };
    },
  };
}
