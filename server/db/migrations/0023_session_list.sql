-- A merchant's sessions newest first, a page at a time (ListCheckoutSessions, issue 14 §11): the
-- list walks this index from the cursor's (created_at, id) down, so a page costs its own rows, not
-- the merchant's whole history. id breaks ties of created_at in the order sessions were made.
-- It covers what checkout_sessions_merchant (merchant_id) did.
create index checkout_sessions_merchant_newest on checkout_sessions (merchant_id, created_at desc, id desc);
-- contract (unused since 0023): checkout_sessions_merchant. No query names an index, and the one
-- above serves the previous release's queries as well, so it may go in the same release.
drop index checkout_sessions_merchant;
