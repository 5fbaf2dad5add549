/**
 * Reconciliation (issue 21; server/gateway/payments/reconciliation.ts): the processor's approved
 * charges, the transactions and the paid sessions are checked against each other; what the claim
 * sweep settles is repaired through it, the rest is reported — the gauge
 * `payframe_unreconciled_charges`, a warning in `/readyz`, a log line with the references and no
 * card data. On PGlite and on PostgreSQL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { findDiscrepancies, reconcile } from '../gateway/payments/reconciliation.ts';
import { startReconciliation } from '../gateway/payments/reconciliation-job.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  approvedTransactions,
  type CheckoutWorld,
  cardBody,
  createSession,
  manualClock,
  openCheckoutWorld,
  pay,
} from '../../test/kit/checkout/checkout-world.ts';
import { crashAfterProcessor } from '../../test/kit/checkout/gateway-faults.ts';

/** Past the gateway's claim timeout (60 s: half the default stale time) and the checkout's. */
const PAST_TIMEOUT = 121_000;
const PAN = '4242424242424242';

/** A log that keeps its lines, to read what was said (and what was not). */
function keptLog() {
  const lines: { level: string; details: object; message: string }[] = [];
  return {
    lines,
    warn: (details: object, message: string) => lines.push({ level: 'warn', details, message }),
    error: (details: object, message: string) => lines.push({ level: 'error', details, message }),
  };
}

describe.each(databaseTargets())('reconciliation ($name)', (target) => {
  let w: CheckoutWorld | undefined;
  afterEach(() => w?.close());

  it('paid sessions and their charges agree: nothing to report', async () => {
    const clock = manualClock();
    w = await openCheckoutWorld(await target.open(), { now: clock.now });
    const tokens = [await createSession(w), await createSession(w)];
    for (const token of tokens) expect((await pay(w.app, token, cardBody())).json().status).toBe('succeeded');
    // A decline is a charge the processor did not approve: not one to reconcile.
    const declined = await createSession(w);
    expect((await pay(w.app, declined, cardBody('4000000000000002'))).json().status).toBe('declined');

    // Younger than the claim timeout, a charge may be in the middle of its record: not yet checked.
    expect(await reconcile(w.t.gateway.deps)).toMatchObject({ charges: 0, discrepancies: [] });
    clock.advance(PAST_TIMEOUT);
    expect(await reconcile(w.t.gateway.deps)).toMatchObject({
      charges: 2,
      discrepancies: [],
      repaired: null,
    });
  });

  it('a charge whose record a crash cut off: repaired through the claim sweep, on two instances at once', async () => {
    const clock = manualClock();
    w = await openCheckoutWorld(await target.open(), { now: clock.now });
    const gateway = w.t.gateway.deps;
    const token = await createSession(w);
    const fault = crashAfterProcessor(gateway);
    expect((await pay(w.app, token, cardBody())).statusCode).toBe(500);
    fault.restore();
    const { rows } = await w.db.query<{ id: string; claim_reference: string }>(
      'select id::text, claim_reference from checkout_sessions where token = $1',
      [token],
    );
    const { id: sessionId, claim_reference: reference } = rows[0]!;

    clock.advance(PAST_TIMEOUT);
    // Two instances check at once: one records the charge, neither records it twice.
    const reports = await Promise.all([reconcile(gateway), reconcile(gateway)]);
    expect(reports.flatMap((r) => r.repaired?.recorded ?? [])).toEqual([reference]);
    for (const r of reports) expect(r.discrepancies).toEqual([]);
    expect(await approvedTransactions(w.db, token)).toBe(1);

    // What the first look found, before the repair, named the charge and its session.
    await w.db.query("update checkout_sessions set status = 'open', transaction_id = null where id = $1", [
      sessionId,
    ]);
    await w.db.query('delete from transactions where checkout_session_id = $1', [sessionId]);
    const now = clock.now().getTime();
    const seen = await findDiscrepancies(w.db, gateway.processor, {
      after: new Date(now - 86_400_000),
      before: new Date(now),
    });
    expect(seen.discrepancies).toEqual([{ problem: 'charge_unrecorded', reference, sessionId }]);
  });

  it('what no sweep can mend is reported: the gauge, /readyz, a log line with references and no card data', async () => {
    const clock = manualClock();
    w = await openCheckoutWorld(await target.open(), { now: clock.now });
    const gateway = w.t.gateway.deps;
    // A direct sale cut off between the processor and its record: no claim keeps it.
    await gateway.processor.authorizeCard({
      reference: 'tx-cut-off-1',
      pan: PAN,
      expMonth: 12,
      expYear: 2030,
      amountCents: 1500n,
    });
    // A session marked paid without its transaction.
    const token = await createSession(w);
    expect((await pay(w.app, token, cardBody())).json().status).toBe('succeeded');
    const { rows } = await w.db.query<{ id: string; transaction_id: string }>(
      'select id::text, transaction_id::text from checkout_sessions where token = $1',
      [token],
    );
    const session = rows[0]!;
    await w.db.query("update transactions set status = 'declined' where id = $1", [session.transaction_id]);

    clock.advance(PAST_TIMEOUT);
    const log = keptLog();
    const stop = startReconciliation(gateway, w.t.gateway.reconciliation, log, 3_600_000);
    await stop(); // the check at start, awaited

    const expected = [
      { problem: 'charge_unrecorded', reference: 'tx-cut-off-1', sessionId: null },
      { problem: 'paid_session_mismatch', sessionId: session.id, transactionIds: [] },
    ];
    expect(w.t.gateway.reconciliation.last?.discrepancies).toEqual(expected);
    const line = log.lines.find((l) => l.message === 'reconciliation: unreconciled charges');
    expect(line?.details).toEqual({ unreconciled: 2, discrepancies: expected });
    expect(JSON.stringify(log.lines)).not.toContain(PAN);
    expect(JSON.stringify(log.lines)).not.toContain(PAN.slice(-4));

    const metrics = await w.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(metrics.body).toMatch(/^payframe_unreconciled_charges 2$/m);
    const ready = await w.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({
      status: 'ok',
      warnings: { reconciliation: { unreconciledCharges: 2 } },
    });

    // Mended by a person: the next check says so everywhere.
    await w.db.query("update transactions set status = 'approved' where id = $1", [session.transaction_id]);
    await w.db.query(
      `insert into transactions (merchant_id, kind, method, status, amount, approved_amount, response_code,
         response_message, settlement_status, processor_reference)
       values ($1, 'sale', 'card', 'approved', 15.00, 15.00, '00', 'Approved', 'Pending', 'tx-cut-off-1')`,
      [w.merchant.id],
    );
    await startReconciliation(gateway, w.t.gateway.reconciliation, log, 3_600_000)();
    expect(w.t.gateway.reconciliation.last?.discrepancies).toEqual([]);
    expect((await w.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' })).body).toMatch(
      /^payframe_unreconciled_charges 0$/m,
    );
    expect((await w.app.inject('/readyz')).json().warnings).toBeUndefined();
  });
});
