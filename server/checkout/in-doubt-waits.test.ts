/**
 * Issue 21, shorter waits around a pay cut short between the processor's approval and the gateway's
 * record (the fault hook of test/kit/checkout/gateway-faults.ts): a 409's Retry-After is true (the attempt's
 * or the claim's own time, not a constant); at the start of the one process a PGlite database admits,
 * the claim and the attempt are settled at once; a merchant's cancel answers the verdict; a key left
 * in flight by a request that never started its attempt is freed once stale. On PGlite and PostgreSQL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { settleClaimsAtStart } from '../gateway/index.ts';
import { settleStaleClaims } from '../gateway/payments/claim-sweep.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { claimKey, fingerprintOf } from './idempotency.ts';
import { PAY_ENDPOINT } from './recovery.ts';
import {
  approvedTransactions,
  CHECKOUT_SECRET,
  type CheckoutWorld,
  cardBody,
  createSession,
  manualClock,
  newKey,
  openCheckoutWorld,
  pay,
} from '../../test/kit/checkout/checkout-world.ts';
import { crashAfterProcessor } from '../../test/kit/checkout/gateway-faults.ts';

/** The checkout's stale time here (shorter than the gateway's claim timeout, 20 s by default). */
const STALE_MS = 10_000;
const quiet = { onSettled: () => {}, onError: () => {} };

