-- The checkout server's own records (DESIGN.md §7–10; security-requirements.md §3 IDEM-1…7,
-- §6 REL-2…4). The gateway owns sessions and transactions; these tables hold what the checkout adds:
-- what a merchant asked for over REST, idempotency keys, payment attempts, the one payment of a
-- session as the checkout saw it, the webhook outbox and rate-limit counters. No card number, CVV
-- or bank account number is ever stored here (result bodies hold at most the last four digits).

-- What the merchant sent to POST /v1/checkout-sessions that GetHostedPaymentDetails does not return.
create table checkout_session_meta (
  token text primary key,
  merchant_id bigint not null,
  currency text not null,
  expires_at timestamptz not null,
  webhook_url text,
  -- Set, with the `checkout.session.expired` event in the same transaction, once expiry is announced.
  expiry_announced_at timestamptz,
  created_at timestamptz not null default now()
);
create index checkout_session_meta_expiry on checkout_session_meta (expires_at)
  where expiry_announced_at is null and webhook_url is not null;

-- Idempotency keys (IDEM-1): scoped to session + endpoint, claimed with INSERT … ON CONFLICT DO
-- NOTHING. `fingerprint` is an HMAC of the request (never the request itself); `body` is the
-- response replayed for the same key, and holds no card data.
create table checkout_idempotency (
  session_token text not null,
  endpoint text not null,
  key text not null,
  fingerprint text not null,
  state text not null check (state in ('in_flight', 'completed')),
  status_code int,
  -- The answer's JSON text exactly as first sent, so a replay is byte-identical.
  body text,
  created_at timestamptz not null,
  completed_at timestamptz,
  primary key (session_token, endpoint, key)
);
create index checkout_idempotency_created on checkout_idempotency (created_at);

-- One row per try at paying a session, committed before the gateway is called (REL-2). At most one
-- attempt of a session is `started` at a time; recovery (REL-3) resolves those left behind.
create table checkout_attempts (
  id bigint generated always as identity primary key,
  session_token text not null,
  idempotency_key text not null,
  method text not null check (method in ('card', 'ach')),
  state text not null check (state in ('started', 'succeeded', 'declined', 'failed')),
  -- A snapshot of the session taken while it was open (a paid session no longer shows them).
  merchant_id bigint not null,
  merchant_name text,
  amount numeric(12, 2) not null,
  currency text,
  order_number text,
  return_url text,
  response_code text,
  response_message text,
  transaction_id bigint,
  recovered boolean not null default false,
  started_at timestamptz not null,
  finished_at timestamptz
);
create unique index checkout_attempts_one_started on checkout_attempts (session_token)
  where state = 'started';
create index checkout_attempts_stale on checkout_attempts (started_at) where state = 'started';
create index checkout_attempts_session on checkout_attempts (session_token);

-- The one successful payment of a session as the checkout recorded it (IDEM-7): the primary key
-- makes a second record impossible, and only the insert that creates it enqueues the webhook.
create table checkout_payments (
  session_token text primary key,
  attempt_id bigint,
  merchant_id bigint not null,
  merchant_name text,
  transaction_id bigint,
  approval_code text,
  -- As the gateway masks it (at most first six + last four); shoppers are shown the last four only.
  masked_card text,
  method text,
  amount numeric(12, 2) not null,
  currency text,
  order_number text,
  return_url text,
  paid_at timestamptz not null
);

-- The webhook outbox (REL-4): written in the transaction that changes the state it reports,
-- delivered by a worker until the merchant answers 2xx. `lease_until` keeps two instances from
-- sending the same event at once; a crash mid-send leaves the lease to expire and the event is sent
-- again with the same id.
create table checkout_webhook_events (
  id text primary key,
  session_token text not null,
  merchant_id bigint not null,
  url text not null,
  type text not null,
  payload text not null,
  state text not null default 'pending' check (state in ('pending', 'delivered', 'abandoned')),
  attempts int not null default 0,
  next_attempt_at timestamptz not null,
  lease_until timestamptz,
  last_error text,
  created_at timestamptz not null,
  delivered_at timestamptz
);
create index checkout_webhook_events_due on checkout_webhook_events (next_attempt_at)
  where state = 'pending';

-- Fixed-window request counters shared by every instance (per IP, per session).
create table checkout_rate_counters (
  bucket text not null,
  window_start timestamptz not null,
  hits int not null,
  primary key (bucket, window_start)
);
create index checkout_rate_counters_window on checkout_rate_counters (window_start);
