-- The card vault's lookup keys (server/gateway/vault/keys.ts IndexKeys): the HMAC keys of card
-- fingerprints and card ids, encrypted under the card encryption key. Stored once, so the
-- encryption key can be rotated (`payframe keys rotate`) while fingerprints and card ids, which
-- other tables and merchants hold, stay the same. One row.
create table vault_index_keys (
  id smallint primary key default 1 check (id = 1),
  keys_enc text not null,
  created_at timestamptz not null default now()
);
