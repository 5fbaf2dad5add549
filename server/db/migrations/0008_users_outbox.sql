-- Merchant users (Login, ForgotPassword; docs/gateway-users.md) and the notifier's dev outbox.
-- No secret is stored in a form that can be used: passwords as scrypt hashes (with their
-- parameters), reset and session tokens as SHA-256 digests of 256-bit random values.

-- Messages the notifier delivered to the database instead of SMTP or an SMS webhook (the default,
-- readable at GET /dev/outbox outside production). Card numbers are refused before they get here.
create table notification_outbox (
  id bigint generated always as identity primary key,
  channel text not null check (channel in ('email', 'sms')),
  recipient text not null,
  subject text,
  body_text text not null,
  body_html text,
  purpose text not null,
  created_at timestamptz not null default now()
);
create index notification_outbox_recipient on notification_outbox (lower(recipient), id desc);

create table merchant_users (
  id bigint generated always as identity primary key,
  merchant_id bigint not null references merchants (id),
  username text not null,
  email text,
  -- `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` (base64, no padding): the parameters travel with the hash.
  password_hash text not null,
  -- Consecutive failed sign-ins; at 10 the account locks for 30 minutes (PCI-834-1).
  failed_attempts int not null default 0,
  locked_until timestamptz,
  password_changed_at timestamptz not null default now(),
  last_login_at timestamptz,
  created_at timestamptz not null default now()
);
-- User names are unique across merchants, compared case-insensitively: Login names no merchant.
create unique index merchant_users_username on merchant_users (lower(username));
create index merchant_users_merchant on merchant_users (merchant_id);

create table password_reset_tokens (
  token_hash text primary key,
  user_id bigint not null references merchant_users (id) on delete cascade,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index password_reset_tokens_user on password_reset_tokens (user_id, created_at);

create table login_sessions (
  token_hash text primary key,
  user_id bigint not null references merchant_users (id) on delete cascade,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index login_sessions_user on login_sessions (user_id);
