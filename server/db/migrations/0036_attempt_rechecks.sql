-- When recovery asks again about an attempt it could not decide (server/checkout/recovery.ts).
-- Expand only: two columns the previous release neither reads nor writes (it keeps asking about
-- every stale attempt on every run, as before).
--
-- A spec-mode checkout (issue 20) can meet an attempt the service's history cannot decide for a
-- long time. Asked on every run, a hundred of them would fill every batch of stale attempts (and
-- the service's logs): such an attempt is asked again after 5 s, then 10 s, 20 s, … up to every
-- 10 minutes. Null: due on the next run.
alter table checkout_attempts add column undecided_checks integer not null default 0;
alter table checkout_attempts add column next_check_at timestamptz;
