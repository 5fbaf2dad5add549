/**
 * Paying a checkout session at most once (DESIGN.md §7–8; security-requirements.md REL-2, REL-3):
 * the attempt's processor reference is committed on the session before the processor is called. A
 * second attempt while one is in flight is refused; an attempt cut short (a crash between the
 * processor's answer and the record) is found by looking its reference up at the processor, and
 * recorded — never charged again under a new reference.
 *
 * The claim is one statement that also reads the merchant (`update … from merchants … returning`):
 * the common case costs one round trip. Only a session that cannot be claimed at once is read again
 * to say why.
 */
import { lastStatement, type Queryable } from '../../db/database.ts';
import type { GatewayDeps } from '../gateway-call.ts';
import { MERCHANT_JOIN_COLUMNS } from '../merchants/merchant-store.ts';
import { MERCHANT_WEBHOOK_URL_COLUMN } from '../merchants/webhook-settings.ts';
import { isSessionToken } from '../sessions/checkout-session-store.ts';
import { readSessionRecord, recordOfRow, type SessionRecord } from '../sessions/session-record.ts';

import { CLAIM_TIMEOUT_MS } from './claim-timeout.ts';
import type { ClaimCharge } from './sale-steps.ts';

export { CLAIM_TIMEOUT_MS };

export type Claim =
  | { kind: 'claimed'; reference: string; record: SessionRecord }
  /**
   * The claim of an attempt cut short: its reference is looked up at the processor (outside any
   * transaction) — charged: recorded, not charged again; not charged: `reclaimStale`.
   */
  | { kind: 'stale'; reference: string; record: SessionRecord }
  /** No such session (or not the acting merchant's). */
  | { kind: 'not_found' }
  /** Paid, expired or canceled: `record.session.status` says which. */
  | { kind: 'unavailable'; record: SessionRecord }
  /** Another attempt holds the claim and is not stale. */
  | { kind: 'in_progress'; record: SessionRecord };

/**
 * Claims the session for one payment attempt, inside the caller's transaction (which commits the
 * claim before the processor is called). `merchantId`: the acting merchant, or null for the
 * checkout server (any merchant's session).
 */
export async function claimSession(
  tx: Queryable,
  deps: GatewayDeps,
  token: string,
  merchantId: string | null,
): Promise<Claim> {
  if (!isSessionToken(token)) return { kind: 'not_found' };
  const now = deps.now();
  const { rows } = await tx.query(
    `update checkout_sessions s set attempts = s.attempts + 1,
       claim_reference = 'cs' || s.id || '-a' || (s.attempts + 1), claimed_at = $2, claim_owner = $4
     from merchants m
     where s.token = $1 and m.id = s.merchant_id and s.status = 'open' and s.expires_at > $2
       and s.claim_reference is null and ($3::bigint is null or s.merchant_id = $3)
     returning s.*, ${MERCHANT_JOIN_COLUMNS}, ${MERCHANT_WEBHOOK_URL_COLUMN}`,
    [token, now, merchantId, deps.instanceOwner ?? null],
  );
  if (rows[0]) {
    return {
      kind: 'claimed',
      reference: rows[0].claim_reference as string,
      record: recordOfRow(deps, rows[0]),
    };
  }
  const record = await readSessionRecord(tx, deps, token);
  if (!record || (merchantId !== null && record.session.merchantId !== merchantId))
    return { kind: 'not_found' };
  if (record.session.status !== 'open') return { kind: 'unavailable', record };
  // FOR NO KEY UPDATE, not FOR UPDATE: the attempt holding the claim records its transaction row,
  // whose foreign key takes a KEY SHARE lock on this session row, and then ends the claim on it.
  // FOR UPDATE would queue behind that KEY SHARE holding the row's lock, and the claim's end would
  // then wait for this transaction: a deadlock between two racing pays on PostgreSQL.
  const { rows: claims } = await tx.query<{ claim_reference: string | null; claimed_at: Date | null }>(
    'select claim_reference, claimed_at from checkout_sessions where id = $1 for no key update',
    [record.session.id],
  );
  const held = claims[0];
  if (!held?.claim_reference || !held.claimed_at) return { kind: 'in_progress', record }; // released just now
  if (now.getTime() - held.claimed_at.getTime() < (deps.claimTimeoutMs ?? CLAIM_TIMEOUT_MS))
    return { kind: 'in_progress', record };

  return { kind: 'stale', reference: held.claim_reference, record };
}

