-- The merchants a checkout in spec mode serves (issue 20; server/checkout/README.md "Spec mode").
-- Expand only: a new table the previous release neither reads nor writes.
--
-- A Transaction Service that speaks only the spec names a session's merchant by its MerchantName
-- (GetHostedPaymentDetails) and keeps its TransactionKey to itself, so the checkout holds what it
-- needs per merchant: the id its requests carry (ProcessTransaction's MerchantID, the lookups of
-- GetTransactionHistories), the name that finds it, the origins that may embed its checkout, and
-- the secret its redirects are signed with — encrypted under a key derived from CHECKOUT_SECRET,
-- never in a plain column. Payframe mode never reads it.
create table checkout_spec_merchants (
  merchant_id bigint primary key,
  name text not null,
  origins text[] not null default '{}',
  redirect_secret_enc text not null,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create unique index checkout_spec_merchants_name on checkout_spec_merchants (name);
