-- The merchant's branding on the hosted page and the embedded form (issue 16 "Settings"): a brand
-- colour (#rrggbb, lower case) and a corner radius in pixels (0-24), set from the dashboard's
-- Settings page. Expand only: both columns are nullable (null: Payframe's default look), so the
-- previous release, which neither reads nor writes them, keeps working; the checks hold on new
-- columns only, which no previous-release write sets.
alter table merchants
  add column brand_color text check (brand_color ~ '^#[0-9a-f]{6}$'),
  add column corner_radius smallint check (corner_radius between 0 and 24);
