-- The merchant's checkout settings (issue 14 §9, §3), read by the hosted page through
-- GetCheckoutSession (ReturnMode, NameOnCardRequired):
-- return_mode: after a successful payment the page goes straight back to the ReturnUrl
--   ('immediate', the default) or keeps the receipt until the shopper chooses "Return to …"
--   ('confirmation').
-- name_on_card_required: the card form asks for the name on the card, and a payment from the
--   checkout without one is refused (default off, as Stripe's Payment Element).
alter table merchants add column return_mode text not null default 'immediate'
  check (return_mode in ('immediate', 'confirmation'));
alter table merchants add column name_on_card_required boolean not null default false;
