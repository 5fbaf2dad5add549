/**
 * Exactly one success when requests race (DESIGN.md §7–8; issue "gateway part 1" Concurrency):
 * ten ProcessTransaction calls paying one checkout session at the same moment, and ten captures of
 * the full amount of one auth, through the real SOAP endpoint — one succeeds, and the database holds
 * exactly one approved row. On PGlite and PostgreSQL, and with TWO app instances (two pools) on one
 * PostgreSQL schema when a server is available.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { OperationResult } from '../../shared/contract/service.ts';
import { testDatabaseUrl } from '../config.ts';
import type { Database } from '../db/database.ts';
import { openPostgres } from '../db/postgres.ts';
import { buildTestApp, type TestApp } from '../../test/kit/app.ts';
import { databaseTargets, openPostgresSchema } from '../../test/kit/databases.ts';
import { TEST_CARDS } from './processor/simulator.ts';
import {
  call,
  card,
  countRows,
  createMerchant,
  pay,
  SERVICE_KEY,
  type TestMerchant,
} from '../../test/kit/gateway/gateway-kit.ts';

const RACERS = 10;
type Response = OperationResult<'ProcessTransaction'>;

interface Instances {
  /** The apps the racing calls are spread over (one, or two on one database). */
  apps: FastifyInstance[];
  db: Database;
  m: TestMerchant;
}

async function paySessionConcurrently({ apps, db, m }: Instances) {
  const app = apps[0]!;
  const created = await call(
    app,
    'CreateHostedPayment',
    { request: { MerchantID: m.id, Amount: '75.00' } },
    m.as,
  );
  const token = created.Token!;
  const replies = await Promise.all(
    Array.from({ length: RACERS }, (_, i) =>
      call(
        apps[i % apps.length]!,
        'ProcessTransaction',
        pay(m, card(TEST_CARDS.visa, '75.00', { HostedPaymentToken: token })),
        m.as,
      ),
    ),
  );
  const approved = replies.filter((r) => r.ResponseCode === '00');
  expect(approved).toHaveLength(1);
  // The others are told a payment is in progress (09) or the session is paid (94); none charged.
  for (const r of replies.filter((r) => r !== approved[0])) {
    expect(['09', '94']).toContain(r.ResponseCode);
    expect(r.TransactionID).toBe('0');
  }
  const rows = await countRows(
    db,
    `select count(*) as n from transactions t join checkout_sessions s on s.id = t.checkout_session_id
     where s.token = $1 and t.status = 'approved'`,
    [token],
  );
  expect(rows).toBe(1);
  const details = await call(app, 'GetHostedPaymentDetails', { token }, m.as);
  expect(details.Message).toMatch(/^This checkout session has already been paid \(transaction \d+\)\.$/);
  return { token, approved: approved[0]! };
}

async function captureConcurrently({ apps, db, m }: Instances) {
  const app = apps[0]!;
  const auth = await call(
    app,
    'ProcessTransaction',
    pay(m, card(TEST_CARDS.visa, '60.00', { TransactionType: 'auth' })),
    m.as,
  );
  expect(auth.ResponseCode).toBe('00');
  const replies: Response[] = await Promise.all(
    Array.from({ length: RACERS }, (_, i) =>
      call(
        apps[i % apps.length]!,
        'ProcessTransaction',
        pay(m, { TransactionType: 'capture', OriginalTransactionID: auth.TransactionID, Amount: '60.00' }),
        m.as,
      ),
    ),
  );
  expect(replies.filter((r) => r.ResponseCode === '00')).toHaveLength(1);
  expect(replies.filter((r) => r.ResponseCode === '13')).toHaveLength(RACERS - 1);
  expect(
    await countRows(
      db,
      "select count(*) as n from transactions where original_transaction_id = $1 and kind = 'capture'",
      [auth.TransactionID],
    ),
  ).toBe(1);
  const { rows } = await db.query<{ captured_amount: string }>(
    'select captured_amount from transactions where id = $1',
    [auth.TransactionID],
  );
  expect(rows[0]?.captured_amount).toBe('60.00');
}

describe.each(databaseTargets())('racing requests, one app ($name)', (target) => {
  let t: TestApp;
  let db: Database;
  let m: TestMerchant;

  beforeAll(async () => {
    db = await target.open();
    t = await buildTestApp(
      db,
      { LOG_LEVEL: 'warn', GATEWAY_SERVICE_KEY: SERVICE_KEY },
      { closeDatabase: true },
    );
    m = await createMerchant(t, db, 'Racing Merchant', false);
  });
  afterAll(() => t?.close());

  it(`${RACERS} concurrent payments of one checkout session: exactly one succeeds`, async () => {
    const { token, approved } = await paySessionConcurrently({ apps: [t.app], db, m });
    // The database itself refuses a second approved payment of the session (a unique index).
    const { rows } = await db.query<{ id: string }>('select id from checkout_sessions where token = $1', [
      token,
    ]);
    const second = db.query(
      `insert into transactions (merchant_id, kind, method, status, amount, response_code, response_message, settlement_status, checkout_session_id)
       values ($1, 'sale', 'card', 'approved', 75.00, '00', 'Approved', 'Pending', $2)`,
      [m.id, rows[0]!.id],
    );
    await expect(second).rejects.toThrow(/transactions_one_success_per_session/);
    expect(approved.ApprovalCode).toMatch(/^[0-9A-Z]{6}$/);
  });

  it(`${RACERS} concurrent captures of the full amount of one auth: exactly one succeeds`, async () => {
    await captureConcurrently({ apps: [t.app], db, m });
  });
});

const url = testDatabaseUrl();

describe.runIf(url)('racing requests, two app instances on one PostgreSQL schema', () => {
  let first: TestApp;
  let second: TestApp;
  let db: Database;
  let m: TestMerchant;

  beforeAll(async () => {
    // Both instances share the vault key, as several instances on one database must.
    const env = {
      LOG_LEVEL: 'warn',
      GATEWAY_SERVICE_KEY: SERVICE_KEY,
      CARD_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
    };
    const schemaDb = await openPostgresSchema(url!);
    db = schemaDb;
    first = await buildTestApp(schemaDb, env, { closeDatabase: true });
    second = await buildTestApp(
      await openPostgres({ url: url!, poolSize: 8, schema: schemaDb.schema }),
      env,
      { closeDatabase: true },
    );
    m = await createMerchant(first, db, 'Two Instance Merchant', false);
  });
  // A failed race shows why: the instances' warnings and errors (a 500's cause is only logged).
  afterEach(({ task }) => {
    if (task.result?.state !== 'fail') return;
    for (const line of [...first.logLines, ...second.logLines]) process.stderr.write(line);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close(); // drops the schema
  });

  it(`${RACERS} concurrent payments of one checkout session over two instances: exactly one succeeds`, async () => {
    await paySessionConcurrently({ apps: [first.app, second.app], db, m });
  });

  it(`${RACERS} concurrent captures of one auth over two instances: exactly one succeeds`, async () => {
    await captureConcurrently({ apps: [first.app, second.app], db, m });
  });
});
