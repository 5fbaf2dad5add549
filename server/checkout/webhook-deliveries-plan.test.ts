/**
 * A payment's page lists its session's webhook deliveries (webhooks.ts webhookDeliveriesOf); the
 * events table is never pruned, so the read must go through checkout_webhook_events_session
 * (migration 0028), not scan every merchant's events — on every database target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { queryPlans } from '../../test/kit/query-plans.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { webhookDeliveriesOf } from './webhook-deliveries.ts';

describe.each(databaseTargets())('webhook deliveries of one session ($name)', (target) => {
  let db: Database;
  beforeAll(async () => {
    db = await target.open();
    // 20,000 events of 5,000 sessions of 50 merchants.
    await db.query(
      `insert into checkout_webhook_events (id, session_token, merchant_id, url, type, payload, state,
         attempts, next_attempt_at, created_at, delivered_at)
       select 'evt_' || g, 'cs_' || (g % 5000), 1 + g % 50, 'https://shop.example/hook',
              'checkout.session.completed', '{}', 'delivered', 1, now(), now() - g * interval '1 second', now()
         from generate_series(1, 20000) g`,
    );
    await db.exec('analyze checkout_webhook_events');
  });
  afterAll(async () => {
    await db?.close();
  });

  it('reads through checkout_webhook_events_session', async () => {
    const events = await webhookDeliveriesOf(db, '8', 'cs_7');
    expect(events.length).toBeGreaterThan(0);
    const plans = await queryPlans(db, (q) => webhookDeliveriesOf(q, '8', 'cs_7'));
    expect(plans).toHaveLength(1);
    const plan = plans[0]!;
    expect(plan).toMatch(/checkout_webhook_events_session/);
    expect(plan).not.toMatch(/Seq Scan on checkout_webhook_events/);
  });
});
