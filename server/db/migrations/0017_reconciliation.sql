-- Reconciliation (issue 21, server/gateway/payments/reconciliation.ts): every approved charge at the
-- processor has exactly one transaction, every paid checkout session one approved transaction. It
-- reads a recent window: the processor's charges by when they were recorded, their transactions by
-- reference, the paid sessions by when they were created.
create index processor_ledger_created on processor_ledger (created_at);
create index transactions_processor_reference on transactions (processor_reference);
create index checkout_sessions_paid_created on checkout_sessions (created_at) where status = 'paid';
