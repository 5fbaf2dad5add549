/**
 * Merchants and their credentials (DESIGN.md §6). The TransactionKey is random, shown once at
 * creation, and stored encrypted: it must stay recoverable because redirects and webhooks are
 * signed with it (DESIGN.md §10). Checks compare in constant time.
 */
import crypto from 'node:crypto';
import type { Queryable } from '../../db/database.ts';
import type { SecretBox } from '../secret-box.ts';
import { MerchantCache, type MerchantRecord } from './merchant-cache.ts';
import { KeyUses } from './key-uses.ts';
import {
  checkBrandColor,
  checkCornerRadius,
  checkDisplayName,
  checkLogoUrl,
  checkMethods,
  checkName,
  checkOrigins,
  checkReturnMode,
  checkPolicyUrl,
  checkText,
  checkWebsite,
} from './merchant-fields.ts';
import type { Merchant, PaymentMethod, ReturnMode } from './merchant.ts';

export type { Merchant, PaymentMethod, ReturnMode };

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
  returnMode?: ReturnMode;
  nameOnCardRequired?: boolean;
  brandColor?: string | null;
  cornerRadius?: number | null;
  termsUrl?: string | null;
  privacyUrl?: string | null;
  postalCodeRequired?: boolean;
  receiptEmail?: boolean;
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
  return_mode: ReturnMode;
  name_on_card_required: boolean;
  brand_color: string | null;
  corner_radius: number | null;
  terms_url?: string | null;
  privacy_url?: string | null;
  postal_code_required?: boolean;
  receipt_email?: boolean;
  created_at: Date;
  disabled_at: Date | null;
  transaction_key_prev_enc?: string | null;
  transaction_key_prev_until?: Date | null;
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
    returnMode: r.return_mode,
    nameOnCardRequired: r.name_on_card_required,
    brandColor: r.brand_color ?? null,
    cornerRadius: r.corner_radius === null || r.corner_radius === undefined ? null : Number(r.corner_radius),
    termsUrl: r.terms_url ?? null,
    privacyUrl: r.privacy_url ?? null,
    postalCodeRequired: r.postal_code_required === true,
    receiptEmail: r.receipt_email !== false,
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
  'return_mode',
  'name_on_card_required',
  'brand_color',
  'corner_radius',
  'terms_url',
  'privacy_url',
  'postal_code_required',
  'receipt_email',
  'created_at',
  'disabled_at',
  'transaction_key_prev_enc',
  'transaction_key_prev_until',
]
  .map((c) => `m.${c} as m_${c}`)
  .join(', ');

function recordOf(row: MerchantRow): MerchantRecord {
  return {
    merchant: fromRow(row),
    keyEnc: row.transaction_key_enc,
    disabled: row.disabled_at !== null,
    prevKeyEnc: row.transaction_key_prev_enc ?? null,
    prevKeyUntil: row.transaction_key_prev_until ?? null,
  };
}

/** The merchant of a joined row (MERCHANT_JOIN_COLUMNS), its encrypted TransactionKey, and whether disabled. */
export function merchantOfJoined(r: Record<string, unknown>): MerchantRecord {
  const row = Object.fromEntries(
    Object.entries(r)
      .filter(([k]) => k.startsWith('m_'))
      .map(([k, v]) => [k.slice(2), v]),
  ) as unknown as MerchantRow;
  return recordOf(row);
}

/** What `update` may change: enrolment, branding, origins, methods, checkout settings (NewMerchant's fields). */
export type MerchantChanges = Partial<NewMerchant>;

