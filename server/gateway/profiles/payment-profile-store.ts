/**
 * Payment profiles: a customer's stored cards at one merchant (DESIGN.md "What the spec leaves
 * open"; docs/gateway-profiles-invoices.md). A profile points at a vault card (`cards`, PAN only as
 * ciphertext) and keeps its own name on the card; every look-up is scoped to merchant and customer,
 * so another merchant's profile is simply not found. Deleting is soft: `deleted_at` is set, and a
 * deleted profile is found by nothing here.
 *
 * "This card is already a profile of this customer" is the unique index
 * payment_profiles_one_per_card (merchant, customer, keyed PAN fingerprint) over active profiles.
 */
import crypto from 'node:crypto';
import type { Queryable } from '../../db/database.ts';
import type { StoredCard } from '../vault/card-vault.ts';

export interface PaymentProfile {
  /** Opaque: 'pp_' + 24 lowercase letters. */
  id: string;
  merchantId: string;
  customerId: string;
  cardId: string;
  cardFingerprint: string;
  nameOnCard: string | null;
  createdAt: Date;
  updatedAt: Date;
}

interface ProfileRow {
  id: string;
  merchant_id: string;
  customer_id: string;
  card_id: string;
  card_fingerprint: string;
  name_on_card: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS =
  'id, merchant_id, customer_id, card_id, card_fingerprint, name_on_card, created_at, updated_at';
const ID = /^pp_[a-z]{24}$/;
/** A profile id is opaque; anything not shaped like one is not looked up at all. */
export function isPaymentProfileId(value: string): boolean {
  return ID.test(value);
}

/**
 * 'pp_' + 24 random lowercase letters (112 bits). Letters only: a hex id can hold a run of 13+
 * digits, which PAN scanners (and PCI-341-1 checks) would take for a card number.
 */
export function newPaymentProfileId(): string {
  let id = 'pp_';
  for (let i = 0; i < 24; i++) id += String.fromCharCode(97 + crypto.randomInt(26));
  return id;
}

function fromRow(r: ProfileRow): PaymentProfile {
  return {
    id: r.id,
    merchantId: String(r.merchant_id),
    customerId: String(r.customer_id),
    cardId: r.card_id,
    cardFingerprint: r.card_fingerprint,
    nameOnCard: r.name_on_card,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** PostgreSQL's unique_violation, raised alike by pg and PGlite. */
function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === '23505';
}

export interface ProfileOwner {
  merchantId: string;
  customerId: string;
}

/** The active profile `id` of this merchant's customer, or null (also for another merchant's). */
export async function getProfile(
  q: Queryable,
  owner: ProfileOwner,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<PaymentProfile | null> {
  if (!isPaymentProfileId(id)) return null;
  const { rows } = await q.query<ProfileRow>(
    `select ${COLUMNS} from payment_profiles
     where id = $1 and merchant_id = $2 and customer_id = $3 and deleted_at is null${options.forUpdate ? ' for update' : ''}`,
    [id, owner.merchantId, owner.customerId],
  );
  return rows[0] ? fromRow(rows[0]) : null;
}

/** The customer's active profiles, oldest first. */
export async function listProfiles(q: Queryable, owner: ProfileOwner): Promise<PaymentProfile[]> {
  const { rows } = await q.query<ProfileRow>(
    `select ${COLUMNS} from payment_profiles
     where merchant_id = $1 and customer_id = $2 and deleted_at is null
     order by created_at, id`,
    [owner.merchantId, owner.customerId],
  );
  return rows.map(fromRow);
}

/** The customer's active profile holding this card number (by fingerprint), or null. */
export async function findProfileByFingerprint(
  q: Queryable,
  owner: ProfileOwner,
  fingerprint: string,
): Promise<PaymentProfile | null> {
  const { rows } = await q.query<ProfileRow>(
    `select ${COLUMNS} from payment_profiles
     where merchant_id = $1 and customer_id = $2 and card_fingerprint = $3 and deleted_at is null`,
    [owner.merchantId, owner.customerId, fingerprint],
  );
  return rows[0] ? fromRow(rows[0]) : null;
}

export type CreateOutcome = { created: PaymentProfile } | { duplicateOf: PaymentProfile | null };

/**
 * Adds a profile for a vaulted card; when the customer already has this card number as an active
 * profile (even one created a moment ago by another instance), nothing is added.
 */
export async function createProfile(
  q: Queryable,
  owner: ProfileOwner,
  card: StoredCard,
  nameOnCard: string | null,
): Promise<CreateOutcome> {
  const { rows } = await q.query<ProfileRow>(
    `insert into payment_profiles (id, merchant_id, customer_id, card_id, card_fingerprint, name_on_card)
     values ($1, $2, $3, $4, $5, $6)
     on conflict (merchant_id, customer_id, card_fingerprint) where deleted_at is null do nothing
     returning ${COLUMNS}`,
    [newPaymentProfileId(), owner.merchantId, owner.customerId, card.id, card.fingerprint, nameOnCard],
  );
  if (rows[0]) return { created: fromRow(rows[0]) };
  return { duplicateOf: await findProfileByFingerprint(q, owner, card.fingerprint) };
}

export interface ProfileChange {
  card: StoredCard;
  nameOnCard: string | null;
}

/**
 * Points the profile at `change.card` and sets its name. Answers 'duplicate' (and changes nothing)
 * when another active profile of the customer holds that card number; 'not_found' when the profile
 * is gone.
 */
export async function updateProfile(
  q: Queryable,
  profile: PaymentProfile,
  change: ProfileChange,
  now: Date,
): Promise<'updated' | 'duplicate' | 'not_found'> {
  if (change.card.fingerprint !== profile.cardFingerprint) {
    const other = await findProfileByFingerprint(q, profile, change.card.fingerprint);
    if (other && other.id !== profile.id) return 'duplicate';
  }
  try {
    const { rowCount } = await q.query(
      `update payment_profiles set card_id = $2, card_fingerprint = $3, name_on_card = $4, updated_at = $5
       where id = $1 and deleted_at is null`,
      [profile.id, change.card.id, change.card.fingerprint, change.nameOnCard, now],
    );
    return rowCount > 0 ? 'updated' : 'not_found';
  } catch (err) {
    // Another instance gave the customer this card between the check and the update.
    if (isUniqueViolation(err)) return 'duplicate';
    throw err;
  }
}

/** Soft-deletes the active profile; false when there is none (already deleted, or not theirs). */
export async function deleteProfile(
  q: Queryable,
  owner: ProfileOwner,
  id: string,
  now: Date,
): Promise<boolean> {
  if (!isPaymentProfileId(id)) return false;
  const { rowCount } = await q.query(
    `update payment_profiles set deleted_at = $4, updated_at = $4
     where id = $1 and merchant_id = $2 and customer_id = $3 and deleted_at is null`,
    [id, owner.merchantId, owner.customerId, now],
  );
  return rowCount > 0;
}
