-- The merchant's checkout settings for receipts, links and the postal code
-- (docs/merchant-guide.md "Checkout settings"), and the receipt e-mails waiting to be sent.
-- Expand only: new nullable columns, new columns with defaults, a new table; the previous release
-- neither reads nor writes any of them.
--
-- terms_url, privacy_url: the merchant's terms of sale and privacy policy (https, checked as the
--   logo URL is), linked in the payment page's footer; null: no link.
-- postal_code_required: the card form asks for the billing postal code and the processor checks it
--   (AVS); off by default, and then the address is not checked.
-- receipt_email: a receipt e-mail goes to the shopper after an approved payment; on by default.
alter table merchants
  add column terms_url text,
  add column privacy_url text,
  add column postal_code_required boolean not null default false,
  add column receipt_email boolean not null default true;

-- Receipt e-mails to send, written in the same transaction that records the payment (the outbox
-- pattern of checkout_webhook_events), and sent by the notifier from here: a process killed between
-- the two sends it after its restart (server/notify/receipt-queue.ts), and `dedupe_key` (one receipt per payment and recipient)
-- keeps a second record of the same payment from queuing a second receipt. The message is stored
-- as it will be sent, in the shopper's language, with at most the last four digits of a card or
-- account (the notifier refuses any text holding a card number).
create table receipt_emails (
  id bigint generated always as identity primary key,
  dedupe_key text not null unique,
  merchant_id bigint not null,
  recipient text not null,
  subject text not null,
  body_text text not null,
  body_html text,
  state text not null default 'pending' check (state in ('pending', 'sent', 'refused')),
  attempts int not null default 0,
  next_attempt_at timestamptz not null,
  -- Taken by an instance sending it over SMTP until then; after it, another may send it.
  lease_until timestamptz,
  sent_at timestamptz,
  last_error text,
  created_at timestamptz not null
);
create index receipt_emails_due on receipt_emails (next_attempt_at) where state = 'pending';
