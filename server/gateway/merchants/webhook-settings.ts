/**
 * A merchant's webhook settings (issue 16, Developers; migration 0033 `merchant_webhook_settings`):
 * the endpoint every session without a webhook URL of its own is announced to, and the signing
 * secret (`whsec_…`, 32 random bytes), encrypted at rest under the vault's secret key as the
 * TransactionKey is. The secret is answered once, by the roll that made it; rolling keeps the one it
 * replaces for 24 hours, during which deliveries carry both signatures (as Stripe does).
 *
 * No secret: deliveries are signed under the TransactionKey, as before there were secrets.
 */
import crypto from 'node:crypto';
import type { Queryable } from '../../db/database.ts';
import type { SecretBox } from '../secret-box.ts';

/** How long a replaced secret keeps signing. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;
export const SECRET_PREFIX = 'whsec_';

export interface WebhookSettings {
  endpointUrl: string | null;
  secretCreatedAt: Date | null;
  /** Until then the replaced secret signs too; null when there is no overlap now. */
  previousSecretValidUntil: Date | null;
}

interface Row {
  endpoint_url: string | null;
  secret_enc: string | null;
  secret_created_at: Date | string | null;
  secret_prev_enc: string | null;
  secret_prev_until: Date | string | null;
}

const dateOrNull = (v: Date | string | null) => (v === null ? null : new Date(v));

function settingsOf(r: Row | undefined, now: Date): WebhookSettings {
  if (!r) return { endpointUrl: null, secretCreatedAt: null, previousSecretValidUntil: null };
  const prevUntil = dateOrNull(r.secret_prev_until);
  return {
    endpointUrl: r.endpoint_url,
    secretCreatedAt: r.secret_enc ? dateOrNull(r.secret_created_at) : null,
    previousSecretValidUntil: r.secret_prev_enc && prevUntil && prevUntil > now ? prevUntil : null,
  };
}

const COLUMNS = 'endpoint_url, secret_enc, secret_created_at, secret_prev_enc, secret_prev_until';

async function row(q: Queryable, merchantId: string): Promise<Row | undefined> {
  const { rows } = await q.query<Row>(
    `select ${COLUMNS} from merchant_webhook_settings where merchant_id = $1`,
    [merchantId],
  );
  return rows[0];
}

export async function readWebhookSettings(
  q: Queryable,
  merchantId: string,
  now: Date,
): Promise<WebhookSettings> {
  return settingsOf(await row(q, merchantId), now);
}

/** Sets (a checked URL) or clears (null) the endpoint. */
export async function setWebhookEndpoint(
  q: Queryable,
  merchantId: string,
  endpointUrl: string | null,
  now: Date,
): Promise<WebhookSettings> {
  const { rows } = await q.query<Row>(
    `insert into merchant_webhook_settings (merchant_id, endpoint_url, updated_at) values ($1, $2, $3)
     on conflict (merchant_id) do update set endpoint_url = excluded.endpoint_url, updated_at = excluded.updated_at
     returning ${COLUMNS}`,
    [merchantId, endpointUrl, now],
  );
  return settingsOf(rows[0], now);
}

/**
 * A new secret, answered in clear this once. The one it replaces (if any) signs too until
 * `previousSecretValidUntil`; a secret replaced before (a second roll within the overlap) stops at
 * once. One statement, so two rolls at once leave one current and one previous secret.
 */
export async function rollWebhookSecret(
  q: Queryable,
  secrets: SecretBox,
  merchantId: string,
  now: Date,
): Promise<{ secret: string; previousSecretValidUntil: Date | null }> {
  const secret = `${SECRET_PREFIX}${crypto.randomBytes(32).toString('base64url')}`;
  const until = new Date(now.getTime() + SECRET_OVERLAP_MS);
  const { rows } = await q.query<{ secret_prev_until: Date | string | null }>(
    `insert into merchant_webhook_settings (merchant_id, secret_enc, secret_created_at, updated_at)
     values ($1, $2, $3, $3)
     on conflict (merchant_id) do update set
       secret_prev_enc = merchant_webhook_settings.secret_enc,
       secret_prev_until = case when merchant_webhook_settings.secret_enc is null then null else $4::timestamptz end,
       secret_enc = excluded.secret_enc,
       secret_created_at = excluded.secret_created_at,
       updated_at = excluded.updated_at
     returning secret_prev_until`,
    [merchantId, secrets.encrypt(secret), now, until],
  );
  return { secret, previousSecretValidUntil: dateOrNull(rows[0]?.secret_prev_until ?? null) };
}

/** The secrets that sign a delivery now, the current one first; none: sign under the TransactionKey. */
export async function signingSecrets(
  q: Queryable,
  secrets: SecretBox,
  merchantId: string,
  now: Date,
): Promise<string[]> {
  const r = await row(q, merchantId);
  if (!r?.secret_enc) return [];
  const out = [secrets.decrypt(r.secret_enc)];
  const prevUntil = dateOrNull(r.secret_prev_until);
  if (r.secret_prev_enc && prevUntil && prevUntil > now) out.push(secrets.decrypt(r.secret_prev_enc));
  return out;
}

/**
 * The SQL of a column naming the session's merchant's endpoint (`mw_endpoint_url`), for a statement
 * over `checkout_sessions s`: a subquery, so a claim's `returning` carries it without a round trip.
 */
export const MERCHANT_WEBHOOK_URL_COLUMN =
  '(select mw.endpoint_url from merchant_webhook_settings mw where mw.merchant_id = s.merchant_id) as mw_endpoint_url';
