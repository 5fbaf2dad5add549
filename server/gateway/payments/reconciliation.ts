/**
 * Reconciliation (issue 21): the invariant of "pay exactly once" is checked, not assumed —
 *   - every charge the processor approved (card authorisation or ACH debit, its report:
 *     `Processor.approvedCharges`) has exactly one transaction row naming its reference;
 *   - every paid checkout session has exactly one approved sale or auth, the one it names, and no
 *     approved sale or auth belongs to a session that is not paid.
 * It reads a window: charges recorded between `LOOKBACK_MS` ago and one claim timeout ago (an
 * attempt records its charge within the timeout, so a younger one is in flight, not missing), paid
 * sessions created in the same window.
 *
 * A charge without a transaction whose claim was taken within the timeout (its attempt, or a sweep's
 * lease) is being recorded, and not counted. One whose session's claim still holds it older is what the claim
 * sweep settles: it is repaired here by that sweep (claim-sweep.ts, for those sessions only; the same
 * lease and the same reference-guarded record, so it is safe beside other instances' sweeps and
 * checks), then checked again. What remains is reported — the metric `payframe_unreconciled_charges`,
 * a warning in `/readyz`, a log line with the references (never card data) — for a person to look at:
 * nothing here charges, voids or deletes.
 */
import type { Queryable } from '../../db/database.ts';
import type { GatewayDeps } from '../gateway-call.ts';
import { CLAIM_TIMEOUT_MS } from './claim-timeout.ts';
import { type ClaimSweepResult, settleStaleClaims } from './claim-sweep.ts';

/** How far back a check looks (sessions live at most 7 days; a day of charges is checked each time). */
export const RECONCILIATION_LOOKBACK_MS = 24 * 60 * 60 * 1000;
/** How often each gateway instance checks (and once at start). */
export const RECONCILIATION_INTERVAL_MS = 60_000;
/** Most charges one check reads; a longer window is checked by its oldest charges first. */
const MAX_CHARGES = 10_000;

export type Discrepancy =
  /** The processor approved it; no transaction names its reference. */
  | { problem: 'charge_unrecorded'; reference: string; sessionId: string | null }
  /** More than one transaction names one approved charge. */
  | { problem: 'charge_recorded_twice'; reference: string; transactionIds: string[] }
  /** A paid session without exactly one approved transaction, or naming another one. */
  | { problem: 'paid_session_mismatch'; sessionId: string; transactionIds: string[] }
  /** An approved sale or auth of a session that is not paid. */
  | { problem: 'approved_on_unpaid_session'; sessionId: string; transactionIds: string[] };

export interface ReconciliationReport {
  checkedAt: Date;
  /** Approved charges read from the processor. */
  charges: number;
  discrepancies: Discrepancy[];
  /** What the claim sweep settled for this check (references), before the second look. */
  repaired: ClaimSweepResult | null;
}

const SESSION_REFERENCE = /^cs(\d+)-a\d+$/;

function window(deps: GatewayDeps) {
  const now = deps.now().getTime();
  return {
    after: new Date(now - RECONCILIATION_LOOKBACK_MS),
    before: new Date(now - (deps.claimTimeoutMs ?? CLAIM_TIMEOUT_MS)),
  };
}

