-- What each gateway instance keeps in memory (server/gateway/merchants/merchant-cache.ts: verified
-- credentials, merchant rows, addresses with failed sign-ins) is told of every change, whoever makes
-- it (this instance, another one, an operator in psql): a notification on channel
-- payframe_gateway_cache after each change to a merchant or to the failed-sign-in count, delivered
-- to every listening instance when the change commits.

-- A disabled merchant's credential is refused (docs/gateway.md, "Credentials").
alter table merchants add column disabled_at timestamptz;

create function payframe_gateway_cache_notify() returns trigger language plpgsql as $$
begin
  if tg_table_name = 'merchants' then
    perform pg_notify('payframe_gateway_cache', json_build_object(
      'schema', tg_table_schema, 'merchant', coalesce(new.id, old.id)::text)::text);
  else
    perform pg_notify('payframe_gateway_cache', json_build_object(
      'schema', tg_table_schema, 'failing', coalesce(new.subject, old.subject))::text);
  end if;
  return null;
end
$$;

create trigger merchants_cache_notify after update or delete on merchants
  for each row execute function payframe_gateway_cache_notify();

create trigger auth_failures_cache_notify after insert or update or delete on auth_failures
  for each row execute function payframe_gateway_cache_notify();
