/**
 * Issue 21: a charge the processor approved is never left unrecorded, even when the shopper walks
 * away after a crash. The gateway's process "dies" between the processor's approval and its record
 * (a fault hook of this test: the gateway's next database transaction throws, so nothing after the
 * approval is committed), nobody pays again, and then the checkout's recovery and the gateway's own
 * claim sweep (server/gateway/payments/claim-sweep.ts) settle it: session paid, one transaction, the
 * checkout's payment and webhook, the attempt succeeded. On PGlite and on PostgreSQL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { settleClaimsAtStart } from '../gateway/index.ts';
import { type ClaimSweepResult, settleStaleClaims } from '../gateway/payments/claim-sweep.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  approvedTransactions,
  type CheckoutWorld,
  cardBody,
  createSession,
  manualClock,
  newKey,
  openCheckoutWorld,
  pay,
} from '../../test/kit/checkout/checkout-world.ts';
import { crashAfterProcessor } from '../../test/kit/checkout/gateway-faults.ts';

/** The checkout's stale time here; the gateway's claim timeout is half the configured default (60 s). */
const STALE_MS = 60_000;
const PAST_BOTH = 61_000;

describe.each(databaseTargets())('the gateway settles its own in-doubt claims ($name)', (target) => {
  let w: CheckoutWorld | undefined;
  afterEach(() => w?.close());

  async function sessionRow(world: CheckoutWorld, token: string) {
    const { rows } = await world.db.query<{
      status: string;
      claim_reference: string | null;
      claim_charge: unknown;
      transaction_id: string | null;
    }>(
      'select status, claim_reference, claim_charge, transaction_id from checkout_sessions where token = $1',
      [token],
    );
    return rows[0]!;
  }

  async function attemptStates(world: CheckoutWorld, token: string) {
    const { rows } = await world.db.query<{ state: string }>(
      'select state from checkout_attempts where session_token = $1 order by id',
      [token],
    );
    return rows.map((r) => r.state);
  }

  it('approved, then the gateway died before its record; the shopper walked away: recorded, announced, one charge', async () => {
    const clock = manualClock();
    w = await openCheckoutWorld(await target.open(), { now: clock.now, staleAttemptMs: STALE_MS });
    const gateway = w.t.gateway.deps;
    const token = await createSession(w, { webhookUrl: 'https://hooks.shop.example/payframe' });
    const fault = crashAfterProcessor(gateway);
    const key = newKey();
    const cut = await pay(w.app, token, cardBody(), { key });
    fault.restore();
    expect(fault.state.crashed).toBe(1);
    expect(cut.statusCode).toBe(500); // the outcome is unknown to the shopper, who closes the tab

    // What the crash left: the processor charged, the gateway recorded nothing, its claim is held.
    const left = await sessionRow(w, token);
    expect(left).toMatchObject({ status: 'open', transaction_id: null });
    expect(left.claim_reference).toMatch(/^cs\d+-a1$/);
    expect(left.claim_charge).toMatchObject({ kind: 'sale', method: 'card', source: 'hosted' });
    const reference = left.claim_reference!;
    expect((await gateway.processor.lookup(reference))?.approved).toBe(true);
    expect(await approvedTransactions(w.db, token)).toBe(0);
    expect(await attemptStates(w, token)).toEqual(['started']);

    // Nothing is settled before the claim and the attempt are stale.
    expect(await settleStaleClaims(gateway)).toEqual({ recorded: [], released: [], unresolved: [] });
    clock.advance(PAST_BOTH);

    // The checkout's recovery runs first: the gateway still holds the claim, so it does not
    // conclude "not charged" (before issue 21 a stale claim read as no payment in progress, and the
    // attempt was failed here while the charge stayed unrecorded).
    expect(await w.checkout.recoverAttempts()).toEqual({ succeeded: 0, failed: 0, unknown: 1 });
    expect(await attemptStates(w, token)).toEqual(['started']);

    // The gateway's sweep settles the claim from the processor's record.
    expect(await settleStaleClaims(gateway)).toEqual({ recorded: [reference], released: [], unresolved: [] });
    const paid = await sessionRow(w, token);
    expect(paid).toMatchObject({ status: 'paid', claim_reference: null, claim_charge: null });
    const { rows: tx } = await w.db.query<{
      id: string;
      kind: string;
      method: string;
      amount: string;
      card_id: string | null;
      processor_reference: string;
      source: string;
      name_on_card: string;
    }>(
      `select id, kind, method, amount, card_id, processor_reference, source, name_on_card
       from transactions where checkout_session_id = (select id from checkout_sessions where token = $1)`,
      [token],
    );
    expect(tx).toHaveLength(1);
    expect(tx[0]).toMatchObject({
      id: paid.transaction_id,
      kind: 'sale',
      method: 'card',
      amount: '24.99',
      processor_reference: reference,
      source: 'hosted',
      name_on_card: 'Ada Lovelace',
    });
    expect(tx[0]!.card_id).toBeTruthy();

    // The checkout's next recovery records the payment with its webhook.
    expect(await w.checkout.recoverAttempts()).toEqual({ succeeded: 1, failed: 0, unknown: 0 });
    expect(await attemptStates(w, token)).toEqual(['succeeded']);
    const payments = await w.db.query<{ transaction_id: string }>(
      'select transaction_id from checkout_payments where session_token = $1',
      [token],
    );
    expect(payments.rows).toEqual([{ transaction_id: paid.transaction_id }]);
    const events = await w.db.query<{ type: string }>(
      'select type from checkout_webhook_events where session_token = $1',
      [token],
    );
    expect(events.rows).toEqual([{ type: 'payment.succeeded' }]);

    // The ledger and the transactions agree: one charge for the session, recorded once.
    const { rows: ledger } = await w.db.query<{ reference: string }>(
      "select reference from processor_ledger where reference like $1 and (result->>'approved')::boolean",
      [`${reference.replace(/-a\d+$/, '')}-%`],
    );
    expect(ledger.map((r) => r.reference)).toEqual([reference]);

    // A shopper who comes back sees the receipt; nothing is charged again, a second sweep finds nothing.
    const back = await pay(w.app, token, cardBody(), { key });
    expect(back.json()).toMatchObject({
      status: 'succeeded',
      receipt: { transactionId: paid.transaction_id },
    });
    expect(await settleStaleClaims(gateway)).toEqual({ recorded: [], released: [], unresolved: [] });
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });

  it('a restarted instance settles at once what its predecessor left, and nothing another process holds', async () => {
    const clock = manualClock();
    w = await openCheckoutWorld(await target.open(), { now: clock.now, staleAttemptMs: STALE_MS });
    const gateway = w.t.gateway.deps;
    const checkout = w.checkout.deps;
    const as = (owner: string) => {
      gateway.instanceOwner = owner;
      checkout.instanceOwner = owner;
    };
    // Pays cut after the processor approved: by instance a's first process, and by instance b.
    const cut: Record<string, string> = {};
    for (const owner of ['a.first', 'b.first']) {
      as(owner);
      const token = await createSession(w);
      const fault = crashAfterProcessor(gateway);
      expect((await pay(w.app, token, cardBody(), { key: newKey() })).statusCode).toBe(500);
      fault.restore();
      cut[owner] = token;
    }
    const { rows: held } = await w.db.query<{ token: string; claim_owner: string; owner: string }>(
      `select s.token, s.claim_owner, a.owner from checkout_sessions s
       join checkout_attempts a on a.session_token = s.token where s.token = any($1) order by s.id`,
      [Object.values(cut)],
    );
    expect(held).toEqual([
      { token: cut['a.first'], claim_owner: 'a.first', owner: 'a.first' },
      { token: cut['b.first'], claim_owner: 'b.first', owner: 'b.first' },
    ]);

    // Instance a restarts a moment later, long before any timeout: its predecessor's claim and attempt
    // are settled before it serves; b's, perhaps still live, wait for their timeouts.
    as('a.second');
    clock.advance(1);
    const settled: string[] = [];
    const report = {
      onSettled: (r: ClaimSweepResult) => settled.push(...r.recorded, ...r.released),
      onError: (err: unknown) => {
        throw err;
      },
    };
    await settleClaimsAtStart(gateway, report, 'a');
    expect(settled).toEqual([expect.stringMatching(/^cs\d+-a1$/)]);
    expect(await w.checkout.recoverAttempts({ predecessorsOf: 'a', olderThanMs: 0 })).toEqual({
      succeeded: 1,
      failed: 0,
      unknown: 0,
    });
    expect(await sessionRow(w, cut['a.first']!)).toMatchObject({ status: 'paid', claim_reference: null });
    expect(await attemptStates(w, cut['a.first']!)).toEqual(['succeeded']);
    expect(await sessionRow(w, cut['b.first']!)).toMatchObject({ status: 'open' });
    expect((await sessionRow(w, cut['b.first']!)).claim_reference).toMatch(/^cs\d+-a1$/);
    expect(await attemptStates(w, cut['b.first']!)).toEqual(['started']);
    expect(await approvedTransactions(w.db, cut['a.first']!)).toBe(1);
    expect(await approvedTransactions(w.db, cut['b.first']!)).toBe(0);

    // An owner never outlives its claim: b's claim taken over by a previous release (which writes no
    // owner) is not b's any more, and b's next process leaves it alone.
    await w.db.query(
      `update checkout_sessions set attempts = attempts + 1,
         claim_reference = 'cs' || id || '-a' || (attempts + 1), claimed_at = $2 where token = $1`,
      [cut['b.first'], clock.now()],
    );
    expect(
      (await w.db.query('select claim_owner from checkout_sessions where token = $1', [cut['b.first']])).rows,
    ).toEqual([{ claim_owner: null }]);
    as('b.second');
    settled.length = 0;
    await settleClaimsAtStart(gateway, report, 'b');
    expect(settled).toEqual([]);
  });

  it('died before the processor charged anything: the claim is released, the same key then pays once', async () => {
    const clock = manualClock();
    w = await openCheckoutWorld(await target.open(), { now: clock.now, staleAttemptMs: STALE_MS });
    const gateway = w.t.gateway.deps;
    const token = await createSession(w);
    // The processor is never reached (nothing in its ledger), and the gateway dies right there.
    const fault = crashAfterProcessor(gateway, () => ({
      approved: false,
      responseCode: '05',
      responseMessage: 'Do not honor',
      approvedAmountCents: 0n,
    }));
    const key = newKey();
    expect((await pay(w.app, token, cardBody(), { key })).statusCode).toBe(500);
    fault.restore();
    const reference = (await sessionRow(w, token)).claim_reference!;
    expect(await gateway.processor.lookup(reference)).toBeNull();

    clock.advance(PAST_BOTH);
    expect(await settleStaleClaims(gateway)).toEqual({ recorded: [], released: [reference], unresolved: [] });
    expect(await sessionRow(w, token)).toMatchObject({
      status: 'open',
      claim_reference: null,
      claim_charge: null,
    });
    expect(await w.checkout.recoverAttempts()).toEqual({ succeeded: 0, failed: 1, unknown: 0 });
    const retry = await pay(w.app, token, cardBody(), { key });
    expect(retry.json().status).toBe('succeeded');
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });

  it('sweeps on several instances at once settle each claim once', async () => {
    const clock = manualClock();
    w = await openCheckoutWorld(await target.open(), { now: clock.now, staleAttemptMs: STALE_MS });
    const gateway = w.t.gateway.deps;
    const tokens = [await createSession(w), await createSession(w), await createSession(w)];
    for (const token of tokens) {
      const fault = crashAfterProcessor(gateway);
      expect((await pay(w.app, token, cardBody())).statusCode).toBe(500);
      fault.restore();
    }
    clock.advance(PAST_BOTH);
    const passes = await Promise.all([1, 2, 3].map(() => settleStaleClaims(gateway)));
    expect(passes.flatMap((p) => p.recorded)).toHaveLength(3);
    expect(passes.flatMap((p) => [...p.released, ...p.unresolved])).toEqual([]);
    for (const token of tokens) {
      expect(await approvedTransactions(w.db, token)).toBe(1);
      expect((await sessionRow(w, token)).status).toBe('paid');
    }
  });
});