/** The discrepancies of the window, and the count of charges read. Reads only. */
export async function findDiscrepancies(
  q: Queryable,
  processor: Pick<GatewayDeps['processor'], 'approvedCharges'>,
  range: { after: Date; before: Date },
): Promise<{ charges: number; discrepancies: Discrepancy[] }> {
  const charges = await processor.approvedCharges({ ...range, limit: MAX_CHARGES });
  const references = charges.map((c) => c.reference);
  const { rows: recorded } = await q.query<{ reference: string; ids: string[] }>(
    `select processor_reference as reference, array_agg(id::text order by id) as ids from transactions
     where processor_reference = any($1::text[]) group by processor_reference`,
    [references],
  );
  const byReference = new Map(recorded.map((r) => [r.reference, r.ids]));
  // A claim that still holds the reference and was taken (or leased by a sweep) within the timeout,
  // or whose row a sweep is taking right now (locked): its attempt, or another instance's sweep, is
  // recording it. Only a claim older than the timeout that nobody holds is a discrepancy.
  const missing = references.filter((r) => !byReference.has(r));
  const { rows: held } = await q.query<{ reference: string }>(
    'select claim_reference as reference from checkout_sessions where claim_reference = any($1::text[])',
    [missing],
  );
  const { rows: idle } = await q.query<{ reference: string }>(
    `select claim_reference as reference from checkout_sessions
     where claim_reference = any($1::text[]) and claimed_at <= $2 for update skip locked`,
    [held.map((r) => r.reference), range.before],
  );
  const settling = held.filter((h) => !idle.some((i) => i.reference === h.reference));
  const inFlight = new Set(settling.map((r) => r.reference));
  const discrepancies: Discrepancy[] = [];
  for (const { reference } of charges) {
    const ids = byReference.get(reference) ?? [];
    if (ids.length === 0 && inFlight.has(reference)) continue;
    if (ids.length === 0) {
      discrepancies.push({
        problem: 'charge_unrecorded',
        reference,
        sessionId: SESSION_REFERENCE.exec(reference)?.[1] ?? null,
      });
    } else if (ids.length > 1) {
      discrepancies.push({ problem: 'charge_recorded_twice', reference, transactionIds: ids });
    }
  }
  const { rows: sessions } = await q.query<{ id: string; paid: boolean; ids: string[] }>(
    `select s.id::text as id, s.status = 'paid' as paid,
            coalesce(array_agg(t.id::text order by t.id) filter (where t.id is not null), '{}') as ids
     from checkout_sessions s
     left join transactions t on t.checkout_session_id = s.id and t.status = 'approved' and t.kind in ('sale', 'auth')
     where s.status = 'paid' and s.created_at >= $1 and s.created_at < $2
     group by s.id
     having count(t.id) <> 1 or not bool_or(t.id = s.transaction_id)
     union all
     select s.id::text, false, array_agg(t.id::text order by t.id)
     from transactions t join checkout_sessions s on s.id = t.checkout_session_id
     where t.status = 'approved' and t.kind in ('sale', 'auth') and s.status <> 'paid'
       and t.created_at >= $1 and t.created_at < $2
     group by s.id`,
    [range.after, range.before],
  );
  for (const s of sessions) {
    discrepancies.push({
      problem: s.paid ? 'paid_session_mismatch' : 'approved_on_unpaid_session',
      sessionId: s.id,
      transactionIds: s.ids,
    });
  }
  return { charges: charges.length, discrepancies };
}

/**
 * One check: finds the discrepancies, lets the claim sweep settle those it settles (a held claim on
 * an unrecorded charge), and reports what is left.
 */
export async function reconcile(
  deps: GatewayDeps,
  options: { onError?: (err: unknown, reference: string) => void } = {},
): Promise<ReconciliationReport> {
  const checkedAt = deps.now();
  const range = window(deps);
  let found = await findDiscrepancies(deps.db, deps.processor, range);
  const unrecorded = found.discrepancies.flatMap((d) =>
    d.problem === 'charge_unrecorded' && d.sessionId ? [d.sessionId] : [],
  );
  let repaired: ClaimSweepResult | null = null;
  if (unrecorded.length > 0) {
    repaired = await settleStaleClaims(deps, {
      sessionIds: unrecorded,
      limit: unrecorded.length,
      ...(options.onError ? { onError: options.onError } : {}),
    });
    // Again also when this sweep settled nothing: another instance's may have, or be at it.
    found = await findDiscrepancies(deps.db, deps.processor, range);
  }
  return { checkedAt, charges: found.charges, discrepancies: found.discrepancies, repaired };
}
