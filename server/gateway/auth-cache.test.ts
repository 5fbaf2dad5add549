/**
 * Authentication from memory (DESIGN.md §17, merchants/merchant-cache.ts), through the real SOAP
 * endpoint: a merchant's repeated call needs no database statement; a wrong key never authenticates
 * from the cache; a rolled or disabled key and a changed enrolment take effect at once on the
 * instance that made the change and, on PostgreSQL, on every other instance within the documented
 * bound (MERCHANT_CACHE_TTL_MS; in practice when the change's notification arrives); failures on one
 * instance throttle the address on another.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../config.ts';
import { type CountingDatabase, countingDatabase } from '../db/counting.ts';
import type { Database } from '../db/database.ts';
import { openPostgres } from '../db/postgres.ts';
import { buildTestApp, type TestApp } from '../../test/kit/app.ts';
import { databaseTargets, openPostgresSchema } from '../../test/kit/databases.ts';
import { MAX_FAILURES } from './auth.ts';
import { MERCHANT_CACHE_TTL_MS } from './merchants/merchant-cache.ts';
import {
  createMerchant,
  rawCall,
  SERVICE_KEY,
  type TestMerchant,
} from '../../test/kit/gateway/gateway-kit.ts';

const ENV = { LOG_LEVEL: 'warn', GATEWAY_SERVICE_KEY: SERVICE_KEY };
const verify = (t: TestApp, m: TestMerchant, as = m.as, ip = '127.0.0.1') =>
  rawCall(t.app, 'Verify3DSecureMerchant', { merchantID: m.id }, as, ip);
const enrolled = (body: string) => /<Verify3DSecureMerchantResult>(true|false)</.exec(body)?.[1];
let nextIp = 1;
const freshIp = () => `10.77.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`;

/** Calls `probe` until it answers true; the milliseconds it took, or fails after `limitMs`. */
async function within(limitMs: number, probe: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await probe()) return Date.now() - start;
    if (Date.now() - start > limitMs) throw new Error(`not within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.each(databaseTargets())('authentication from memory, one instance ($name)', (target) => {
  let db: CountingDatabase;
  let t: TestApp;
  let m: TestMerchant;

  beforeAll(async () => {
    db = countingDatabase(await target.open());
    t = await buildTestApp(db, ENV, { closeDatabase: true });
    m = await createMerchant(t, db, 'Cached Cycles', true);
  });
  afterAll(() => t.close());

  it("a merchant's repeated call (Verify3DSecureMerchant) makes no database statement", async () => {
    // The first call subscribes to the database's notifications; the cache is used once that holds.
    expect((await verify(t, m)).status).toBe(200);
    await within(5000, async () => t.gateway.deps.merchants.cache.serving);
    expect((await verify(t, m)).status).toBe(200);
    const work = await db.measure(async () => {
      const f = await verify(t, m);
      expect(f.status).toBe(200);
      expect(enrolled(f.body)).toBe('true');
    });
    expect(work.statements).toBe(0);
  });

  it('a wrong key never authenticates from the cache: it reads the database and counts a failure', async () => {
    expect((await verify(t, m)).status).toBe(200);
    const ip = freshIp();
    for (const key of [`${m.key}x`, m.key.slice(0, -1), m.key.toUpperCase(), '']) {
      const work = await db.measure(async () => {
        expect((await verify(t, m, { merchantId: m.id, key }, ip)).status).toBe(401);
      });
      expect(work.statements).toBeGreaterThanOrEqual(2); // the throttle and merchant, the failure
    }
    const { rows } = await db.query<{ failures: number }>(
      'select failures from auth_failures where subject = $1',
      [`ip:${ip}`],
    );
    expect(rows[0]?.failures).toBe(4);
  });

  it("another merchant's id with a cached key is refused", async () => {
    const other = await createMerchant(t, db, 'Other Outfit', false);
    expect((await verify(t, m)).status).toBe(200);
    const f = await rawCall(
      t.app,
      'Verify3DSecureMerchant',
      { merchantID: other.id },
      { merchantId: other.id, key: m.key },
      freshIp(),
    );
    expect(f.status).toBe(401);
  });

  it('a throttled address is refused even with a cached right key', async () => {
    const ip = freshIp();
    expect((await verify(t, m, m.as, ip)).status).toBe(200);
    for (let i = 0; i < MAX_FAILURES; i++) {
      expect((await verify(t, m, { merchantId: m.id, key: `wrong-${i}` }, ip)).status).toBe(401);
    }
    expect((await verify(t, m, m.as, ip)).status).toBe(429);
    expect((await verify(t, m, m.as, freshIp())).status).toBe(200);
  });

  it('a rolled key, a disabled merchant and a changed enrolment take effect on the next call', async () => {
    const n = await createMerchant(t, db, 'Rolling Rides', true);
    expect((await verify(t, n)).status).toBe(200);
    const store = t.gateway.deps.merchants;
    const newKey = (await store.rollKey(db, n.id))!;
    expect((await verify(t, n, n.as, freshIp())).status).toBe(401);
    const rolled = { merchantId: n.id, key: newKey };
    expect((await verify(t, n, rolled)).status).toBe(200);

    await store.update(db, n.id, { threeDsEnrolled: false });
    expect(enrolled((await verify(t, n, rolled)).body)).toBe('false');

    await store.setDisabled(db, n.id, true);
    expect((await verify(t, n, rolled, freshIp())).status).toBe(401);
    await store.setDisabled(db, n.id, false);
    expect((await verify(t, n, rolled)).status).toBe(200);
  });

  it('a change made in SQL (not through Payframe) is seen on the next call', async () => {
    const n = await createMerchant(t, db, 'Plain Sql Shop', true);
    expect((await verify(t, n)).status).toBe(200);
    await db.query('update merchants set disabled_at = now() where id = $1', [n.id]);
    // PGlite delivers the notification as the statement ends; PostgreSQL moments after it commits.
    await within(2000, async () => (await verify(t, n, n.as, freshIp())).status === 401);
  });
});

const url = testDatabaseUrl();

describe.skipIf(!url)('authentication from memory, two instances on one PostgreSQL', () => {
  let dbA: Database & { schema: string };
  let dbB: Database;
  let a: TestApp;
  let b: TestApp;
  let m: TestMerchant;

  beforeAll(async () => {
    dbA = await openPostgresSchema(url!);
    dbB = await openPostgres({ url: url!, poolSize: 4, schema: dbA.schema });
    // Instances on one database share the vault key (docs/deployment.md).
    const env = { ...ENV, CARD_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex') };
    a = await buildTestApp(dbA, env);
    b = await buildTestApp(dbB, env);
    m = await createMerchant(a, dbA, 'Twin Trails', true);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await dbB?.close();
    await dbA?.close();
  });

  /** Both instances have verified (and cached) `as` (the first call subscribes to notifications). */
  async function warm(as: { merchantId: string; key: string }) {
    for (const t of [a, b]) {
      expect((await verify(t, m, as)).status).toBe(200);
      await within(5000, async () => t.gateway.deps.merchants.cache.serving);
      expect((await verify(t, m, as)).status).toBe(200);
    }
  }

  it(`a key rolled on one instance stops working on the other within ${MERCHANT_CACHE_TTL_MS} ms`, async () => {
    await warm(m.as);
    const newKey = (await a.gateway.deps.merchants.rollKey(dbA, m.id))!;
    expect((await verify(a, m, m.as, freshIp())).status).toBe(401);
    const took = await within(MERCHANT_CACHE_TTL_MS, async () => {
      return (await verify(b, m, m.as, freshIp())).status === 401;
    });
    expect(took).toBeLessThan(MERCHANT_CACHE_TTL_MS);
    m = { ...m, key: newKey, as: { merchantId: m.id, key: newKey } };
    await warm(m.as);
  });

  it(`a merchant disabled on one instance is refused on the other within ${MERCHANT_CACHE_TTL_MS} ms`, async () => {
    await warm(m.as);
    await b.gateway.deps.merchants.setDisabled(dbB, m.id, true);
    await within(MERCHANT_CACHE_TTL_MS, async () => (await verify(a, m, m.as, freshIp())).status === 401);
    await b.gateway.deps.merchants.setDisabled(dbB, m.id, false);
    await within(MERCHANT_CACHE_TTL_MS, async () => (await verify(a, m, m.as)).status === 200);
  });

  it('an enrolment change on one instance is answered by the other within the bound', async () => {
    await warm(m.as);
    await a.gateway.deps.merchants.update(dbA, m.id, { threeDsEnrolled: false });
    await within(MERCHANT_CACHE_TTL_MS, async () => enrolled((await verify(b, m)).body) === 'false');
    await a.gateway.deps.merchants.update(dbA, m.id, { threeDsEnrolled: true });
    await within(MERCHANT_CACHE_TTL_MS, async () => enrolled((await verify(b, m)).body) === 'true');
  });

  it('failures on one instance throttle the address on the other, cached right key included', async () => {
    const ip = freshIp();
    expect((await verify(a, m, m.as, ip)).status).toBe(200);
    expect((await verify(b, m, m.as, ip)).status).toBe(200);
    for (let i = 0; i < MAX_FAILURES; i++) {
      expect((await verify(a, m, { merchantId: m.id, key: `wrong-${i}` }, ip)).status).toBe(401);
    }
    await within(MERCHANT_CACHE_TTL_MS, async () => (await verify(b, m, m.as, ip)).status === 429);
    // Brute force spread over both instances stays limited: B refuses the next guesses too.
    expect((await verify(b, m, { merchantId: m.id, key: 'wrong-on-b' }, ip)).status).toBe(429);
  });
});
