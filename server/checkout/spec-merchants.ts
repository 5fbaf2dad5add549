/**
 * The merchants a checkout in spec mode serves (migration 0035; server/checkout/README.md "Spec
 * mode"). A Transaction Service that speaks only the spec tells a session's merchant by name
 * (GetHostedPaymentDetails' MerchantName) and keeps its TransactionKey, so the checkout holds, per
 * merchant: the id its requests carry, the name that finds it, the origins that may embed its
 * checkout, and the secret its redirects are signed with. The secret is encrypted (AES-256-GCM)
 * under a key derived from CHECKOUT_SECRET, bound to the merchant id; set with
 * `payframe merchant secret set`.
 */
import crypto from 'node:crypto';
import type { Queryable } from '../db/database.ts';

export interface SpecMerchant {
  id: string;
  /** Exactly as the service's GetHostedPaymentDetails answers MerchantName. */
  name: string;
  /** Origins that may embed this merchant's checkout (the widget's frame-ancestors). */
  origins: string[];
}

/** Encrypts and decrypts redirect secrets under CHECKOUT_SECRET. */
export interface SpecSecretBox {
  seal(merchantId: string, secret: string): string;
  open(merchantId: string, blob: string): string;
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function specSecretBox(checkoutSecret: Buffer): SpecSecretBox {
  const key = Buffer.from(
    crypto.hkdfSync('sha256', checkoutSecret, 'payframe', 'checkout spec-mode redirect secrets', 32),
  );
  return {
    seal(merchantId, secret) {
      const iv = crypto.randomBytes(IV_BYTES);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(merchantId, 'utf8'));
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
    },
    open(merchantId, blob) {
      const [version, encoded] = blob.split(':');
      if (version !== VERSION || !encoded) throw new Error('A redirect secret in an unknown format.');
      const bytes = Buffer.from(encoded, 'base64');
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(merchantId, 'utf8'));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      // A CHECKOUT_SECRET other than the one that sealed it fails here (GCM's tag), never silently.
      return Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}

/** The rules a merchant's entry must meet; null when it does, else what is wrong. */
export function specMerchantProblem(m: SpecMerchant & { secret: string }): string | null {
  if (!/^[1-9]\d{0,17}$/.test(m.id)) return 'The merchant id must be a positive whole number.';
  if (!m.name.trim() || m.name.length > 200) return 'The merchant name must have 1 to 200 characters.';
  if (m.secret.length < 24 || m.secret.length > 256)
    return 'The redirect secret must have 24 to 256 characters.';
  for (const origin of m.origins) {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return `${origin} is not an origin.`;
    }
    if (url.origin !== origin || !/^https?:$/.test(url.protocol))
      return `${origin} is not an origin (scheme, host and port only, e.g. https://shop.example).`;
  }
  return null;
}

/** Adds the merchant or replaces its entry (name, origins and secret). */
export async function setSpecMerchant(
  q: Queryable,
  box: SpecSecretBox,
  m: SpecMerchant & { secret: string },
  now: Date,
): Promise<void> {
  const problem = specMerchantProblem(m);
  if (problem) throw new RangeError(problem);
  await q.query(
    `insert into checkout_spec_merchants (merchant_id, name, origins, redirect_secret_enc, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $5)
     on conflict (merchant_id) do update set name = excluded.name, origins = excluded.origins,
       redirect_secret_enc = excluded.redirect_secret_enc, updated_at = excluded.updated_at`,
    [m.id, m.name.trim(), m.origins, box.seal(m.id, m.secret), now],
  );
}

/** Removes the merchant's entry; false when there was none. */
export async function removeSpecMerchant(q: Queryable, merchantId: string): Promise<boolean> {
  const { rows } = await q.query(
    'delete from checkout_spec_merchants where merchant_id = $1 returning merchant_id',
    [merchantId],
  );
  return rows.length > 0;
}

type Row = { merchant_id: string | number | bigint; name: string; origins: string[] };

const merchantOf = (r: Row): SpecMerchant => ({
  id: String(r.merchant_id),
  name: r.name,
  origins: r.origins ?? [],
});

/** Every merchant, by id; never a secret. */
export async function listSpecMerchants(q: Queryable): Promise<SpecMerchant[]> {
  const { rows } = await q.query(
    'select merchant_id, name, origins from checkout_spec_merchants order by merchant_id',
  );
  return (rows as Row[]).map(merchantOf);
}

/** The merchant a session's MerchantName names, with its redirect secret; null when none does. */
export async function specMerchantByName(
  q: Queryable,
  box: SpecSecretBox,
  name: string | null | undefined,
): Promise<(SpecMerchant & { secret: string }) | null> {
  if (!name?.trim()) return null;
  const { rows } = await q.query(
    'select merchant_id, name, origins, redirect_secret_enc from checkout_spec_merchants where name = $1',
    [name.trim()],
  );
  const r = rows[0] as (Row & { redirect_secret_enc: string }) | undefined;
  return r ? { ...merchantOf(r), secret: box.open(String(r.merchant_id), r.redirect_secret_enc) } : null;
}

/** The merchant's entry by id, without its secret; null when it has none. */
export async function specMerchantById(q: Queryable, merchantId: string): Promise<SpecMerchant | null> {
  if (!/^\d{1,18}$/.test(merchantId)) return null;
  const { rows } = await q.query(
    'select merchant_id, name, origins from checkout_spec_merchants where merchant_id = $1',
    [merchantId],
  );
  return rows[0] ? merchantOf(rows[0] as Row) : null;
}

/** The merchant's redirect secret by id; null when it has no entry. */
export async function specMerchantSecret(
  q: Queryable,
  box: SpecSecretBox,
  merchantId: string,
): Promise<string | null> {
  if (!/^\d{1,18}$/.test(merchantId)) return null;
  const { rows } = await q.query(
    'select redirect_secret_enc from checkout_spec_merchants where merchant_id = $1',
    [merchantId],
  );
  const r = rows[0] as { redirect_secret_enc: string } | undefined;
  return r ? box.open(merchantId, r.redirect_secret_enc) : null;
}
