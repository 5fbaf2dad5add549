/**
 * The checkout API client (`/api/checkout/…`; shared/checkout/*.ts has the schemas). Failures are
 * values, not exceptions: `network` (no answer, or a 5xx: the outcome may be unknown) or `http`
 * with the catalogue error (docs/merchant-guide.md "Errors").
 */
import type {
  PayBody,
  PayResponse,
  WalletCardsResponse,
  WalletSendCodeResponse,
  WalletVerifyResponse,
  WidgetSession,
} from '../../../shared/checkout/index.ts';

// Mirrors of shared/checkout constants (those modules build zod schemas on import).
const CLIENT_HEADER = 'x-payframe-client';
const WALLET_HEADER = 'x-payframe-wallet';

export interface ApiError {
  code: string;
  message: string;
  fields?: { field: string; code: string; message: string }[];
}
export type Result<T> =
  | { ok: true; data: T }
  | { ok: false; kind: 'network'; status: number }
  | { ok: false; kind: 'http'; status: number; error: ApiError };

async function call<T>(path: string, init: RequestInit = {}, timeoutMs = 30_000): Promise<Result<T>> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await fetch(path, { ...init, signal: controller.signal, credentials: 'same-origin' });
    const json: unknown = await res.json().catch(() => null);
    if (res.ok && json !== null) return { ok: true, data: json as T };
    const error = (json as { error?: ApiError } | null)?.error;
    if (res.status >= 500 || !error) return { ok: false, kind: 'network', status: res.status };
    return { ok: false, kind: 'http', status: res.status, error };
  } catch {
    return { ok: false, kind: 'network', status: 0 };
  } finally {
    clearTimeout(timer);
  }
}

function post<T>(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Result<T>> {
  return call<T>(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CLIENT_HEADER]: 'widget', ...headers },
    body: JSON.stringify(body),
  });
}

/** A random Idempotency-Key (UUID v4 where the browser has it). */
export function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

export function sessionApi(token: string) {
  const base = `/api/checkout/sessions/${encodeURIComponent(token)}`;
  return {
    load: () => call<WidgetSession>(base, { headers: { accept: 'application/json' } }),
    pay: (body: PayBody, key: string, wallet?: string) =>
      post<PayResponse>(`${base}/pay`, body, {
        'idempotency-key': key,
        ...(wallet ? { [WALLET_HEADER]: wallet } : {}),
      }),
    cancel: () => post<{ status: 'canceled' }>(`${base}/cancel`, {}),
    /** `lang`: the form's language, which the code's e-mail or SMS speaks (the shopper may have picked it). */
    sendCode: (lang: string) => post<WalletSendCodeResponse>(`${base}/wallet/send-code`, { lang }),
    verify: (verificationId: string, code: string) =>
      post<WalletVerifyResponse>(`${base}/wallet/verify`, { verificationId, code }),
    cards: (wallet: string) =>
      call<WalletCardsResponse>(`${base}/wallet/cards`, { headers: { [WALLET_HEADER]: wallet } }),
    removeCard: (wallet: string, tokenGuid: string) =>
      post<{ removed: boolean }>(`${base}/wallet/remove`, { tokenGuid }, { [WALLET_HEADER]: wallet }),
  };
}
export type SessionApi = ReturnType<typeof sessionApi>;

export interface ChallengeResult {
  status: 'pending' | 'authenticated' | 'failed' | 'used' | 'expired';
  cavv: string | null;
  eci: string | null;
  xid: string | null;
  dsTransactionId: string | null;
}

/** One look at a 3-D Secure challenge's result (the URL comes from the server's `requires_action`). */
export function challengeResult(resultUrl: string): Promise<Result<ChallengeResult>> {
  return call<ChallengeResult>(resultUrl, { headers: { accept: 'application/json' } }, 10_000);
}

/**
 * Pays without ever charging twice (security-requirements.md IDEM-8): one key per attempt, reused
 * for the same details after a network failure or 5xx (the server replays or recovers) — with the
 * 3-D Secure result it carried, so no second challenge —, replaced after a definitive answer or
 * when the details change. The key stays in memory only: a reload
 * empties the form, and the server refuses a second payment of the session anyway (IDEM-7).
 */
export class Payer {
  /** The attempt whose outcome is not known yet: its key, and the body it was sent with. */
  private pending: { key: string; details: string; body: PayBody } | null = null;
  private busy = false;

  constructor(private readonly api: SessionApi) {}

  async pay(body: PayBody, wallet?: string): Promise<Result<PayResponse> | null> {
    if (this.busy) return null; // a second click while the first is in flight
    this.busy = true;
    try {
      // The same details are the same attempt, also when the form no longer carries the 3-D Secure
      // result the attempt was sent with: it is sent again as it was, under its key.
      const { threeDSecure: _result, ...rest } = body as PayBody & { threeDSecure?: unknown };
      const details = JSON.stringify([rest, wallet ?? '']);
      if (this.pending?.details !== details) this.pending = { key: newKey(), details, body };
      const attempt = this.pending;
      const res = await this.api.pay(attempt.body, attempt.key, wallet);
      // A definitive answer: the next attempt is a new one. A 4xx did not use the key up either,
      // except 409: the first request still holds the key, and its answer will be replayed.
      if (res.ok || (res.kind === 'http' && res.status !== 409)) this.pending = null;
      return res;
    } finally {
      this.busy = false;
    }
  }
}
