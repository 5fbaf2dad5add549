-- The vault's card row is shared by every merchant and shopper who uses the same card number and
-- expiry, so it holds nothing of theirs (issue 13 §13): the name on a card travels with what it was
-- sent for — the transaction (transactions.name_on_card), the merchant's token (card_tokens, below),
-- its payment profile, its recurring schedule, the shopper's wallet entry. Before, the first name a
-- card was stored with was kept there and shown to every later merchant.
--
-- cards.name_on_card is emptied and no longer read or written; the column stays, so an instance of
-- the previous version keeps working during a rolling upgrade (what it writes there is never read).
update cards set name_on_card = null where name_on_card is not null;

-- The name a merchant sent when it made a token, for its later SaveCardID payments.
alter table card_tokens add column name_on_card text;
