-- The shopper's wallet (DESIGN.md "What the spec leaves open": GetStoredCards, UpdateToken;
-- docs/gateway-wallet-codes.md): cards saved across merchants, found by the shopper's e-mail and/or
-- phone. The card itself lives in the vault (`cards`, PAN encrypted); an entry only points at it.
-- Contacts are stored normalised (server/gateway/wallet/contacts.ts): e-mail lower-case, phone as
-- '+' and 7–15 digits. Removal is soft (removed_at), so a TokenGuid is never reused or revived.

create table wallet_cards (
  -- Opaque (a random UUID), the TokenGuid of UpdateToken, GetStoredCards and RemoveStoredCard.
  token_guid text primary key,
  card_id text not null references cards (id),
  email text check (email = lower(email)),
  phone text check (phone ~ '^\+[0-9]{7,15}$'),
  -- The shopper's own name for the card on this entry: the vault's card row is shared by every
  -- merchant and entry holding the same PAN and expiry, so names are not written there.
  name_on_card text,
  display_name text,
  -- The merchant whose credential (or whose payment) saved the entry; null when the checkout server
  -- saved it outside any merchant. A merchant may update only the entries it created.
  created_by_merchant bigint references merchants (id),
  created_at timestamptz not null,
  updated_at timestamptz not null,
  removed_at timestamptz,
  check (email is not null or phone is not null)
);
create index wallet_cards_email on wallet_cards (email) where removed_at is null;
create index wallet_cards_phone on wallet_cards (phone) where removed_at is null;
-- The same card saved again for the same contacts is the same entry (a repeat payment with
-- CreateToken, or two instances at once), so the shopper never sees it twice.
create unique index wallet_cards_one_per_contacts
  on wallet_cards (card_id, coalesce(email, ''), coalesce(phone, ''))
  where removed_at is null;
