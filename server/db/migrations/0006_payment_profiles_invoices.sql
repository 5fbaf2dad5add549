-- Payment profiles and invoices (DESIGN.md "What the spec leaves open"; docs/gateway-profiles-invoices.md).

-- A customer's stored cards at one merchant. The card itself is in the vault (`cards`: PAN only as
-- ciphertext); a profile points at it. `card_fingerprint` is the vault's keyed HMAC of the PAN
-- (never a bare hash, PCI-3511-1), copied here so that "this card is already a profile of this
-- customer" is enforced by the database, whatever the instance. Deleting sets `deleted_at`.
create table payment_profiles (
  id text primary key,
  merchant_id bigint not null references merchants (id),
  customer_id bigint not null check (customer_id > 0),
  card_id text not null references cards (id),
  card_fingerprint text not null,
  -- The profile's own name: the vault shares one `cards` row between every holder of a card.
  name_on_card text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
create index payment_profiles_customer on payment_profiles (merchant_id, customer_id, created_at)
  where deleted_at is null;
create unique index payment_profiles_one_per_card on payment_profiles (merchant_id, customer_id, card_fingerprint)
  where deleted_at is null;

-- One CreateInvoice call that produced a checkout session: the fee as asked for and as computed, and
-- the total the session collects (invoices + fee).
create table invoice_requests (
  id bigint generated always as identity primary key,
  merchant_id bigint not null references merchants (id),
  checkout_session_id bigint not null unique references checkout_sessions (id),
  invoices_total numeric(12, 2) not null check (invoices_total > 0),
  -- ConvenienceFee as sent: an amount, or a percentage when fee_is_percentage.
  fee_input numeric not null check (fee_input >= 0),
  fee_is_percentage boolean not null,
  convenience_fee numeric(12, 2) not null check (convenience_fee >= 0),
  total numeric(12, 2) not null check (total > 0),
  qb_customer_id text,
  qb_ar_account_id text,
  created_at timestamptz not null default now()
);

-- The valid invoices of a request, which its checkout session pays (invalid ones are only reported
-- back in InvoiceResponse.Errors). `status` turns 'paid' when the session is paid.
create table invoices (
  id bigint generated always as identity primary key,
  invoice_request_id bigint not null references invoice_requests (id),
  merchant_id bigint not null references merchants (id),
  -- 1-based position in the request's Invoices list.
  position int not null,
  invoice_number text,
  amount numeric(12, 2) not null check (amount > 0),
  invoice_date date not null,
  status text not null default 'open' check (status in ('open', 'paid')),
  paid_at timestamptz,
  created_at timestamptz not null default now(),
  unique (invoice_request_id, position)
);
create index invoices_merchant_number on invoices (merchant_id, invoice_number);
