/**
 * `Idempotency-Key` on `POST /v1/checkout-sessions` (create-idempotency.ts), through the real app on
 * every database target, with a second app instance on the same database (the key lives in the
 * database, not in an instance's memory).
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneKeys } from './idempotency.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  addMerchant,
  buildCheckoutApp,
  type CheckoutWorld,
  newKey,
  openCheckoutWorld,
  sessionBody,
  type WorldMerchant,
} from '../../test/kit/checkout/checkout-world.ts';

describe.each(databaseTargets())('Idempotency-Key on session creation ($name)', (target) => {
  let w: CheckoutWorld;
  let other: Awaited<ReturnType<typeof buildCheckoutApp>>;
  beforeAll(async () => {
    // Two instances on one database, as two servers behind a load balancer (one vault key).
    const env = { CARD_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex') };
    w = await openCheckoutWorld(await target.open(), { env });
    other = await buildCheckoutApp(w.db, { env });
  });
  afterAll(async () => {
    await other?.t.app.close();
    await w?.close();
  });

  const post = (
    payload: unknown,
    key: string | undefined,
    app = w.app,
    merchant: WorldMerchant = w.merchant,
  ) =>
    app.inject({
      method: 'POST',
      url: '/v1/checkout-sessions',
      headers: {
        authorization: merchant.authorization,
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
      payload: payload as object,
    });
  const sessionsCreated = async () =>
    Number((await w.db.query<{ n: string }>('select count(*) as n from checkout_sessions')).rows[0]?.n ?? 0);

  it('the same key and body answer the same session, byte for byte, marked as a replay', async () => {
    const key = newKey();
    const before = await sessionsCreated();
    const first = await post(sessionBody({ orderNumber: 'IDEM-1' }), key);
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await post(sessionBody({ orderNumber: 'IDEM-1' }), key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(again.headers.location).toBe(first.headers.location);
    // On the other instance too: the key is in the database.
    const elsewhere = await post(sessionBody({ orderNumber: 'IDEM-1' }), key, other.t.app);
    expect(elsewhere.statusCode).toBe(201);
    expect(elsewhere.body).toBe(first.body);
    expect(await sessionsCreated()).toBe(before + 1);
  });

  it('the same key with another body is 422 idempotency_mismatch, and creates nothing', async () => {
    const key = newKey();
    await post(sessionBody({ orderNumber: 'IDEM-2' }), key);
    const before = await sessionsCreated();
    const res = await post(sessionBody({ orderNumber: 'IDEM-2', amount: '25.00' }), key);
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('idempotency_mismatch');
    expect(await sessionsCreated()).toBe(before);
  });

  it('without a key, every request creates a session', async () => {
    const a = await post(sessionBody({ orderNumber: 'IDEM-3' }), undefined);
    const b = await post(sessionBody({ orderNumber: 'IDEM-3' }), undefined);
    expect(a.json().token).not.toBe(b.json().token);
  });

  it('ten concurrent requests with one key create one session (two instances)', async () => {
    const key = newKey();
    const before = await sessionsCreated();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(sessionBody({ orderNumber: 'IDEM-4' }), key, i % 2 ? other.t.app : w.app),
      ),
    );
    const created = answers.filter((r) => r.statusCode === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.json().token)).size).toBe(1);
    for (const r of answers.filter((a) => a.statusCode !== 201)) {
      expect(r.statusCode).toBe(409);
      expect(r.json().error.code).toBe('conflict');
    }
    expect(await sessionsCreated()).toBe(before + 1);
  });

  it('a 400 does not use the key up; a malformed key is a 400 naming the header', async () => {
    const key = newKey();
    const bad = await post(sessionBody({ orderNumber: 'IDEM-5', amount: '1.234' }), key);
    expect(bad.statusCode).toBe(400);
    const good = await post(sessionBody({ orderNumber: 'IDEM-5' }), key);
    expect(good.statusCode).toBe(201);
    expect(good.headers['idempotent-replayed']).toBeUndefined();

    const malformed = await post(sessionBody(), 'x'.repeat(256));
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.fields[0].field).toBe('Idempotency-Key');
  });

  it('is scoped to the merchant: another merchant’s same key creates its own session', async () => {
    const key = newKey();
    const mine = await post(sessionBody({ orderNumber: 'IDEM-6' }), key);
    const second = await addMerchant(w.t, w.db, 'Beta Books');
    const theirs = await post(sessionBody({ orderNumber: 'IDEM-6' }), key, w.app, second);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().token).not.toBe(mine.json().token);
  });

  it('a replay or a mismatch checks the credential: a wrong TransactionKey is 401, not the stored answer', async () => {
    const key = newKey();
    await post(sessionBody({ orderNumber: 'IDEM-7' }), key);
    const wrong = {
      ...w.merchant,
      authorization: `Basic ${Buffer.from(`${w.merchant.id}:nope`).toString('base64')}`,
    };
    const res = await post(sessionBody({ orderNumber: 'IDEM-7' }), key, w.app, wrong);
    expect(res.statusCode).toBe(401);
    expect(res.body).not.toContain('cs_');
    // Nor does a wrong credential learn that the key was used with another body.
    const other = await post(sessionBody({ orderNumber: 'IDEM-7', amount: '99.00' }), key, w.app, wrong);
    expect(other.statusCode).toBe(401);
    expect(other.body).not.toContain('idempotency_mismatch');
  });

  it('is kept 24 hours: pruned after, then the key creates a new session', async () => {
    const key = newKey();
    const first = await post(sessionBody({ orderNumber: 'IDEM-8' }), key);
    expect(await pruneKeys(w.db, new Date(Date.now() + 23 * 3600_000))).toBe(0);
    expect((await post(sessionBody({ orderNumber: 'IDEM-8' }), key)).body).toBe(first.body);
    expect(await pruneKeys(w.db, new Date(Date.now() + 26 * 3600_000))).toBeGreaterThan(0);
    const later = await post(sessionBody({ orderNumber: 'IDEM-8' }), key);
    expect(later.statusCode).toBe(201);
    expect(later.json().token).not.toBe(first.json().token);
  });
});
