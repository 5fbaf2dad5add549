-- The merchant's audit log (issue 16; server/gateway/users/audit-log.ts). Expand only: a nullable
-- column filled by the database itself, indexes, none unique, and triggers that refuse what no
-- release does.
--
-- Each event names the merchant of the user it is by or about (actor or resource
-- `merchant_user:<id>`), set on insert by the database, so every release's inserts get it, and
-- backfilled here for the events before. ListAuditEvents reads one merchant's events newest first
-- through (merchant_id, id), and through (merchant_id, outcome, id) when it asks for one outcome:
-- a page stops after its rows, however large the merchant's log or the table grows.
alter table audit_events add column merchant_id bigint;

create function audit_events_merchant_of(actor text, resource text) returns bigint
  language sql stable as $$
  select u.merchant_id from merchant_users u
   where u.id = any (array[
     case when actor ~ '^merchant_user:[0-9]{1,18}$' then substr(actor, 15)::bigint end,
     case when resource ~ '^merchant_user:[0-9]{1,18}$' then substr(resource, 15)::bigint end])
   limit 1
$$;

create function audit_events_merchant() returns trigger language plpgsql as $$
begin
  if new.merchant_id is null then
    new.merchant_id := audit_events_merchant_of(new.actor, new.resource);
  end if;
  return new;
end;
$$;

create trigger audit_events_merchant before insert on audit_events
  for each row execute function audit_events_merchant();

-- Before the append-only triggers below: the one update this table ever gets.
update audit_events set merchant_id = audit_events_merchant_of(actor, resource);

create index audit_events_merchant_newest on audit_events (merchant_id, id) where merchant_id is not null;
create index audit_events_merchant_outcome on audit_events (merchant_id, outcome, id)
  where merchant_id is not null;

-- The audit log is append-only (PCI-10-5): no release updates, deletes or truncates audit_events
-- (audit-append-only.test.ts scans the code), and the database refuses it to anyone who tries.
create function audit_events_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'audit_events is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
end;
$$;

create trigger audit_events_no_update_delete before update or delete on audit_events
  for each row execute function audit_events_append_only();
create trigger audit_events_no_truncate before truncate on audit_events
  for each statement execute function audit_events_append_only();
