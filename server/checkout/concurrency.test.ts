/**
 * Exactly one charge when pays race (DESIGN.md §8; security-requirements.md IDEM-7, attack row 19):
 * 50 concurrent pay requests at one session, each with its own key (50 tabs), on PGlite and on
 * PostgreSQL with TWO app instances (two pools, two checkouts) on one schema. One succeeds; every
 * other answer is `already_paid` (with the same receipt) or 409; the gateway holds one approval.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../config.ts';
import type { Database } from '../db/database.ts';
import { openPostgres } from '../db/postgres.ts';
import type { TestApp } from '../../test/kit/app.ts';
import { databaseTargets, openPostgresSchema } from '../../test/kit/databases.ts';
import {
  addMerchant,
  approvedTransactions,
  buildCheckoutApp,
  cardBody,
  openCheckoutWorld,
  pay,
  sessionBody,
  type WorldMerchant,
} from '../../test/kit/checkout/checkout-world.ts';

const RACERS = 50;
const LIMITS = {
  payPerIp: { limit: 10_000, windowMs: 60_000 },
  payPerSession: { limit: 10_000, windowMs: 60_000 },
};

async function race(apps: FastifyInstance[], db: Database, m: WorldMerchant) {
  const created = await apps[0]!.inject({
    method: 'POST',
    url: '/v1/checkout-sessions',
    headers: { authorization: m.authorization },
    payload: sessionBody(),
  });
  const token: string = created.json().token;
  const answers = await Promise.all(
    Array.from({ length: RACERS }, (_, i) =>
      pay(apps[i % apps.length]!, token, cardBody(), { remoteAddress: `198.51.100.${i + 1}` }),
    ),
  );
  const succeeded = answers.filter((a) => a.statusCode === 200 && a.json().status === 'succeeded');
  expect(succeeded).toHaveLength(1);
  const receipt = succeeded[0]!.json().receipt;
  for (const a of answers) {
    if (a === succeeded[0]) continue;
    if (a.statusCode === 200) expect(a.json()).toMatchObject({ status: 'already_paid', receipt });
    else expect(a.statusCode).toBe(409);
  }
  expect(await approvedTransactions(db, token)).toBe(1);
  const { rows } = await db.query<{ n: string }>(
    "select count(*) as n from checkout_attempts where session_token = $1 and state = 'succeeded'",
    [token],
  );
  expect(Number(rows[0]!.n)).toBe(1);
  // Afterwards every tab sees the receipt.
  const late = await pay(apps[apps.length - 1]!, token, cardBody());
  expect(late.json()).toMatchObject({ status: 'already_paid', receipt });
}

describe.each(databaseTargets())('concurrent pays at one session ($name)', (target) => {
  it(`${RACERS} concurrent pays with different keys: exactly one transaction`, async () => {
    const w = await openCheckoutWorld(await target.open(), { limits: LIMITS });
    try {
      await race([w.app], w.db, w.merchant);
    } finally {
      await w.close();
    }
  });
});

const url = testDatabaseUrl();

describe.runIf(url)('concurrent pays over two app instances on one PostgreSQL schema', () => {
  let first: TestApp;
  let second: TestApp;
  let db: Database;
  let m: WorldMerchant;

  beforeAll(async () => {
    const env = { CARD_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex') };
    const schemaDb = await openPostgresSchema(url!);
    db = schemaDb;
    first = (await buildCheckoutApp(schemaDb, { env, limits: LIMITS })).t;
    const otherPool = await openPostgres({ url: url!, poolSize: 8, schema: schemaDb.schema });
    second = (await buildCheckoutApp(otherPool, { env, limits: LIMITS })).t;
    m = await addMerchant(first, db, 'Two Instance Shop');
  });
  afterAll(async () => {
    await second?.close();
    await first?.close(); // drops the schema
  });

  it(`${RACERS} concurrent pays spread over two instances: exactly one transaction`, async () => {
    await race([first.app, second.app], db, m);
  });
});
