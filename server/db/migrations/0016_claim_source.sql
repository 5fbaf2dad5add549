-- What a checkout session's payment claim charges (issue 21): the payment source and the request's
-- fields of the transaction row, set with the claim before the processor is called and cleared with
-- it. A claim left by a crash after the processor approved is then recorded by the gateway's own
-- sweep (server/gateway/payments/claim-sweep.ts) as the attempt would have recorded it, without
-- waiting for the shopper to come back. One jsonb value, not a column per field: it is only ever
-- written and read whole, as the row the attempt would have inserted (`ClaimCharge`, sale-steps.ts);
-- no secret is in it (a card is named by its vault id, a bank account by its last four digits).
alter table checkout_sessions add column claim_charge jsonb;
-- The sweep looks for claims older than the claim timeout.
create index checkout_sessions_claimed on checkout_sessions (claimed_at) where claim_reference is not null;