/** Column of each changeable field, and how its value is checked. */
const CHANGES: { [K in keyof MerchantChanges]-?: [column: string, check: (v: never) => unknown] } = {
  name: ['name', (v: string) => checkName(v)],
  origins: ['origins', (v: string[]) => checkOrigins(v)],
  threeDsEnrolled: ['three_ds_enrolled', (v: boolean) => v === true],
  paymentMethods: ['payment_methods', (v: PaymentMethod[]) => checkMethods(v)],
  logoUrl: ['logo_url', (v: string | null) => checkLogoUrl(v)],
  businessName: ['business_name', (v: string | null) => checkDisplayName('businessName', v)],
  address1: ['address1', (v: string | null) => checkText('address1', v)],
  address2: ['address2', (v: string | null) => checkText('address2', v)],
  city: ['city', (v: string | null) => checkText('city', v)],
  state: ['state', (v: string | null) => checkText('state', v)],
  country: ['country', (v: string | null) => checkText('country', v)],
  zip: ['zip', (v: string | null) => checkText('zip', v)],
  phone: ['phone', (v: string | null) => checkText('phone', v)],
  email: ['email', (v: string | null) => checkText('email', v)],
  website: ['website', (v: string | null) => checkWebsite(v)],
  returnMode: ['return_mode', (v: ReturnMode) => checkReturnMode(v)],
  nameOnCardRequired: ['name_on_card_required', (v: boolean) => v === true],
  brandColor: ['brand_color', (v: string | null) => checkBrandColor(v)],
  cornerRadius: ['corner_radius', (v: number | null) => checkCornerRadius(v)],
  termsUrl: ['terms_url', (v: string | null) => checkPolicyUrl('termsUrl', v)],
  privacyUrl: ['privacy_url', (v: string | null) => checkPolicyUrl('privacyUrl', v)],
  postalCodeRequired: ['postal_code_required', (v: boolean) => v === true],
  receiptEmail: ['receipt_email', (v: boolean) => v === true],
};

/**
 * Merchants in the database. Reads through the database itself (not a transaction's handle) are
 * served from the instance's cache while it is fresh (merchant-cache.ts); every write to a merchant
 * row is announced to every instance by the database (migration 0018), and the methods here drop
 * this instance's copy at once.
 */
export class MerchantStore {
  /** When each key last authenticated, written at most once a minute per instance (key-uses.ts). */
  readonly keyUses = new KeyUses();

  constructor(
    private readonly secrets: SecretBox,
    readonly cache: MerchantCache = new MerchantCache(),
  ) {}

  async create(q: Queryable, input: NewMerchant): Promise<{ merchant: Merchant; transactionKey: string }> {
    const name = checkName(input.name);
    const origins = checkOrigins(input.origins ?? []);
    const methods = checkMethods(input.paymentMethods ?? ['card', 'ach']);
    const transactionKey = crypto.randomBytes(32).toString('base64url');
    const readerKey = crypto.randomBytes(32).toString('hex');
    const publicCode = `pm_${crypto.randomBytes(9).toString('base64url')}`;
    const { rows } = await q.query<MerchantRow>(
      `insert into merchants (public_code, name, transaction_key_enc, reader_key_enc, logo_url, business_name,
         address1, address2, city, state, country, zip, phone, email, website, payment_methods, three_ds_enrolled, origins,
         return_mode, name_on_card_required, terms_url, privacy_url, postal_code_required, receipt_email)
       values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24) returning *`,
      [
        publicCode,
        name,
        this.secrets.encrypt(transactionKey),
        this.secrets.encrypt(readerKey),
        checkLogoUrl(input.logoUrl),
        checkDisplayName('businessName', input.businessName) ?? name,
        checkText('address1', input.address1),
        checkText('address2', input.address2),
        checkText('city', input.city),
        checkText('state', input.state),
        checkText('country', input.country),
        checkText('zip', input.zip),
        checkText('phone', input.phone),
        checkText('email', input.email),
        checkWebsite(input.website),
        methods,
        input.threeDsEnrolled ?? false,
        origins,
        checkReturnMode(input.returnMode ?? 'immediate'),
        input.nameOnCardRequired ?? false,
        checkPolicyUrl('termsUrl', input.termsUrl),
        checkPolicyUrl('privacyUrl', input.privacyUrl),
        input.postalCodeRequired ?? false,
        input.receiptEmail ?? true,
      ],
    );
    return { merchant: fromRow(rows[0]!), transactionKey };
  }

  async get(q: Queryable, id: string): Promise<Merchant | null> {
    return (await this.record(q, id))?.merchant ?? null;
  }

