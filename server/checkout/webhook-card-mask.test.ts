/**
 * A webhook body never carries a card number (issue 13 §2): its texts passed the card-number rule
 * where they came in, and the body is masked with the same detector when it is written, so a
 * session stored before that rule cannot send one to a merchant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containsCardNumber } from '../../shared/card/card-number-in-text.ts';
import type { Database } from '../db/database.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { enqueueEvent } from './webhooks.ts';

describe.each(databaseTargets())('webhook bodies ($name)', (target) => {
  let db: Database;
  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(() => db.close());

  it('masks a card number in a stored text (an order number) and keeps the rest of the body', async () => {
    const id = await enqueueEvent(
      db,
      {
        type: 'checkout.session.expired',
        url: 'https://shop.example/hooks',
        sessionToken: 'cs_legacy',
        merchantId: '100001',
        currency: 'USD',
        expiresAt: new Date('2026-01-01T00:00:00Z'),
        amount: '10.00',
        orderNumber: 'PO 4111.1111.1111.1111 / RT-123456-123456789',
      },
      new Date('2026-01-01T00:00:00Z'),
    );
    const { rows } = await db.query<{ payload: string }>(
      'select payload from checkout_webhook_events where id = $1',
      [id],
    );
    const payload = rows[0]!.payload;
    expect(containsCardNumber(payload)).toBe(false);
    expect(JSON.parse(payload).data.orderNumber).toBe('PO ****.****.****.1111 / RT-123456-123456789');
  });
});
