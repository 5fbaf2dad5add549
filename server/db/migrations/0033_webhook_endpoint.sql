-- Webhooks from the dashboard (issue 16, Developers; docs/merchant-guide.md "Webhooks"). Expand only:
-- a new table, nullable columns, a relaxed not null and indexes; the previous release neither reads
-- nor writes any of them.
--
-- The merchant's webhook settings are the gateway's (merchant configuration): the endpoint every
-- session without a webhook URL of its own is announced to, and the signing secret (whsec_…),
-- encrypted under the vault's secret key as transaction_key_enc is. Rolling it keeps the secret it
-- replaces, encrypted, until secret_prev_until: deliveries are signed with both until then.
create table merchant_webhook_settings (
  merchant_id bigint primary key references merchants (id) on delete cascade,
  endpoint_url text,
  secret_enc text,
  secret_created_at timestamptz,
  secret_prev_enc text,
  secret_prev_until timestamptz,
  updated_at timestamptz not null
);

-- The checkout's outbox keeps what its last attempt met (the dashboard's deliveries list): the HTTP
-- status (null: no answer: refused, timed out, address not allowed), how long it took, when it was
-- made, and the first 1024 bytes of the answer's body. A test event (payframe.test, sent from the
-- dashboard) belongs to no session: session_token is null for it.
alter table checkout_webhook_events add column last_status int;
alter table checkout_webhook_events add column last_duration_ms int;
alter table checkout_webhook_events add column last_attempt_at timestamptz;
alter table checkout_webhook_events add column last_response_head text;
alter table checkout_webhook_events alter column session_token drop not null;
-- A merchant's deliveries, newest first, a page at a time (server/checkout/webhooks.ts webhookDeliveryPage).
create index checkout_webhook_events_merchant_newest on checkout_webhook_events (merchant_id, created_at desc, id desc);

-- Ended sessions without a webhook URL of their own, for merchants with an endpoint
-- (ListEndedCheckoutSessions; server/gateway/sessions/session-record.ts endedSessionRecords): the
-- sessions with one walk the partial indexes of 0015.
create index checkout_sessions_expiring_without_webhook on checkout_sessions (merchant_id, expires_at)
  where webhook_url is null;
create index checkout_sessions_canceled_without_webhook on checkout_sessions (merchant_id, canceled_at)
  where webhook_url is null and canceled_at is not null;