  /** The merchant with its encrypted key and disabled flag: from the cache when `q` may use it. */
  async record(q: Queryable, id: string): Promise<MerchantRecord | null> {
    if (!ID.test(id)) return null;
    const cached = this.cache.usableFor(q);
    if (cached) {
      const hit = this.cache.record(id);
      if (hit) return hit;
    }
    const generation = this.cache.generation;
    const { rows } = await q.query<MerchantRow>('select * from merchants where id = $1', [id]);
    if (!rows[0]) return null;
    const record = recordOf(rows[0]);
    if (cached) this.cache.remember(record, generation);
    return record;
  }

  /** Changes enrolment, branding, origins, payment methods or checkout settings; the merchant as it is now. */
  async update(q: Queryable, id: string, changes: MerchantChanges): Promise<Merchant | null> {
    if (!ID.test(id)) return null;
    const sets: string[] = [];
    const values: unknown[] = [id];
    for (const [field, value] of Object.entries(changes)) {
      const change = CHANGES[field as keyof MerchantChanges];
      if (!change || value === undefined) continue;
      values.push(change[1](value as never));
      sets.push(`${change[0]} = $${values.length}`);
    }
    if (sets.length === 0) return this.get(q, id);
    const { rows } = await q.query<MerchantRow>(
      `update merchants set ${sets.join(', ')} where id = $1 returning *`,
      values,
    );
    this.cache.forget(id);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /**
   * Replaces the TransactionKey; the new one is shown once. With `previousUntil` the key being
   * replaced keeps authenticating and signing until then (a roll's overlap); without it, it stops
   * at once. Either way a key an earlier roll kept stops at once (docs/merchant-guide.md).
   */
  async rollKey(q: Queryable, id: string, previousUntil: Date | null = null): Promise<string | null> {
    if (!ID.test(id)) return null;
    const transactionKey = crypto.randomBytes(32).toString('base64url');
    const { rowCount } = await q.query(
      `update merchants set
         transaction_key_prev_enc = case when $3::timestamptz is null then null else transaction_key_enc end,
         transaction_key_prev_until = $3::timestamptz,
         transaction_key_enc = $2
       where id = $1`,
      [id, this.secrets.encrypt(transactionKey), previousUntil],
    );
    this.cache.forget(id);
    return rowCount > 0 ? transactionKey : null;
  }

  /**
   * The keys that sign for the merchant now, in clear, the current one first: during a roll's
   * overlap the previous one too (docs/merchant-guide.md "Rolling your TransactionKey").
   */
  async signingKeys(q: Queryable, id: string, now: Date): Promise<string[] | null> {
    const record = await this.record(q, id);
    return record ? this.signingKeysOf(record, now) : null;
  }

  /** signingKeys of a record read already (MERCHANT_JOIN_COLUMNS). */
  signingKeysOf(record: MerchantRecord, now: Date): string[] {
    const previous = this.previousKeyOf(record, now);
    return [this.secrets.decrypt(record.keyEnc), ...(previous === null ? [] : [previous])];
  }

  /** The previous key in clear while its overlap lasts at `now`; else null. */
  previousKeyOf(record: Pick<MerchantRecord, 'prevKeyEnc' | 'prevKeyUntil'>, now: Date): string | null {
    const until = record.prevKeyUntil ? new Date(record.prevKeyUntil) : null;
    if (!record.prevKeyEnc || !until || now >= until) return null;
    return this.secrets.decrypt(record.prevKeyEnc);
  }

  /** Disables (its credential is refused) or enables a merchant; false when there is none. */
  async setDisabled(q: Queryable, id: string, disabled: boolean): Promise<boolean> {
    if (!ID.test(id)) return false;
    const { rowCount } = await q.query(
      `update merchants set disabled_at = case when $2 then coalesce(disabled_at, now()) end where id = $1`,
      [id, disabled],
    );
    this.cache.forget(id);
    return rowCount > 0;
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
    const record = await this.record(q, id);
    return record ? this.secrets.decrypt(record.keyEnc) : null;
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
