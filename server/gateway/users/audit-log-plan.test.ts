/**
 * A merchant's audit log (audit-log.ts auditPage) is read through the indexes of migration 0030 —
 * by actor and by resource — not by a scan of every merchant's events: the table is never pruned
 * (it is append-only). On every database target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { databaseTargets } from '../../testing/databases.ts';
import { queryPlans } from '../../testing/query-plans.ts';
import { auditPage } from './audit-log.ts';

const QUERY = {
  actionPrefix: null,
  outcome: null,
  occurredFrom: null,
  occurredBefore: null,
  before: null,
  limit: 25,
} as const;

describe.each(databaseTargets())('the audit log of one merchant ($name)', (target) => {
  let db: Database;
  const refs = ['merchant_user:7', 'merchant_user:8'];
  beforeAll(async () => {
    db = await target.open();
    // 20,000 events of 2,000 users: what each did, and half of them about the user too.
    await db.query(
      `insert into audit_events (occurred_at, actor, action, resource, outcome, origin, detail)
       select now() - g * interval '1 second', 'merchant_user:' || (g % 2000), 'user.login',
              case when g % 2 = 0 then 'merchant_user:' || (g % 2000) end, 'success', '192.0.2.1', '{}'
         from generate_series(1, 20000) g`,
    );
    await db.exec('analyze audit_events');
  });
  afterAll(async () => {
    await db?.close();
  });

  it('reads through audit_events_actor and audit_events_resource', async () => {
    const page = await auditPage(db, refs, QUERY);
    expect(page.events).toHaveLength(20);
    const plans = await queryPlans(db, (q) => auditPage(q, refs, { ...QUERY, actionPrefix: 'user.' }));
    expect(plans).toHaveLength(1);
    const plan = plans[0]!;
    expect(plan).toMatch(/audit_events_actor/);
    expect(plan).toMatch(/audit_events_resource/);
    expect(plan).not.toMatch(/Seq Scan on audit_events/);
  });
});
