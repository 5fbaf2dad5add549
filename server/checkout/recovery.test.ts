/**
 * Recovery of attempts left `started` (security-requirements.md REL-2, REL-3; attack row 21 as it
 * meets the checkout): a crash after the gateway charged, a crash before it did, and an answer
 * lost on the way back. Recovery never charges; exactly one transaction in every case.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PayBody } from '../../shared/checkout/pay-schemas.ts';
import { createLogger } from '../logger.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { defaultContexts } from './contexts.ts';
import { saleRequest } from './gateway-calls.ts';
import { fingerprintOf } from './idempotency.ts';
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
  withPayCheckoutSession,
} from '../../test/kit/checkout/checkout-world.ts';

const STALE_MS = 60_000;
const log = createLogger({ level: 'silent' });

describe.each(databaseTargets())('attempt recovery ($name)', (target) => {
  let w: CheckoutWorld | undefined;
  afterEach(() => w?.close());

  /** What a request that crashed after committing its attempt leaves behind. */
  async function crashedAttempt(world: CheckoutWorld, token: string, key: string, at: Date) {
    const fingerprint = fingerprintOf(CHECKOUT_SECRET, 'pay', PayBody.parse(cardBody()));
    await world.db.query(
      `insert into checkout_idempotency (session_token, endpoint, key, fingerprint, state, created_at)
       values ($1, 'pay', $2, $3, 'in_flight', $4)`,
      [token, key, fingerprint, at],
    );
    await world.db.query(
      `insert into checkout_attempts (session_token, idempotency_key, method, state, started_at)
       values ($1, $2, 'card', 'started', $3)`,
      [token, key, at],
    );
  }

  it('the gateway charged, the checkout crashed: recovery records the charge, nothing is charged again', async () => {
    const clock = manualClock();
    w = await openCheckoutWorld(await target.open(), { now: clock.now, staleAttemptMs: STALE_MS });
    const token = await createSession(w, { webhookUrl: 'https://hooks.shop.example/payframe' });
    const key = newKey();
    await crashedAttempt(w, token, key, clock.now());
    // The charge the crashed request made, through the port as the checkout makes it.
    const origin = { requestId: 'test', remoteAddress: '127.0.0.1', log };
    const charged = await w.t.gateway.service.PayCheckoutSession(
      { token, request: saleRequest(PayBody.parse(cardBody()), {}) },
      defaultContexts.service(origin),
    );
    expect(charged.Outcome).toBe('Approved');

    expect(await w.checkout.recoverAttempts()).toEqual({ succeeded: 0, failed: 0, unknown: 0 }); // not stale yet
    clock.advance(STALE_MS + 1_000);
    expect(await w.checkout.recoverAttempts()).toEqual({ succeeded: 1, failed: 0, unknown: 0 });
    expect(await approvedTransactions(w.db, token)).toBe(1);
    const attempt = await w.db.query<{ state: string; recovered: boolean }>(
      'select state, recovered from checkout_attempts where session_token = $1',
      [token],
    );
    expect(attempt.rows).toEqual([{ state: 'succeeded', recovered: true }]);
    const events = await w.db.query<{ type: string }>(
      'select type from checkout_webhook_events where session_token = $1',
      [token],
    );
    expect(events.rows).toEqual([{ type: 'payment.succeeded' }]);

    // The crashed request's key now replays the success.
    const retry = await pay(w.app, token, cardBody(), { key });
    expect(retry.json()).toMatchObject({ status: 'succeeded', receipt: { amount: '24.99' } });
    // Another tab: already paid, and the gateway's 94 names the transaction, filled in here.
    const other = await pay(w.app, token, cardBody());
    expect(other.json()).toMatchObject({
      status: 'already_paid',
      receipt: { transactionId: charged.TransactionID },
    });
    const merchantView = await w.app.inject({
      method: 'GET',
      url: `/v1/checkout-sessions/${token}`,
      headers: { authorization: w.merchant.authorization },
    });
    expect(merchantView.json()).toMatchObject({ status: 'paid', transactionId: charged.TransactionID });
    expect(await approvedTransactions(w.db, token)).toBe(1);
    expect((await w.checkout.recoverAttempts()).succeeded).toBe(0);
  });

  it('the checkout crashed before the gateway charged: the attempt fails, the same key then pays once', async () => {
    const clock = manualClock();
    w = await openCheckoutWorld(await target.open(), { now: clock.now, staleAttemptMs: STALE_MS });
    const token = await createSession(w);
    const key = newKey();
    await crashedAttempt(w, token, key, clock.now());
    const blocked = await pay(w.app, token, cardBody(), { key });
    expect(blocked.statusCode).toBe(409); // still in flight, as far as anyone can tell
    clock.advance(STALE_MS + 1_000);
    expect(await w.checkout.recoverAttempts()).toEqual({ succeeded: 0, failed: 1, unknown: 0 });
    const retry = await pay(w.app, token, cardBody(), { key });
    expect(retry.json().status).toBe('succeeded');
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });

  it('a new attempt on the session recovers a stale one first', async () => {
    const clock = manualClock();
    w = await openCheckoutWorld(await target.open(), { now: clock.now, staleAttemptMs: STALE_MS });
    const token = await createSession(w);
    await crashedAttempt(w, token, newKey(), clock.now());
    expect((await pay(w.app, token, cardBody())).statusCode).toBe(409);
    clock.advance(STALE_MS + 1_000);
    const paid = await pay(w.app, token, cardBody());
    expect(paid.json().status).toBe('succeeded');
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });

  it('an answer lost on the way back: 500, then the same key gets the real outcome, one charge', async () => {
    const clock = manualClock();
    let loseAnswer = true;
    w = await openCheckoutWorld(await target.open(), {
      now: clock.now,
      staleAttemptMs: STALE_MS,
      wrapPort: withPayCheckoutSession(async (real, params, context) => {
        const answer = await real(params, context);
        if (loseAnswer) throw new Error('socket hang up');
        return answer;
      }),
    });
    const token = await createSession(w);
    const key = newKey();
    const lost = await pay(w.app, token, cardBody(), { key });
    expect(lost.statusCode).toBe(500);
    expect(lost.json().error.message).toMatch(/same Idempotency-Key/);
    loseAnswer = false;
    expect((await pay(w.app, token, cardBody(), { key })).statusCode).toBe(409);
    clock.advance(STALE_MS + 1_000);
    const settled = await pay(w.app, token, cardBody(), { key });
    expect(settled.statusCode).toBe(200);
    expect(settled.json().status).toBe('succeeded');
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });

  it('a paid session replayed after 25 h, when its key is gone: already paid, no charge (IDEM-5, row 20)', async () => {
    const clock = manualClock();
    w = await openCheckoutWorld(await target.open(), { now: clock.now });
    const token = await createSession(w);
    const key = newKey();
    const first = (await pay(w.app, token, cardBody(), { key })).json();
    clock.advance(25 * 60 * 60 * 1000 + 1_000);
    await w.checkout.prune();
    const { rows } = await w.db.query('select 1 from checkout_idempotency where key = $1', [key]);
    expect(rows).toHaveLength(0);
    const replay = await pay(w.app, token, cardBody(), { key });
    expect(replay.json()).toMatchObject({ status: 'succeeded', receipt: first.receipt });
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });
});
