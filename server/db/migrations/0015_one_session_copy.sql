-- The gateway's checkout session is the only copy (DESIGN.md §16). The checkout kept its own row per
-- REST-made session (`checkout_session_meta`: currency, expiry, webhook URL, whether its end was
-- announced); it now reads all of that from the gateway (GetCheckoutSession), and learns of ended
-- sessions, REST- or SOAP-made alike, from ListEndedCheckoutSessions.

-- Gateway: when a session was canceled, so ended sessions can be listed in the order they ended.
alter table checkout_sessions add column canceled_at timestamptz;
create index checkout_sessions_expiring_with_webhook on checkout_sessions (expires_at)
  where webhook_url is not null;
create index checkout_sessions_canceled_with_webhook on checkout_sessions (canceled_at)
  where webhook_url is not null and canceled_at is not null;
-- Every REST-made session sent its webhook URL to the gateway too; fill any gap where both tables
-- share a database.
update checkout_sessions s set webhook_url = m.webhook_url
  from checkout_session_meta m
  where m.token = s.token and s.webhook_url is null and m.webhook_url is not null;

-- Checkout: a session's end (expired or canceled) is announced once. The row and the webhook event
-- are written in one transaction; the primary key makes a second announcement impossible, whichever
-- instance or path (cancel, sweep) tries.
create table checkout_session_endings (
  token text primary key,
  -- 'checkout.session.expired' or 'checkout.session.canceled'; 'announced' for ends announced
  -- before this migration (the old table did not say which).
  type text not null,
  announced_at timestamptz not null
);
insert into checkout_session_endings (token, type, announced_at)
  select token, 'announced', expiry_announced_at from checkout_session_meta
  where expiry_announced_at is not null;

-- Where the sweep of ended sessions has got to (the end time of the last one it announced).
create table checkout_sweep_cursors (
  name text primary key,
  position timestamptz not null
);
-- No row: the sweep starts a day back (ends announced before are in checkout_session_endings).
insert into checkout_sweep_cursors (name, position)
  select 'session-endings', min(expires_at) from checkout_session_meta
  where expiry_announced_at is null and webhook_url is not null
  having min(expires_at) is not null;

-- An attempt is committed before the gateway is asked anything (with its key, in one transaction);
-- what the session is comes with the gateway's answer and is written when the attempt ends.
alter table checkout_attempts alter column merchant_id drop not null;
alter table checkout_attempts alter column amount drop not null;

-- contract (unused since 0015): checkout_session_meta, dropped by the release that stopped using it,
-- before rolling upgrades were supported (server/db/README.md); under the rules it waits a release.
drop table checkout_session_meta;

-- The redirect's signature as the gateway made it with the payment: a replayed or reloaded receipt
-- needs no signing call.
alter table checkout_payments add column redirect_signature text;
