-- The dashboard's team roles (issue 16): what a merchant user may do, enforced by the gateway on
-- every call. Expand only: a previous release neither reads nor writes the column, and every user it
-- creates (and every user there is today, the demo user too) is an owner, as all users were before.
alter table merchant_users
  add column role text not null default 'owner'
  check (role in ('owner', 'admin', 'staff', 'viewer'));
