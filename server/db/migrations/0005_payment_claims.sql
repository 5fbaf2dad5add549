-- A checkout session's payment attempts at the gateway (DESIGN.md §8, security-requirements.md
-- REL-2/REL-3): before the processor is called, the attempt's reference is committed on the
-- session, so a second concurrent attempt is refused and an attempt cut short by a crash is found
-- and settled by looking its reference up, never charged again under a new one.
alter table checkout_sessions
  add column attempts int not null default 0,
  add column claim_reference text,
  add column claimed_at timestamptz;
