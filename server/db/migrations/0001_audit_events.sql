-- Audit trail of security-relevant actions (security-requirements.md PCI-10-1, PCI-10-2):
-- who did what, when, from where, to which resource, and whether it succeeded. Append-only by use;
-- never holds card numbers, CVV, codes or keys.
create table audit_events (
  id bigint generated always as identity primary key,
  occurred_at timestamptz not null default now(),
  actor text not null,
  action text not null,
  resource text,
  outcome text not null check (outcome in ('success', 'failure', 'info')),
  origin text,
  detail jsonb not null default '{}'::jsonb
);

create index audit_events_occurred_at on audit_events (occurred_at);
