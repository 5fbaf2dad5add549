-- Rolling a merchant's TransactionKey with an overlap (issue 16, Developers; docs/merchant-guide.md
-- "Rolling your TransactionKey"). Expand only: a previous release neither reads nor writes these.
--
-- The key being replaced is kept, encrypted under the vault's secret key as transaction_key_enc is,
-- until transaction_key_prev_until: it authenticates and redirects and webhooks are signed with it
-- too until then. Both null when there is no overlap. A previous release's instance (a rolling
-- upgrade) refuses the previous key and signs with the current one only.
alter table merchants add column transaction_key_prev_enc text;
alter table merchants add column transaction_key_prev_until timestamptz;

-- When each key was last used to authenticate, to about a minute (each instance writes at most once
-- a minute, off the requests): by key_id, the first 32 hex digits of SHA-256 of a fixed label and
-- the key (server/gateway/merchants/key-uses.ts), never the key. A roll drops the rows of keys that
-- no longer authenticate.
create table transaction_key_uses (
  merchant_id bigint not null references merchants (id) on delete cascade,
  key_id text not null,
  last_used_at timestamptz not null,
  primary key (merchant_id, key_id)
);
