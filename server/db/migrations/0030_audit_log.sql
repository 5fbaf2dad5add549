-- The merchant's audit log (issue 16; server/gateway/users/audit-log.ts). Expand only: indexes on an
-- existing table, none unique, and a trigger that refuses what no release does.
--
-- ListAuditEvents reads the events of a merchant's users, newest first: by actor (what a user did)
-- and by resource (what was done about a user: a failed sign-in, a lock-out), each in id order so a
-- page stops after its rows.
create index audit_events_actor on audit_events (actor, id);
create index audit_events_resource on audit_events (resource, id) where resource is not null;

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
