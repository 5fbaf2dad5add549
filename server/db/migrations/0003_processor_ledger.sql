-- The processor simulator's ledger (DESIGN.md §12, "Scale-out"; security-requirements.md IDEM-9,
-- REL-3). It stands in for the state an acquirer keeps on its side: every reference it answered, and
-- the answer, so a repeated reference is answered the same and charged once, whichever instance
-- receives it, and a recovery step can ask "was this reference charged?". Never a PAN or CVV: the
-- request digest covers the amount, last four and expiry only.
create table processor_ledger (
  reference text primary key,
  -- 'authorize', 'verify', 'ach_debit', 'capture', 'refund' or 'void'.
  kind text not null,
  -- SHA-256 of what the request asked (kind, amount, last four, expiry, original reference): a reused
  -- reference with a different request is refused rather than answered with someone else's result.
  request_digest text not null,
  -- The ProcessorResult; approvedAmountCents as a digit string.
  result jsonb not null,
  created_at timestamptz not null default now()
);
