-- What is bought (issue 14 §4): an optional description (at most 500 characters) and line items
-- ([{name, quantity, unitAmount}], at most 100, whose total equals the amount), shown on the hosted
-- page above the amount. Line items are kept as written, unitAmount a decimal string (never a float).
alter table checkout_sessions add column description text;
alter table checkout_sessions add column line_items jsonb;
