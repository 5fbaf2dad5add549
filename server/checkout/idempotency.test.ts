/**
 * Idempotency of the pay endpoint (security-requirements.md IDEM-1…6; attack rows 13, 16, 17, 18):
 * the same key replays the first answer; a different request under it is 422; while the first is
 * in flight it is 409 and nothing is saved; a validation failure does not use the key up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../gateway/processor/simulator.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  approvedTransactions,
  type CheckoutWorld,
  cardBody,
  createSession,
  newKey,
  openCheckoutWorld,
  pay,
  sleep,
  withPayCheckoutSession,
} from '../../test/kit/checkout/checkout-world.ts';

describe.each(databaseTargets())('pay idempotency ($name)', (target) => {
  let w: CheckoutWorld;
  let hold: Promise<void> | null = null;
  let gatewayCalls = 0;
  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open(), {
      wrapPort: withPayCheckoutSession(async (real, params, context) => {
        gatewayCalls++;
        if (hold) await hold;
        return real(params, context);
      }),
    });
  });
  afterAll(() => w?.close());

  async function waitForAttempt(token: string) {
    for (let i = 0; i < 200; i++) {
      const { rows } = await w.db.query(
        "select 1 from checkout_attempts where session_token = $1 and state = 'started'",
        [token],
      );
      if (rows.length > 0) return;
      await sleep(5);
    }
    throw new Error('no attempt started');
  }

  it('the same key and body replay the first answer: same status and body, one charge (IDEM-2)', async () => {
    const token = await createSession(w);
    const key = newKey();
    const calls = gatewayCalls;
    const first = await pay(w.app, token, cardBody(), { key });
    const second = await pay(w.app, token, cardBody(), { key });
    expect(second.statusCode).toBe(first.statusCode);
    expect(second.body).toBe(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(gatewayCalls - calls).toBe(1);
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });

  it('a decline is replayed too, without asking the gateway again', async () => {
    const token = await createSession(w);
    const key = newKey();
    const first = await pay(w.app, token, cardBody(TEST_CARDS.declined), { key });
    const calls = gatewayCalls;
    const second = await pay(w.app, token, cardBody(TEST_CARDS.declined), { key });
    expect(second.body).toBe(first.body);
    expect(gatewayCalls).toBe(calls);
  });

  it('the same key with a different request is 422; the stored answer is unchanged (IDEM-3, row 18)', async () => {
    const token = await createSession(w);
    const key = newKey();
    const first = await pay(w.app, token, cardBody(TEST_CARDS.declined), { key });
    const other = await pay(w.app, token, cardBody(TEST_CARDS.visa), { key });
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('idempotency_mismatch');
    expect(await approvedTransactions(w.db, token)).toBe(0);
    expect((await pay(w.app, token, cardBody(TEST_CARDS.declined), { key })).body).toBe(first.body);
  });

  it('an amount in the body is refused, and the session amount is what is charged (row 13)', async () => {
    const token = await createSession(w);
    const key = newKey();
    const tampered = await pay(w.app, token, { ...cardBody(), amount: '0.01', currency: 'JPY' }, { key });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json().error.fields[0]).toMatchObject({ code: 'unrecognized_keys' });
    // The 400 did not use the key up (IDEM-6): the clean request with the same key runs.
    const paid = await pay(w.app, token, cardBody(), { key });
    expect(paid.statusCode).toBe(200);
    expect(paid.json().receipt.amount).toBe('24.99');
  });

  it('a validation failure does not use the key up (IDEM-6)', async () => {
    const token = await createSession(w);
    const key = newKey();
    const bad = await pay(w.app, token, cardBody('4242424242424241'), { key });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual([
      { field: 'card.number', code: 'custom', message: 'Please check the card number.' },
    ]);
    const good = await pay(w.app, token, cardBody(), { key });
    expect(good.statusCode).toBe(200);
    expect(good.json().status).toBe('succeeded');
  });

  it('the Idempotency-Key is required and at most 255 characters (IDEM-1)', async () => {
    const token = await createSession(w);
    const missing = await pay(w.app, token, cardBody(), { key: null });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatchObject({
      code: 'invalid_request',
      fields: [{ field: 'Idempotency-Key' }],
    });
    expect((await pay(w.app, token, cardBody(), { key: 'k'.repeat(256) })).statusCode).toBe(400);
    expect((await pay(w.app, token, cardBody(), { key: 'k'.repeat(255) })).statusCode).toBe(200);
  });

  it('while the first request is in flight: 409 for its key, nothing saved; then its answer (IDEM-4, row 17)', async () => {
    const token = await createSession(w);
    const key = newKey();
    let release = () => {};
    hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = pay(w.app, token, cardBody(), { key });
    await waitForAttempt(token);
    const retry = await pay(w.app, token, cardBody(), { key }); // the client timed out and retried
    expect(retry.statusCode).toBe(409);
    expect(retry.json().error.code).toBe('payment_in_progress');
    const otherTab = await pay(w.app, token, cardBody(TEST_CARDS.mastercard));
    expect(otherTab.statusCode).toBe(409);
    hold = null;
    release();
    const done = await first;
    expect(done.json().status).toBe('succeeded');
    const later = await pay(w.app, token, cardBody(), { key });
    expect(later.body).toBe(done.body);
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });

  it('a double-click (same key twice at once) charges once (row 16)', async () => {
    const token = await createSession(w);
    const key = newKey();
    const answers = await Promise.all([
      pay(w.app, token, cardBody(), { key }),
      pay(w.app, token, cardBody(), { key }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual(expect.arrayContaining([200]));
    for (const a of answers) expect([200, 409]).toContain(a.statusCode);
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });

  it('keys are scoped to the session: the same key on another session is another request (IDEM-10)', async () => {
    const a = await createSession(w);
    const b = await createSession(w);
    const key = newKey();
    const paidA = (await pay(w.app, a, cardBody(), { key })).json();
    const paidB = (await pay(w.app, b, cardBody(), { key })).json();
    expect(paidB.status).toBe('succeeded');
    expect(paidB.receipt.transactionId).not.toBe(paidA.receipt.transactionId);
  });
});