describe.each(databaseTargets())('waits for an in-doubt pay ($name)', (target) => {
  let w: CheckoutWorld | undefined;
  afterEach(() => w?.close());

  async function cutShort(world: CheckoutWorld, webhookUrl?: string) {
    const token = await createSession(world, webhookUrl ? { webhookUrl } : {});
    const fault = crashAfterProcessor(world.t.gateway.deps);
    const key = newKey();
    expect((await pay(world.app, token, cardBody(), { key })).statusCode).toBe(500);
    fault.restore();
    return { token, key };
  }

  it("a 409's Retry-After counts down the attempt's, then the claim's own time", async () => {
    const clock = manualClock();
    w = await openCheckoutWorld(await target.open(), { now: clock.now, staleAttemptMs: STALE_MS });
    const { token, key } = await cutShort(w);

    clock.advance(4_000);
    const sameKey = await pay(w.app, token, cardBody(), { key });
    expect(sameKey.statusCode).toBe(409);
    expect(sameKey.headers['retry-after']).toBe('7'); // the attempt turns stale 10 s after it started
    const otherKey = await pay(w.app, token, cardBody());
    expect(otherKey.statusCode).toBe(409);
    expect(otherKey.headers['retry-after']).toBe('7');

    // Stale at the checkout, yet the gateway holds its claim (20 s, then a sweep within 10 s more):
    // recovery waits, and the answer says until when.
    clock.advance(8_000);
    const waiting = await pay(w.app, token, cardBody(), { key });
    expect(waiting.statusCode).toBe(409);
    expect(waiting.headers['retry-after']).toBe('18');

    clock.advance(18_000);
    expect((await settleStaleClaims(w.t.gateway.deps)).recorded).toHaveLength(1);
    const receipt = await pay(w.app, token, cardBody(), { key });
    expect(receipt.json()).toMatchObject({ status: 'succeeded' });
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });

  it('at start, the claims and attempts a crash left are settled at once, not after the stale time', async () => {
    const clock = manualClock();
    w = await openCheckoutWorld(await target.open(), { now: clock.now, staleAttemptMs: STALE_MS });
    const { token, key } = await cutShort(w, 'https://hooks.shop.example/payframe');
    // A moment later (not the stale time): what the process that died left is settled by the one
    // that starts.
    clock.advance(1);
    const settled: string[] = [];
    await settleClaimsAtStart(w.t.gateway.deps, { ...quiet, onSettled: (r) => settled.push(...r.recorded) });
    expect(settled).toHaveLength(1);
    expect(await w.checkout.recoverAttempts({ olderThanMs: 0 })).toEqual({
      succeeded: 1,
      failed: 0,
      unknown: 0,
    });
    const events = await w.db.query<{ type: string }>(
      'select type from checkout_webhook_events where session_token = $1',
      [token],
    );
    expect(events.rows).toEqual([{ type: 'payment.succeeded' }]);
    expect((await pay(w.app, token, cardBody(), { key })).json().status).toBe('succeeded');
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });

  it("a merchant's cancel on an in-doubt claim waits for its verdict: charged, so not canceled", async () => {
    const clock = manualClock();
    w = await openCheckoutWorld(await target.open(), { now: clock.now, staleAttemptMs: STALE_MS });
    const { token } = await cutShort(w);
    const cancel = () =>
      w!.app.inject({
        method: 'POST',
        url: `/v1/checkout-sessions/${token}/cancel`,
        headers: { authorization: w!.merchant.authorization },
      });
    // A live claim (younger than the timeout): the cancel waits a bounded time, then says so, and when.
    w.t.gateway.deps.cancelWaitMs = 300;
    clock.advance(5_000);
    const early = await cancel();
    expect(early.statusCode).toBe(409);
    expect(early.json().error.code).toBe('payment_in_progress');
    expect(early.headers['retry-after']).toBe('25'); // 20 s claim + one 10 s sweep, 5 s gone
    // Past the timeout, the cancel has the claim settled: the processor charged, the session is paid.
    clock.advance(20_000);
    const late = await cancel();
    expect(late.statusCode).toBe(409);
    expect(late.json().error.code).toBe('session_paid');
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });

  it("a merchant's cancel on an in-doubt claim that charged nothing: canceled", async () => {
    const clock = manualClock();
    w = await openCheckoutWorld(await target.open(), { now: clock.now, staleAttemptMs: STALE_MS });
    const token = await createSession(w);
    const fault = crashAfterProcessor(w.t.gateway.deps, () => ({
      approved: false,
      responseCode: '05',
      responseMessage: 'Do not honor',
      approvedAmountCents: 0n,
    }));
    expect((await pay(w.app, token, cardBody())).statusCode).toBe(500);
    fault.restore();
    clock.advance(21_000);
    const res = await w.app.inject({
      method: 'POST',
      url: `/v1/checkout-sessions/${token}/cancel`,
      headers: { authorization: w.merchant.authorization },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('canceled');
    expect(await approvedTransactions(w.db, token)).toBe(0);
  });

  it('a key left in flight by a request that never started its attempt is freed once stale', async () => {
    const clock = manualClock();
    w = await openCheckoutWorld(await target.open(), { now: clock.now, staleAttemptMs: STALE_MS });
    const token = await createSession(w);
    const key = newKey();
    const body = {
      method: 'card',
      card: { number: '4242424242424242', expiry: '12/30', cvv: '123', name: 'Ada' },
    };
    // The request claimed its key and died before its attempt was committed.
    const scope = { sessionToken: token, endpoint: PAY_ENDPOINT, key };
    expect(
      await claimKey(w.db, scope, fingerprintOf(CHECKOUT_SECRET, PAY_ENDPOINT, body), clock.now()),
    ).toEqual({
      kind: 'claimed',
    });
    const keys = () =>
      w!.db.query<{ state: string }>('select state from checkout_idempotency where session_token = $1', [
        token,
      ]);

    await w.checkout.prune();
    expect((await keys()).rows).toEqual([{ state: 'in_flight' }]); // not yet stale: its request may be alive
    clock.advance(STALE_MS + 1_000);
    await w.checkout.prune();
    expect((await keys()).rows).toEqual([]);
    // The same key runs again, and pays once.
    expect((await pay(w.app, token, body, { key })).json().status).toBe('succeeded');
    expect((await keys()).rows).toEqual([{ state: 'completed' }]);
  });
});
