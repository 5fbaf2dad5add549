/**
 * The page query of ListCheckoutSessions (session-record.ts) walks the index of migration 0023 from
 * the cursor down, on every database target: with thousands of sessions of many merchants, the plan
 * is an index scan of checkout_sessions_merchant_newest bounded by the merchant and the cursor, never
 * a scan and sort of the table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../db/database.ts';
import { queryPlans } from '../../../test/kit/query-plans.ts';
import { databaseTargets } from '../../../test/kit/databases.ts';
import { merchantSessionCursor, merchantSessionRecords } from './session-record.ts';

describe.each(databaseTargets())('the session list query ($name)', (target) => {
  let db: Database;
  const merchants: string[] = [];
  beforeAll(async () => {
    db = await target.open();
    for (let i = 0; i < 40; i++) {
      const { rows } = await db.query<{ id: string }>(
        `insert into merchants (public_code, name, transaction_key_enc, reader_key_enc)
         values ($1, $1, 'x', 'x') returning id`,
        [`list-plan-${i}`],
      );
      merchants.push(String(rows[0]!.id));
    }
    // 8,000 sessions, 200 a merchant, spread over a day.
    await db.query(
      `insert into checkout_sessions (token, merchant_id, amount, order_number, expires_at, created_at)
       select 'cs_' || lpad(g::text, 43, '0'), ($1::bigint[])[1 + g % 40], 10, 'O-' || (g % 7),
              now() + interval '1 hour', now() - g * interval '10 seconds'
         from generate_series(1, 8000) g`,
      [merchants],
    );
    await db.exec('analyze checkout_sessions');
  });
  afterAll(async () => {
    await db?.close();
  });

  const plans = (run: (q: Queryable) => Promise<unknown>) => queryPlans(db, run);

  it('walks checkout_sessions_merchant_newest from the cursor down, without sorting', async () => {
    const merchantId = merchants[3]!;
    const deps = { vault: { maskedOf: () => null } as never, now: () => new Date() };
    const first = await merchantSessionRecords(db, deps, {
      merchantId,
      status: null,
      orderNumber: null,
      paymentLink: null,
      after: null,
      limit: 10,
    });
    expect(first.records).toHaveLength(10);
    const after = await merchantSessionCursor(db, merchantId, first.records.at(-1)!.session.token);
    expect(after).not.toBeNull();
    // The plain page: the index read in order from the cursor, stopped at the limit, no sort.
    const [page] = await plans((q) =>
      merchantSessionRecords(q, deps, {
        merchantId,
        status: null,
        orderNumber: null,
        paymentLink: null,
        after,
        limit: 10,
      }),
    );
    expect(page).toMatch(/Index Scan using checkout_sessions_merchant_newest/);
    expect(page).toMatch(/Index Cond: \(\(merchant_id = .*ROW\(created_at, id\) < ROW\(/);
    expect(page).not.toMatch(/Seq Scan on checkout_sessions|Sort Key: s\.created_at/);
    // Filtered, the planner may sort the few rows that match, but reads only this merchant's from
    // the cursor down, through the index.
    const [filtered] = await plans((q) =>
      merchantSessionRecords(q, deps, {
        merchantId,
        status: 'open',
        orderNumber: 'O-3',
        paymentLink: null,
        after,
        limit: 10,
      }),
    );
    expect(filtered).toMatch(/Index Cond: \(\(merchant_id = .*ROW\(created_at, id\) < ROW\(/);
    expect(filtered).not.toMatch(/Seq Scan on checkout_sessions/);
    // Payment links walk their own partial index, however many checkouts the shop makes.
    const [links] = await plans((q) =>
      merchantSessionRecords(q, deps, {
        merchantId,
        status: null,
        orderNumber: null,
        paymentLink: true,
        after,
        limit: 10,
      }),
    );
    expect(links).toMatch(/checkout_sessions_payment_links/);
    expect(links).not.toMatch(/Seq Scan on checkout_sessions/);
  });
});
