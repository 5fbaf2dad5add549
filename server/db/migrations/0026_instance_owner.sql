-- Which process holds a payment claim (the gateway's) and started a payment attempt (the
-- checkout's): `<instance id>.<process>` (server/instance.ts). A restarted instance settles at once
-- what its predecessors left in flight, instead of waiting for the claim timeout and the stale time
-- (issue 19 §5). Null for rows written by a process without an instance id or by a previous release:
-- those wait for the timeouts, as before.
alter table checkout_sessions add column claim_owner text;
alter table checkout_attempts add column owner text;

-- A claim's owner belongs to that claim only: any write that changes the claim's reference without
-- naming a new owner (a release, or a claim taken by a previous release, which knows no owner)
-- clears it, so an owner never outlives its claim.
create function checkout_sessions_claim_owner() returns trigger language plpgsql as $$
begin
  if new.claim_reference is distinct from old.claim_reference
     and new.claim_owner is not distinct from old.claim_owner then
    new.claim_owner := null;
  end if;
  return new;
end $$;
create trigger checkout_sessions_claim_owner before update of claim_reference on checkout_sessions
  for each row execute function checkout_sessions_claim_owner();
