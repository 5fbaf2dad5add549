/**
 * Database work per checkout operation, pinned (issue 12, "Tests that pin the budgets"): a merchant
 * creates a session through the REST API, the widget loads it and pays it by card, each counted at
 * the storage port (server/db/counting.ts) on each database. A count above BUDGET fails, with the
 * statements of the operation in the message. bench/transactions.bench.ts measures the same three
 * operations on the running server (bench/README.md, "Database transactions per checkout operation").
 *
 * BUDGET holds the counts of the typed seam (server/checkout/README.md "What a card pay costs"):
 * before it (commit e7eff62) they were 6 / 9 / 22 transactions and 6 / 9 / 27 statements. A change
 * that adds work to these paths fails here and has to say why it must exist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CountingDatabase,
  countingDatabase,
  type DatabaseWork,
  listStatements,
} from '../db/counting.ts';
import { type Relay, viaRelay, wireRelay } from '../../test/kit/db/wire-relay.ts';
import { testDatabaseUrl } from '../config.ts';
import { databaseTargets, openPostgresSchema } from '../../test/kit/databases.ts';
import {
  cardBody,
  type CheckoutWorld,
  createSession,
  openCheckoutWorld,
  pay,
} from '../../test/kit/checkout/checkout-world.ts';

const OPERATIONS = ['create', 'load', 'pay'] as const;
type Operation = (typeof OPERATIONS)[number];

/** Upper bounds per operation: today's counts, the same on PGlite and PostgreSQL. */
const BUDGET: Record<'transactions' | 'statements', Record<Operation, number>> = {
  transactions: { create: 2, load: 1, pay: 5 },
  statements: { create: 2, load: 1, pay: 13 },
};

/** Issue 12's goals for transactions; statements have none of their own. */
const GOALS: Record<'transactions', Record<Operation, number>> = {
  transactions: { create: 2, load: 2, pay: 5 },
};

/** One create, load and pay, each measured alone; every answer checked. */
async function checkoutOperationsWork(
  w: CheckoutWorld,
  db: CountingDatabase,
): Promise<Record<Operation, DatabaseWork>> {
  let token = '';
  const create = await db.measure(async () => {
    token = await createSession(w);
  });
  const load = await db.measure(async () => {
    const res = await w.app.inject({ method: 'GET', url: `/api/checkout/sessions/${token}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('open');
  });
  const paid = await db.measure(async () => {
    const res = await pay(w.app, token, cardBody());
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('succeeded');
  });
  // The receipt e-mail goes out after the answer (one transaction of its own): not the pay's work,
  // and not the next operation's either.
  await w.checkout.deps.notifier?.flush();
  return { create, load, pay: paid };
}

describe.each(databaseTargets())('database work per checkout operation ($name)', (target) => {
  let w: CheckoutWorld;
  let db: CountingDatabase;
  beforeAll(async () => {
    db = countingDatabase(await target.open(), { sql: true });
    // As the demo merchant the benchmark uses: enrolled in 3-D Secure (4242… passes frictionless).
    w = await openCheckoutWorld(db, { merchant: { threeDsEnrolled: true } });
  });
  afterAll(() => w?.close());

  it('creates, loads and pays a session within the budget', async () => {
    await checkoutOperationsWork(w, db); // the first of each warms what is kept in memory
    const work = await checkoutOperationsWork(w, db);
    const line = (op: Operation) =>
      `${op} ${work[op].transactions} transactions / ${work[op].statements} statements` +
      ` (budget ${BUDGET.transactions[op]} / ${BUDGET.statements[op]}, goal ${GOALS.transactions[op]})`;
    // Printed on every run, so the counts are seen while they are still under the budget.
    process.stdout.write(
      `database work per checkout operation on ${target.name}:\n  ${OPERATIONS.map(line).join('\n  ')}\n`,
    );
    for (const op of OPERATIONS) {
      const statements = `${line(op)}:\n${listStatements(work[op].sql)}`;
      expect(work[op].rollbacks, statements).toBe(0);
      expect(work[op].transactions, statements).toBeLessThanOrEqual(BUDGET.transactions[op]);
      expect(work[op].statements, statements).toBeLessThanOrEqual(BUDGET.statements[op]);
    }
  });
});

/**
 * Round trips to PostgreSQL per card pay, counted on the wire (test/kit/db/wire-relay.ts): 10,
 * down from 17 (server/checkout/README.md "What a card pay costs" lists them). Statements issued
 * together and a transaction's last statement with its COMMIT each share one.
 */
const PAY_ROUND_TRIPS = 10;
const url = testDatabaseUrl();

describe.skipIf(!url)(
  `round trips of a card pay (PostgreSQL)${url ? '' : ' (skipped: TEST_DATABASE_URL is not set)'}`,
  () => {
    let wire: Relay;
    let w: CheckoutWorld;
    beforeAll(async () => {
      wire = await wireRelay(new URL(url!));
      w = await openCheckoutWorld(await openPostgresSchema(viaRelay(url!, wire)), {
        merchant: { threeDsEnrolled: true },
      });
    });
    afterAll(async () => {
      await w?.close();
      await wire?.close();
    });

    it(`pays in at most ${PAY_ROUND_TRIPS} round trips`, async () => {
      // The first pay also opens what is kept open (the caches' LISTEN connection): not counted.
      const turns: number[] = [];
      for (let i = 0; i < 3; i++) {
        const token = await createSession(w);
        wire.reset();
        const res = await pay(w.app, token, cardBody());
        expect(res.json().status).toBe('succeeded');
        turns.push(wire.turns());
        // The receipt e-mail goes out after the answer, in a transaction of its own: not counted.
        await w.checkout.deps.notifier?.flush();
      }
      expect(
        turns.slice(1).every((n) => n <= PAY_ROUND_TRIPS),
        `turns per pay: ${turns.join(', ')}`,
      ).toBe(true);
    });
  },
);
