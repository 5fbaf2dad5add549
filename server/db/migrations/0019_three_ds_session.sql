-- A 3-D Secure challenge made while paying a checkout session belongs to that session (issue 13 §5):
-- its result pays that session only, and the checkout's result route answers for that session only.
-- Null for a challenge made by a merchant's own ProcessTransaction, whose result then pays no session.
alter table three_ds_challenges
  add column checkout_session_id bigint references checkout_sessions (id) on delete cascade;
