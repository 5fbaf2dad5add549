-- Where the shopper goes back to the store without paying (issue 14 §1): the hosted page's
-- "← Back to {merchant}" link, before paying and on the canceled screen. Same rules as return_url
-- (https, or http for localhost; one of the merchant's registered origins). Null: the link goes to
-- the return URL's origin, else there is none.
alter table checkout_sessions add column cancel_url text;
