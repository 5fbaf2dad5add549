/**
 * A pay whose processor call fails or outlives its claim never leaves a second charge possible
 * (DESIGN.md §7–8, REL-3). Through the checkout's real pay endpoint, with the processor of the test
 * app wrapped (a fault of the test, never of a production path):
 *  - the processor charged but its answer was lost: the gateway asks by the claim's reference at
 *    once and records the charge — the claim is never released to a new reference;
 *  - the processor and its lookup both fail: the claim stays held for the gateway's sweep;
 *  - the processor answers after the claim timed out and the sweep released the session: the late
 *    approval is reversed and recorded as such, the session stays payable, nothing is charged twice.
 * On PGlite and PostgreSQL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { settleStaleClaims } from '../gateway/payments/claim-sweep.ts';
import type { GatewayDeps } from '../gateway/gateway-call.ts';
import type { Processor } from '../gateway/processor/processor.ts';
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

type AuthorizeCard = Processor['authorizeCard'];

/** Replaces the processor's card authorisation (and optionally its lookup) for this test. */
function wrapProcessor(
  deps: GatewayDeps,
  authorizeCard: (real: AuthorizeCard, req: Parameters<AuthorizeCard>[0]) => ReturnType<AuthorizeCard>,
  lookup?: Processor['lookup'],
) {
  const real = deps.processor;
  deps.processor = new Proxy(real, {
    get(target, prop, receiver) {
      if (prop === 'authorizeCard')
        return (req: Parameters<AuthorizeCard>[0]) => authorizeCard(target.authorizeCard.bind(target), req);
      if (prop === 'lookup' && lookup) return lookup;
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return () => {
    deps.processor = real;
  };
}

describe.each(databaseTargets())('a pay whose processor call fails ($name)', (target) => {
  let w: CheckoutWorld | undefined;
  afterEach(() => w?.close());

  async function session(world: CheckoutWorld, token: string) {
    const { rows } = await world.db.query<{
      status: string;
      claim_reference: string | null;
      attempts: number;
    }>('select status, claim_reference, attempts from checkout_sessions where token = $1', [token]);
    return rows[0]!;
  }

  async function ledger(world: CheckoutWorld, token: string) {
    const { rows } = await world.db.query<{ reference: string; approved: boolean }>(
      `select reference, (result->>'approved')::boolean as approved from processor_ledger
       where reference like 'cs' || (select id from checkout_sessions where token = $1) || '-%' order by reference`,
      [token],
    );
    return rows;
  }

  it('charged, answer lost: looked up by the claim reference at once and recorded, never claimed anew', async () => {
    w = await openCheckoutWorld(await target.open());
    const token = await createSession(w);
    const restore = wrapProcessor(w.t.gateway.deps, async (real, req) => {
      await real(req);
      throw new Error('connection reset after the processor answered');
    });
    const res = await pay(w.app, token, cardBody(), { key: newKey() });
    restore();
    expect(res.json()).toMatchObject({ status: 'succeeded' });
    expect(await session(w, token)).toMatchObject({ status: 'paid', claim_reference: null, attempts: 1 });
    expect(await approvedTransactions(w.db, token)).toBe(1);
    expect((await ledger(w, token)).map((r) => r.reference)).toEqual([expect.stringMatching(/-a1$/)]);
  });

  it('processor and lookup both fail: the claim stays held for the sweep, which settles it', async () => {
    const clock = manualClock();
    w = await openCheckoutWorld(await target.open(), { now: clock.now });
    const token = await createSession(w);
    const deps = w.t.gateway.deps;
    const restore = wrapProcessor(
      deps,
      async (real, req) => {
        await real(req);
        throw new Error('connection reset after the processor answered');
      },
      () => Promise.reject(new Error('processor unreachable')),
    );
    const res = await pay(w.app, token, cardBody(), { key: newKey() });
    restore();
    expect(res.statusCode).toBeGreaterThanOrEqual(500);
    const held = await session(w, token);
    expect(held).toMatchObject({ status: 'open', attempts: 1 });
    expect(held.claim_reference).toMatch(/-a1$/);
    // A retry does not charge under a new reference while the claim is held.
    const retry = await pay(w.app, token, cardBody(), { key: newKey() });
    expect(retry.statusCode).toBe(409);
    expect((await session(w, token)).attempts).toBe(1);

    clock.advance(10 * 60_000);
    const swept = await settleStaleClaims(deps);
    expect(swept.recorded).toEqual([held.claim_reference]);
    expect(await session(w, token)).toMatchObject({ status: 'paid', claim_reference: null });
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });

  it('approved after the claim timed out and the sweep released it: reversed, recorded, session still payable', async () => {
    const clock = manualClock();
    w = await openCheckoutWorld(await target.open(), { now: clock.now });
    const token = await createSession(w);
    const deps = w.t.gateway.deps;
    let sweptMeanwhile: Awaited<ReturnType<typeof settleStaleClaims>> | undefined;
    const restore = wrapProcessor(deps, async (real, req) => {
      // The processor is slow: the claim times out and the sweep finds nothing at the processor yet.
      clock.advance(10 * 60_000);
      sweptMeanwhile = await settleStaleClaims(deps);
      return real(req);
    });
    const res = await pay(w.app, token, cardBody(), { key: newKey() });
    restore();
    expect(sweptMeanwhile?.released).toHaveLength(1);
    expect(res.json()).toMatchObject({ status: 'declined' });
    expect(await session(w, token)).toMatchObject({ status: 'open', claim_reference: null });
    expect(await approvedTransactions(w.db, token)).toBe(0);
    const { rows } = await w.db.query<{ status: string; response_code: string }>(
      `select status, response_code from transactions
       where checkout_session_id = (select id from checkout_sessions where token = $1)`,
      [token],
    );
    expect(rows).toEqual([{ status: 'declined', response_code: '91' }]);
    // The approval was reversed at the processor.
    const entries = await ledger(w, token);
    expect(entries.map((e) => e.reference)).toEqual([
      expect.stringMatching(/-a1$/),
      expect.stringMatching(/-a1-void$/),
    ]);

    // The shopper can pay again, once.
    const again = await pay(w.app, token, cardBody(), { key: newKey() });
    expect(again.json()).toMatchObject({ status: 'succeeded' });
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });
});
