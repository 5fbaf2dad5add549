/**
 * The dashboard's queries stay index-bound as a merchant's history grows, on every database target:
 * with thousands of transactions of many merchants, a page of ListPayments walks
 * transactions_merchant_created from the cursor down, the overview reads its 30 days through it,
 * and the batches' totals join through transactions_batch (migration 0028) — never a scan of the
 * whole table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../db/database.ts';
import { queryPlans } from '../../../test/kit/query-plans.ts';
import { databaseTargets } from '../../../test/kit/databases.ts';
import { latestBatches, paymentDays } from './payment-figures.ts';
import { paymentCursor, paymentPage, type PaymentQuery } from './payment-list.ts';

describe.each(databaseTargets())('the dashboard queries ($name)', (target) => {
  let db: Database;
  const merchants: string[] = [];
  beforeAll(async () => {
    db = await target.open();
    for (let i = 0; i < 40; i++) {
      const { rows } = await db.query<{ id: string }>(
        `insert into merchants (public_code, name, transaction_key_enc, reader_key_enc)
         values ($1, $1, 'x', 'x') returning id`,
        [`payment-plan-${i}`],
      );
      merchants.push(String(rows[0]!.id));
    }
    // 16,000 transactions, 400 a merchant, over 40 days; a batch a merchant holds its sales older than 35.
    await db.query(
      `insert into transactions (merchant_id, kind, method, status, amount, approved_amount, response_code,
         response_message, settlement_status, created_at)
       select ($1::bigint[])[1 + g % 40], case when g % 5 = 0 then 'auth' else 'sale' end, 'card',
              case when g % 7 = 0 then 'declined' else 'approved' end, 10, 10, '00', 'Approved', 'Pending',
              now() - g * interval '216 seconds'
         from generate_series(1, 16000) g`,
      [merchants],
    );
    await db.query(
      `insert into batches (merchant_id, batch_number, settlement_id)
       select id, 1, 1000 + row_number() over (order by id) from merchants`,
    );
    await db.query(
      `update transactions t set batch_id = b.id, settlement_status = 'Settled'
         from batches b where b.merchant_id = t.merchant_id and t.created_at < now() - interval '35 days' and t.kind = 'sale'`,
    );
    await db.exec('analyze transactions');
    await db.exec('analyze batches');
  });
  afterAll(async () => {
    await db?.close();
  });

  const plans = (run: (q: Queryable) => Promise<unknown>) => queryPlans(db, run);

  it('walks transactions_merchant_created from the cursor down, for a page and a filtered page', async () => {
    const merchantId = merchants[3]!;
    const query: PaymentQuery = {
      merchantId,
      states: null,
      method: null,
      createdFrom: null,
      createdBefore: null,
      search: null,
      after: null,
      limit: 25,
    };
    const first = await paymentPage(db, query);
    expect(first.payments).toHaveLength(25);
    expect(first.hasMore).toBe(true);
    const after = await paymentCursor(db, merchantId, first.payments.at(-1)!.id);
    expect(after).not.toBeNull();
    const second = await paymentPage(db, { ...query, after });
    expect(second.payments[0]!.id).not.toBe(first.payments.at(-1)!.id);
    const [page] = await plans((q) => paymentPage(q, { ...query, after }));
    expect(page).toMatch(/Index Scan using transactions_merchant_created on transactions t/);
    expect(page).not.toMatch(/Seq Scan on transactions t\b/);
    const [filtered] = await plans((q) =>
      paymentPage(q, { ...query, after, states: ['Settled'], search: '10', method: 'card' }),
    );
    expect(filtered).toMatch(/transactions_merchant_created/);
    expect(filtered).not.toMatch(/Seq Scan on transactions t\b/);
  });

  it('reads 30 days through the same index, and batches through transactions_batch', async () => {
    const merchantId = merchants[6]!;
    const before = new Date();
    const from = new Date(before.getTime() - 30 * 86_400_000);
    const days = await paymentDays(db, merchantId, from, before, 'USD');
    expect(days.reduce((n, d) => n + d.approved + d.declined, 0)).toBeGreaterThan(0);
    const [overview] = await plans((q) => paymentDays(q, merchantId, from, before, 'USD'));
    expect(overview).toMatch(/transactions_merchant_created/);
    expect(overview).not.toMatch(/Seq Scan on transactions/);
    const [batch] = await latestBatches(db, merchantId, 50);
    expect(batch!.count).toBeGreaterThan(0);
    const [batches] = await plans((q) => latestBatches(q, merchantId, 50));
    expect(batches).toMatch(/transactions_batch/);
    expect(batches).not.toMatch(/Seq Scan on transactions/);
  });
});
