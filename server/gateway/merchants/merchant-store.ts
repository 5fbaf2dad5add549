/**
 * Merchants and their credentials (DESIGN.md §6). The TransactionKey is random, shown once at
 * creation, and stored encrypted: it must stay recoverable because redirects and webhooks are
 * signed with it (DESIGN.md §10). Checks compare in constant time.
 */
import crypto from 'node:crypto';
import { normalizeOrigin, URL_PROBLEM_MESSAGES } from '../../../shared/return-url.ts';
import type { Queryable } from '../../db/database.ts';
import { PayframeError } from '../../errors.ts';
import type { SecretBox } from '../secret-box.ts';

export type PaymentMethod = 'card' | 'ach';

export interface Merchant {
  id: string;
  publicCode: string;
  name: string;
  logoUrl: string | null;
  businessName: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  zip: string | null;
  phone: string | null;
  email: string | null;
  website: string | null;
  paymentMethods: PaymentMethod[];
  threeDsEnrolled: boolean;
  origins: string[];
  createdAt: Date;
}

export interface NewMerchant {
  name: string;
  origins?: string[];
  threeDsEnrolled?: boolean;
  paymentMethods?: PaymentMethod[];
  logoUrl?: string | null;
  businessName?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  state?: string | null;
  country?: string | null;
  zip?: string | null;
  phone?: string | null;
  email?: string | null;
  website?: string | null;
}

interface MerchantRow {
  id: string;
  public_code: string;
  name: string;
  transaction_key_enc: string;
  reader_key_enc: string;
  logo_url: string | null;
  business_name: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  zip: string | null;
  phone: string | null;
  email: string | null;
  website: string | null;
  payment_methods: PaymentMethod[];
  three_ds_enrolled: boolean;
  origins: string[];
  created_at: Date;
}

function fromRow(r: MerchantRow): Merchant {
  return {
    id: String(r.id),
    publicCode: r.public_code,
    name: r.name,
    logoUrl: r.logo_url,
    businessName: r.business_name,
    address1: r.address1,
    address2: r.address2,
    city: r.city,
    state: r.state,
    country: r.country,
    zip: r.zip,
    phone: r.phone,
    email: r.email,
    website: r.website,
    paymentMethods: r.payment_methods,
    threeDsEnrolled: r.three_ds_enrolled,
    origins: r.origins,
    createdAt: r.created_at,
  };
}

const ID = /^[1-9]\d{0,18}$/;

/**
 * The merchant's columns as `m_<column>`, for statements that read a row joined with its merchant
 * (`… join merchants m …`) in one round trip; `merchantOfJoined` reads them back.
 */
export const MERCHANT_JOIN_COLUMNS = [
  'id',
  'public_code',
  'name',
  'transaction_key_enc',
  'reader_key_enc',
  'logo_url',
  'business_name',
  'address1',
  'address2',
  'city',
  'state',
  'country',
  'zip',
  'phone',
  'email',
  'website',
  'payment_methods',
  'three_ds_enrolled',
  'origins',
  'created_at',
]
  .map((c) => `m.${c} as m_${c}`)
  .join(', ');

/** The merchant of a joined row (MERCHANT_JOIN_COLUMNS), and its encrypted TransactionKey. */
export function merchantOfJoined(r: Record<string, unknown>): { merchant: Merchant; keyEnc: string } {
  const row = Object.fromEntries(
    Object.entries(r)
      .filter(([k]) => k.startsWith('m_'))
      .map(([k, v]) => [k.slice(2), v]),
  ) as unknown as MerchantRow;
  return { merchant: fromRow(row), keyEnc: row.transaction_key_enc };
}

function invalid(field: string, message: string): PayframeError {
  return new PayframeError('validation_failed', `${field} ${message}`, [
    { field, code: 'invalid', message: `${field} ${message}` },
  ]);
}

/** Validates a logo URL at configuration time (security-requirements.md XSS-2, attack row 7). */
function checkLogoUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('logoUrl', 'is not a valid URL.');
  }
  if (url.protocol !== 'https:') throw invalid('logoUrl', 'must be an https URL.');
  if (url.username || url.password) throw invalid('logoUrl', 'must not contain credentials.');
  return url.href;
}

