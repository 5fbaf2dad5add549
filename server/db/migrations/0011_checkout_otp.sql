-- One-time codes and wallet credentials of the checkout (DESIGN.md §9; security-requirements.md
-- OTP-2…5, OTP-10, SESS-1/2). No code is stored: each code row holds an HMAC-SHA256, under the
-- checkout secret, of (session, contact, verification id, code). No wallet credential is stored
-- either: only its SHA-256. No card data.

-- One send-code request. Wrong tries are counted here (≤5, then burned), over all of its codes.
create table checkout_otp_verifications (
  id text primary key,
  session_token text not null,
  failed_attempts int not null default 0,
  expires_at timestamptz not null,
  -- Set when it can no longer be used: verified, burned (5 wrong tries) or superseded (a new send).
  closed_at timestamptz,
  close_reason text check (close_reason in ('verified', 'burned', 'superseded')),
  created_at timestamptz not null
);
create index checkout_otp_verifications_open on checkout_otp_verifications (session_token)
  where closed_at is null;
create index checkout_otp_verifications_created on checkout_otp_verifications (created_at);

-- One row per contact asked for. A contact with no wallet gets a row too, holding the HMAC of a
-- random 256-bit value no 6-digit code can match, so the tables look the same either way (OTP-7).
create table checkout_otp_codes (
  verification_id text not null references checkout_otp_verifications (id) on delete cascade,
  channel text not null check (channel in ('email', 'sms')),
  -- The normalised e-mail or E.164 phone the code was sent to.
  contact text not null,
  code_hmac text not null,
  primary key (verification_id, channel)
);

-- Wallet credentials issued by a successful verify (OTP-10): bound to the session and to the one
-- contact proven; 15 minutes; one live credential per session (a new one revokes the older).
create table checkout_wallet_tokens (
  token_hash text primary key,
  session_token text not null,
  channel text not null check (channel in ('email', 'sms')),
  contact text not null,
  expires_at timestamptz not null,
  revoked_at timestamptz,
  created_at timestamptz not null
);
create index checkout_wallet_tokens_session on checkout_wallet_tokens (session_token)
  where revoked_at is null;
