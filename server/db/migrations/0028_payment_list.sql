-- The merchant dashboard's reads (issue 15; server/gateway/payments/payment-figures.ts and
-- payment-timeline.ts). Expand only: a column with a default and indexes on existing tables, none unique.
--
-- A batch's count and net (GetSettlementSummary) join its transactions by batch_id, which had no
-- index: each of the 50 batches listed would scan the table. Partial, so a payment (inserted
-- unsettled) writes nothing to it.
create index transactions_batch on transactions (batch_id) where batch_id is not null;

-- A payment's timeline finds the 3-D Secure challenge of its checkout session (GetPayment).
create index three_ds_challenges_session on three_ds_challenges (checkout_session_id)
  where checkout_session_id is not null;

-- A payment link (made on the dashboard: a session a merchant sends to one customer, issue 15) is
-- a checkout session marked as such, so the dashboard lists links apart from a shop's checkouts;
-- the list walks its own partial index, however many checkouts the shop makes.
alter table checkout_sessions add column payment_link boolean not null default false;
create index checkout_sessions_payment_links on checkout_sessions (merchant_id, created_at desc, id desc)
  where payment_link;

-- A payment's webhook deliveries (the checkout's events of its session, server/checkout/webhooks.ts
-- webhookDeliveriesOf): without it, each payment page scanned every merchant's events.
create index checkout_webhook_events_session on checkout_webhook_events (session_token);
