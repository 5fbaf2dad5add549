-- The dashboard's team (issue 16; docs/dashboard.md "Team"): a merchant's Owner invites users by
-- e-mail and disables them. Expand only: a nullable column and a new table. A previous release
-- neither reads nor writes either; while it still serves during a rolling upgrade it lets a disabled
-- user sign in (disable users once every instance runs this release, as docs/gateway-users.md says).

-- When an Owner disabled the user (null: enabled). A disabled user's sign-in is refused like a
-- locked one's, and its sessions end at once.
alter table merchant_users add column disabled_at timestamptz;

-- An invitation: a 256-bit random token e-mailed as a link, stored only as its SHA-256 digest. It
-- works once (accepted_at), until expires_at (72 hours), unless revoked; accepting makes the user
-- with this e-mail and role in the same transaction that marks it accepted.
create table user_invitations (
  id bigint generated always as identity primary key,
  merchant_id bigint not null references merchants (id),
  token_hash text not null unique,
  email text not null,
  role text not null check (role in ('owner', 'admin', 'staff', 'viewer')),
  invited_by bigint references merchant_users (id),
  expires_at timestamptz not null,
  accepted_at timestamptz,
  accepted_user_id bigint references merchant_users (id),
  revoked_at timestamptz,
  created_at timestamptz not null default now()
);
create index user_invitations_merchant on user_invitations (merchant_id, created_at);
