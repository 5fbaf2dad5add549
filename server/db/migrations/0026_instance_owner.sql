-- Which instance holds a payment claim (the gateway's) and started a payment attempt (the
-- checkout's): server/instance.ts. A restarted instance settles at once what its own predecessor
-- left in flight, instead of waiting for the claim timeout and the stale time (issue 19 §5). Null for
-- rows written by an instance without an id (another process held its DATA_DIR) or by a previous
-- release: those wait for the timeouts, as before.
alter table checkout_sessions add column claim_owner text;
alter table checkout_attempts add column owner text;