export class MerchantStore {
  constructor(private readonly secrets: SecretBox) {}

  async create(q: Queryable, input: NewMerchant): Promise<{ merchant: Merchant; transactionKey: string }> {
    const name = input.name?.trim();
    if (!name || name.length > 200) throw invalid('name', 'must be 1 to 200 characters.');
    const origins: string[] = [];
    for (const o of input.origins ?? []) {
      const n = normalizeOrigin(o);
      if ('problem' in n) throw invalid('origin', `${JSON.stringify(o)} ${URL_PROBLEM_MESSAGES[n.problem]}`);
      if (!origins.includes(n.origin)) origins.push(n.origin);
    }
    const methods = input.paymentMethods ?? ['card', 'ach'];
    if (methods.length === 0 || methods.some((m) => m !== 'card' && m !== 'ach')) {
      throw invalid('paymentMethods', "must be one or both of 'card' and 'ach'.");
    }
    const transactionKey = crypto.randomBytes(32).toString('base64url');
    const readerKey = crypto.randomBytes(32).toString('hex');
    const publicCode = `pm_${crypto.randomBytes(9).toString('base64url')}`;
    const { rows } = await q.query<MerchantRow>(
      `insert into merchants (public_code, name, transaction_key_enc, reader_key_enc, logo_url, business_name,
         address1, address2, city, state, country, zip, phone, email, website, payment_methods, three_ds_enrolled, origins)
       values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18) returning *`,
      [
        publicCode,
        name,
        this.secrets.encrypt(transactionKey),
        this.secrets.encrypt(readerKey),
        checkLogoUrl(input.logoUrl),
        input.businessName ?? name,
        input.address1 ?? null,
        input.address2 ?? null,
        input.city ?? null,
        input.state ?? null,
        input.country ?? null,
        input.zip ?? null,
        input.phone ?? null,
        input.email ?? null,
        input.website ?? null,
        methods,
        input.threeDsEnrolled ?? false,
        origins,
      ],
    );
    return { merchant: fromRow(rows[0]!), transactionKey };
  }

  async get(q: Queryable, id: string): Promise<Merchant | null> {
    if (!ID.test(id)) return null;
    const { rows } = await q.query<MerchantRow>('select * from merchants where id = $1', [id]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async getByCode(q: Queryable, code: string): Promise<Merchant | null> {
    const { rows } = await q.query<MerchantRow>('select * from merchants where public_code = $1', [code]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async count(q: Queryable): Promise<number> {
    const { rows } = await q.query<{ n: string }>('select count(*) as n from merchants');
    return Number(rows[0]?.n ?? 0);
  }

  /** True when `key` is this merchant's TransactionKey (constant-time; false for unknown merchants). */
  async verifyKey(q: Queryable, id: string, key: string): Promise<boolean> {
    const stored = ID.test(id) ? await this.transactionKey(q, id) : null;
    const a = crypto
      .createHash('sha256')
      .update(stored ?? crypto.randomBytes(32))
      .digest();
    const b = crypto.createHash('sha256').update(key).digest();
    return crypto.timingSafeEqual(a, b) && stored !== null;
  }

  /** The merchant's TransactionKey in clear, for signing redirects and webhooks only. */
  async transactionKey(q: Queryable, id: string): Promise<string | null> {
    const { rows } = await q.query<{ k: string }>(
      'select transaction_key_enc as k from merchants where id = $1',
      [id],
    );
    return rows[0] ? this.secrets.decrypt(rows[0].k) : null;
  }

  /** A TransactionKey read with MERCHANT_JOIN_COLUMNS, in clear: for signing only. */
  transactionKeyOf(keyEnc: string): string {
    return this.secrets.decrypt(keyEnc);
  }

  /** The merchant's sandbox card-reader key (hex), for GetCardDetailsFromEncryptedData. */
  async readerKey(q: Queryable, id: string): Promise<string | null> {
    if (!ID.test(id)) return null;
    const { rows } = await q.query<{ k: string }>('select reader_key_enc as k from merchants where id = $1', [
      id,
    ]);
    return rows[0] ? this.secrets.decrypt(rows[0].k) : null;
  }
}
