-- The merchant REST API's refunds, captures and voids (server/checkout/payment-actions.ts). Expand
-- only: a new table the previous release neither reads nor writes.
--
-- One row per request that moves money, committed before the gateway is called: a request whose
-- answer was lost is settled by looking its gateway calls up, never by sending them again. `steps`
-- lists those calls in order, each recorded before it is sent: its reference (CustomValue1 of the
-- ProcessTransaction, which GetTransactionHistories answers), the transaction it acts on, the
-- amount, and what became of it. At most one action of a payment is `started` at a time, so two
-- refunds of one payment never race each other.
create table merchant_payment_actions (
  id bigint generated always as identity primary key,
  merchant_id bigint not null,
  idempotency_key text not null,
  payment_id bigint not null,
  action text not null check (action in ('refund', 'capture', 'void')),
  state text not null check (state in ('started', 'succeeded', 'declined', 'failed')),
  -- What was asked; null: all that remains.
  amount numeric(12, 2),
  reason text check (reason in ('requested_by_customer', 'duplicate', 'fraudulent', 'other')),
  steps jsonb not null default '[]',
  started_at timestamptz not null,
  finished_at timestamptz
);
create unique index merchant_payment_actions_one_started on merchant_payment_actions (merchant_id, payment_id)
  where state = 'started';
create index merchant_payment_actions_key on merchant_payment_actions (merchant_id, idempotency_key);
