-- The merchant dashboard's sign-in (issue 15): a second factor for every merchant user (TOTP,
-- RFC 6238) with single-use recovery codes, and Login sessions that end after 15 idle minutes, on
-- sign-out, and only count as signed in once the second factor is verified. Expand only: a previous
-- release neither reads nor writes these columns, and its sessions keep working as before.

-- The setup key (base32), encrypted with the vault's secret key like a TransactionKey; null until
-- the user enrolled.
alter table merchant_users add column totp_secret_enc text;
alter table merchant_users add column totp_enrolled_at timestamptz;
-- The last time step whose code was accepted: a code is never accepted twice (RFC 6238 §5.2).
alter table merchant_users add column totp_last_step bigint;

-- Ten per enrolment, each usable once; stored as SHA-256 of the code (80 random bits each).
create table user_recovery_codes (
  user_id bigint not null references merchant_users (id) on delete cascade,
  code_hash text not null,
  used_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (user_id, code_hash)
);

-- The last call made with the session (the idle timeout runs from it; null: from created_at), when
-- its second factor was verified (null: not yet), and when it was ended (signed out).
alter table login_sessions add column last_used_at timestamptz;
alter table login_sessions add column second_factor_at timestamptz;
alter table login_sessions add column ended_at timestamptz;
-- A setup key shown to this session for enrolment, not confirmed by a code yet: the session's own,
-- so another sign-in with the same password cannot replace it under the user's feet.
alter table login_sessions add column totp_pending_enc text;
