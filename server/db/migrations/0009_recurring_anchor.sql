-- The day of the month a monthly (or longer) schedule charges on, so a schedule that starts on the
-- 31st charges on the last day of shorter months and returns to the 31st, instead of drifting.
alter table recurring_schedules add column anchor_day smallint check (anchor_day between 1 and 31);
