-- The brand of the card that paid (issue 14 §3), as the gateway's CardBrand field says it ('Visa',
-- 'Mastercard'…): the receipt shows "Visa ••4242" from it, also on a replay or a reload. Null for a
-- bank account, and for payments recorded before it was kept (their receipt says "Card").
alter table checkout_payments add column card_brand text;