/**
 * Takes over a claim whose attempt was cut short and found uncharged at the processor: a new
 * reference, unless another caller took it over first.
 */
export async function reclaimStale(
  tx: Queryable,
  deps: GatewayDeps,
  record: SessionRecord,
  staleReference: string,
): Promise<Extract<Claim, { kind: 'claimed' | 'in_progress' }>> {
  const { rows } = await tx.query<{ claim_reference: string }>(
    `update checkout_sessions set attempts = attempts + 1,
       claim_reference = 'cs' || id || '-a' || (attempts + 1), claimed_at = $2, claim_owner = $4
     where id = $1 and claim_reference = $3 returning claim_reference`,
    [record.session.id, deps.now(), staleReference, deps.instanceOwner ?? null],
  );
  return rows[0]
    ? { kind: 'claimed', reference: rows[0].claim_reference, record }
    : { kind: 'in_progress', record };
}

/**
 * Keeps on the claim what its attempt charges, as the last statement of the claim's transaction (sent
 * with its COMMIT): an attempt cut short after the processor approved is then recorded by the
 * gateway's sweep (claim-sweep.ts) as it would have recorded it itself.
 */
export async function holdClaimCharge(q: Queryable, sessionId: string, charge: ClaimCharge): Promise<void> {
  await lastStatement(q)('update checkout_sessions set claim_charge = $2 where id = $1', [
    sessionId,
    JSON.stringify(charge),
  ]);
}

/** Ends the attempt: the session is paid (approved) or open again for another attempt. */
export async function releaseClaim(q: Queryable, sessionId: string, paidBy: string | null): Promise<void> {
  if (paidBy) {
    await q.query(
      `update checkout_sessions set status = 'paid', transaction_id = $2,
         claim_reference = null, claimed_at = null, claim_charge = null
       where id = $1`,
      [sessionId, paidBy],
    );
  } else {
    await q.query(
      'update checkout_sessions set claim_reference = null, claimed_at = null, claim_charge = null where id = $1',
      [sessionId],
    );
  }
}

/**
 * What paid the session, when something did: a transaction by its id, or the row inserted for the
 * merchant under the claim's reference earlier in the same transaction (so the insert and the
 * claim's end can be sent together).
 */
export type PaidBy = { transactionId: string } | { insertedFor: string } | null;

/**
 * Ends this attempt's own claim, guarded by its reference: false when the claim is no longer this
 * attempt's (the gateway's sweep settled it while the processor was slow, and another attempt may
 * have claimed the session since), and then nothing is changed.
 */
export async function endOwnClaim(
  q: Queryable,
  sessionId: string,
  reference: string,
  paidBy: PaidBy,
): Promise<boolean> {
  const { rows } = await q.query(
    `update checkout_sessions set status = case when $3::boolean then 'paid' else status end,
       transaction_id = case when not $3::boolean then transaction_id
         else coalesce($4::bigint, (select t.id from transactions t
                                    where t.processor_reference = $2 and t.merchant_id = $5 order by t.id limit 1)) end,
       claim_reference = null, claimed_at = null, claim_charge = null
     where id = $1 and claim_reference = $2 returning id`,
    [
      sessionId,
      reference,
      paidBy !== null,
      paidBy && 'transactionId' in paidBy ? paidBy.transactionId : null,
      paidBy && 'insertedFor' in paidBy ? paidBy.insertedFor : null,
    ],
  );
  return rows.length > 0;
}
