/**
 * The shopper's wallet in `wallet_cards` (migration 0007; docs/gateway-wallet-codes.md): entries
 * that point at vault cards, keyed by normalised e-mail and/or phone (contacts.ts).
 *
 * Matching rule, everywhere: an entry belongs to the shopper when its e-mail equals the given
 * e-mail OR its phone equals the given phone (a contact not given matches nothing). Callers pass
 * only contacts the shopper has proven (DESIGN.md §9), so one proven contact is enough.
 *
 * A card counts as expired by the rule of shared/card/expiry.ts (valid through the last day of its
 * month, anywhere on earth), given to the database as the earliest (year, month) still valid
 * (`earliestUnexpired`) so that it can filter on it.
 */
import crypto from 'node:crypto';
import { earliestUnexpired } from '../../../shared/card/expiry.ts';
import type { Queryable } from '../../db/database.ts';
import type { Contacts } from './contacts.ts';

export interface WalletEntry {
  tokenGuid: string;
  cardId: string;
  email: string | null;
  phone: string | null;
  nameOnCard: string | null;
  displayName: string | null;
  createdByMerchant: string | null;
}

/** An entry with what a shopper may see of its card (never the PAN, nor its BIN). */
export interface WalletCard extends WalletEntry {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

interface EntryRow {
  token_guid: string;
  card_id: string;
  email: string | null;
  phone: string | null;
  name_on_card: string | null;
  display_name: string | null;
  created_by_merchant: string | null;
}

const ENTRY_COLUMNS =
  'w.token_guid, w.card_id, w.email, w.phone, w.name_on_card, w.display_name, w.created_by_merchant';

/** Entries of the shopper ($1 e-mail, $2 phone; null matches nothing) that are not removed. */
const MATCHES = '(w.email = $1 or w.phone = $2) and w.removed_at is null';
/** Cards not expired at ($3 year, $4 month): see `earliestUnexpired`. */
const NOT_EXPIRED = '(c.exp_year > $3 or (c.exp_year = $3 and c.exp_month >= $4))';

function toEntry(r: EntryRow): WalletEntry {
  return {
    tokenGuid: r.token_guid,
    cardId: r.card_id,
    email: r.email,
    phone: r.phone,
    nameOnCard: r.name_on_card,
    displayName: r.display_name,
    createdByMerchant: r.created_by_merchant === null ? null : String(r.created_by_merchant),
  };
}

function shopperParams(c: Contacts, now: Date): unknown[] {
  const { year, month } = earliestUnexpired(now);
  return [c.email, c.phone, year, month];
}

export interface NewEntry {
  cardId: string;
  email: string | null;
  phone: string | null;
  nameOnCard: string | null;
  displayName: string | null;
  merchantId: string | null;
  now: Date;
}

/**
 * Saves a card for these contacts and answers its entry. The same card already saved for the same
 * contacts is the same entry, also when two instances save it at once: `renames` sets its names to
 * the ones given (UpdateToken), otherwise they only fill names it lacks (a repeat payment).
 */
export async function saveEntry(
  q: Queryable,
  e: NewEntry,
  renames: boolean,
): Promise<{ entry: WalletEntry; created: boolean }> {
  const inserted = await q.query(
    `insert into wallet_cards (token_guid, card_id, email, phone, name_on_card, display_name,
       created_by_merchant, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $8)
     on conflict (card_id, coalesce(email, ''), coalesce(phone, '')) where removed_at is null do nothing`,
    [crypto.randomUUID(), e.cardId, e.email, e.phone, e.nameOnCard, e.displayName, e.merchantId, e.now],
  );
  const created = inserted.rowCount === 1;
  const pick = (column: string, param: string) =>
    renames ? `coalesce(${param}, w.${column})` : `coalesce(w.${column}, ${param})`;
  const { rows } = await q.query<EntryRow>(
    `update wallet_cards w set
       name_on_card = ${pick('name_on_card', '$4')},
       display_name = ${pick('display_name', '$5')},
       updated_at = case when $7::boolean then w.updated_at else $6 end
     where w.card_id = $1 and w.email is not distinct from $2 and w.phone is not distinct from $3
       and w.removed_at is null
     returning ${ENTRY_COLUMNS}`,
    [e.cardId, e.email, e.phone, e.nameOnCard, e.displayName, e.now, created],
  );
  const row = rows[0];
  if (!row) throw new Error('A wallet entry vanished right after it was saved.');
  return { entry: toEntry(row), created };
}

/**
 * The shopper's entry with this TokenGuid (removed ones excluded), whatever its card's expiry; with
 * `merchantId`, only when that merchant created it.
 */
export async function findEntry(
  q: Queryable,
  tokenGuid: string,
  contacts: Contacts,
  merchantId: string | null = null,
): Promise<WalletEntry | null> {
  const { rows } = await q.query<EntryRow>(
    `select ${ENTRY_COLUMNS} from wallet_cards w
     where w.token_guid = $3 and ${MATCHES}
       and ($4::bigint is null or w.created_by_merchant = $4::bigint)`,
    [contacts.email, contacts.phone, tokenGuid, merchantId],
  );
  return rows[0] ? toEntry(rows[0]) : null;
}

export type EntryUpdate = Pick<WalletEntry, 'cardId' | 'nameOnCard' | 'displayName'>;

/**
 * Points an entry at a (possibly new) card and sets its names. 'duplicate': the shopper already has
 * that card under these contacts in another entry, whose TokenGuid is answered.
 */
export async function updateEntry(
  q: Queryable,
  entry: WalletEntry,
  change: EntryUpdate,
  now: Date,
): Promise<{ ok: true } | { ok: false; duplicateOf: string }> {
  if (change.cardId !== entry.cardId) {
    const { rows } = await q.query<{ token_guid: string }>(
      `select token_guid from wallet_cards
       where card_id = $1 and email is not distinct from $2 and phone is not distinct from $3
         and removed_at is null and token_guid <> $4`,
      [change.cardId, entry.email, entry.phone, entry.tokenGuid],
    );
    if (rows[0]) return { ok: false, duplicateOf: rows[0].token_guid };
  }
  await q.query(
    `update wallet_cards set card_id = $2, name_on_card = $3, display_name = $4, updated_at = $5
     where token_guid = $1 and removed_at is null`,
    [entry.tokenGuid, change.cardId, change.nameOnCard, change.displayName, now],
  );
  return { ok: true };
}

type CardRow = EntryRow & {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
};

/**
 * The shopper's cards that have not expired, newest first, one entry per card, each with the name
 * its entry holds (the vault's card row, shared by everyone who used the card, holds none).
 */
export async function listCards(q: Queryable, contacts: Contacts, now: Date): Promise<WalletCard[]> {
  const { rows } = await q.query<CardRow>(
    `select s.* from (
       select distinct on (w.card_id) ${ENTRY_COLUMNS}, c.brand, c.last4, c.exp_month, c.exp_year,
         w.created_at
       from wallet_cards w join cards c on c.id = w.card_id
       where ${MATCHES} and ${NOT_EXPIRED}
       order by w.card_id, w.created_at desc, w.token_guid
     ) s
     order by s.created_at desc, s.token_guid`,
    shopperParams(contacts, now),
  );
  return rows.map((r) => ({
    ...toEntry(r),
    nameOnCard: r.name_on_card,
    brand: r.brand,
    last4: r.last4,
    expMonth: Number(r.exp_month),
    expYear: Number(r.exp_year),
  }));
}

/**
 * Removes the shopper's entry with this TokenGuid and every other entry of the shopper for the same
 * card (GetStoredCards shows a card once, so removing it must not let another entry resurface).
 * Answers how many entries were removed.
 */
export async function removeCard(
  q: Queryable,
  tokenGuid: string,
  contacts: Contacts,
  now: Date,
): Promise<number> {
  const { rowCount } = await q.query(
    `update wallet_cards w set removed_at = $4, updated_at = $4
     where ${MATCHES}
       and w.card_id = (select x.card_id from wallet_cards x
                        where x.token_guid = $3 and (x.email = $1 or x.phone = $2) and x.removed_at is null)`,
    [contacts.email, contacts.phone, tokenGuid, now],
  );
  return rowCount;
}

/**
 * Which of the given contacts hold at least one card that has not expired (SendVerificationCode).
 * One query of the same shape whatever the answer, so known and unknown contacts cost the same.
 */
export async function knownContacts(
  q: Queryable,
  contacts: Contacts,
  now: Date,
): Promise<{ email: boolean; phone: boolean }> {
  const { rows } = await q.query<{ email_known: boolean | null; phone_known: boolean | null }>(
    `select bool_or(w.email = $1) as email_known, bool_or(w.phone = $2) as phone_known
     from wallet_cards w join cards c on c.id = w.card_id
     where ${MATCHES} and ${NOT_EXPIRED}`,
    shopperParams(contacts, now),
  );
  return { email: rows[0]?.email_known === true, phone: rows[0]?.phone_known === true };
}

/**
 * The vault card id and the name of the shopper's wallet entry, for paying with it: the entry must
 * match the TokenGuid and one of the shopper's (proven) contacts, and its card must not have expired.
 */
export async function walletCardId(
  q: Queryable,
  tokenGuid: string,
  contacts: Contacts,
  now: Date,
): Promise<{ cardId: string; nameOnCard: string | null } | null> {
  const { rows } = await q.query<{ card_id: string; name_on_card: string | null }>(
    `select w.card_id, w.name_on_card from wallet_cards w join cards c on c.id = w.card_id
     where ${MATCHES} and ${NOT_EXPIRED} and w.token_guid = $5`,
    [...shopperParams(contacts, now), tokenGuid],
  );
  const row = rows[0];
  return row ? { cardId: row.card_id, nameOnCard: row.name_on_card } : null;
}
