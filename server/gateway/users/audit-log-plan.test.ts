/**
 * A merchant's audit log (audit-log.ts auditPage) is read through the merchant's own indexes of
 * migration 0030, not by a scan of every merchant's events nor a walk of the whole table by id: the
 * table is never pruned (it is append-only). One merchant holds most of the log, and a filter that
 * matches none of its events must not read them all either. On every database target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { databaseTargets } from '../../../test/kit/databases.ts';
import { queryPlans } from '../../../test/kit/query-plans.ts';
import { auditPage } from './audit-log.ts';

const QUERY = {
  users: null,
  actionPrefix: null,
  outcome: null,
  occurredFrom: null,
  occurredBefore: null,
  before: null,
  limit: 25,
} as const;

describe.each(databaseTargets())('the audit log of one merchant ($name)', (target) => {
  let db: Database;
  beforeAll(async () => {
    db = await target.open();
    // 60,000 events of 40 merchants, merchant 7 with two thirds of them, all successes.
    await db.query(
      `insert into audit_events (occurred_at, actor, action, resource, outcome, origin, detail, merchant_id)
       select now() - g * interval '1 second', 'merchant_user:' || (g % 2000), 'user.login',
              'merchant_user:' || (g % 2000), 'success', '192.0.2.1', '{}',
              case when g % 3 = 0 then 1 + g % 40 else 7 end
         from generate_series(1, 60000) g`,
    );
    await db.exec('analyze audit_events');
  });
  afterAll(async () => {
    await db?.close();
  });

  it("reads a merchant's page through its index, and one outcome through its own", async () => {
    const page = await auditPage(db, '7', QUERY);
    expect(page.events).toHaveLength(25);
    // A merchant with a small share of the log: its own index, from the newest down.
    const small = await auditPage(db, '11', QUERY);
    expect(small.events.length).toBeGreaterThan(0);
    const [newest] = await queryPlans(db, (q) => auditPage(q, '11', { ...QUERY, actionPrefix: 'user.' }));
    expect(newest).toMatch(/audit_events_merchant_newest/);
    // No failure among merchant 7's 40,000 events: found without reading them, nor the table.
    const none = await auditPage(db, '7', { ...QUERY, outcome: 'failure' });
    expect(none.events).toEqual([]);
    const [failures] = await queryPlans(db, (q) => auditPage(q, '7', { ...QUERY, outcome: 'failure' }));
    expect(failures).toMatch(/audit_events_merchant_outcome/);
    expect(failures).not.toMatch(/audit_events_pkey/);
    for (const plan of [newest, failures]) expect(plan).not.toMatch(/Seq Scan on audit_events/);
  });
});
