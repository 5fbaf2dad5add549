/**
 * The demo store's server-to-server calls to Payframe's merchant REST API, exactly as a merchant's
 * backend makes them (docs/merchant-guide.md "REST API"): HTTP Basic `MerchantID:TransactionKey`.
 */
import type {
  CreatedCheckoutSession,
  MerchantCheckoutSession,
} from '../../shared/checkout/session-schemas.ts';

export interface DemoCredentials {
  merchantId: string;
  transactionKey: string;
}

export interface PayframeClient {
  createSession(body: {
    amount: string;
    currency: string;
    orderNumber: string;
    returnUrl: string;
  }): Promise<CreatedCheckoutSession>;
  readSession(token: string): Promise<MerchantCheckoutSession>;
}

export function payframeClient(apiUrl: string, credentials: DemoCredentials): PayframeClient {
  const authorization = `Basic ${Buffer.from(`${credentials.merchantId}:${credentials.transactionKey}`).toString('base64')}`;
  async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
    const res = await fetch(`${apiUrl}${path}`, {
      ...init,
      headers: { authorization, 'content-type': 'application/json', accept: 'application/json' },
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    if (!res.ok) {
      throw new Error(`Payframe answered ${res.status} to ${path}: ${body?.error?.message ?? 'no message'}`);
    }
    return body as T;
  }
  return {
    createSession: (body) => call('/v1/checkout-sessions', { method: 'POST', body: JSON.stringify(body) }),
    readSession: (token) => call(`/v1/checkout-sessions/${encodeURIComponent(token)}`),
  };
}
