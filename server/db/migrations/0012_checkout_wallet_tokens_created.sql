-- The checkout's pruning deletes wallet credentials a day after they were made (otp.ts pruneOtp).
create index checkout_wallet_tokens_created on checkout_wallet_tokens (created_at);
