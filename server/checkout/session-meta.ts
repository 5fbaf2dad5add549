/**
 * What the checkout keeps about a session it created for a merchant over REST: the currency,
 * expiry and webhook URL, which GetHostedPaymentDetails does not report. Sessions created over SOAP
 * (CreateHostedPayment, CreateInvoice) have no row: their currency is unknown and they get no
 * webhooks (a gateway gap, server/checkout/README.md).
 */
import type { Queryable } from '../db/database.ts';

export interface SessionMeta {
  token: string;
  merchantId: string;
  currency: string;
  expiresAt: Date;
  webhookUrl: string | null;
}

export async function saveSessionMeta(q: Queryable, meta: SessionMeta, now: Date): Promise<void> {
  await q.query(
    `insert into checkout_session_meta (token, merchant_id, currency, expires_at, webhook_url, created_at)
     values ($1, $2, $3, $4, $5, $6) on conflict (token) do nothing`,
    [meta.token, meta.merchantId, meta.currency, meta.expiresAt, meta.webhookUrl, now],
  );
}

export async function getSessionMeta(q: Queryable, token: string): Promise<SessionMeta | null> {
  const { rows } = await q.query<{
    token: string;
    merchant_id: string;
    currency: string;
    expires_at: Date;
    webhook_url: string | null;
  }>(
    'select token, merchant_id, currency, expires_at, webhook_url from checkout_session_meta where token = $1',
    [token],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    token: r.token,
    merchantId: String(r.merchant_id),
    currency: r.currency,
    expiresAt: r.expires_at,
    webhookUrl: r.webhook_url,
  };
}
