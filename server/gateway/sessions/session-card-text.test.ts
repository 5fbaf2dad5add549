/**
 * A checkout session never stores a card number in a text field, whoever writes it: the gateway's
 * operations meet the rule before their handler (gateway.ts), and the session store meets it again
 * for callers that write sessions directly — the operator's `payframe session create`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayframeError } from '../../errors.ts';
import { databaseTargets } from '../../../test/kit/databases.ts';
import { type GatewayWorld, openWorld } from '../../../test/kit/gateway/gateway-kit.ts';

describe.each(databaseTargets())('the session store and card numbers ($name)', (target) => {
  let w: GatewayWorld;
  beforeAll(async () => {
    w = await openWorld(target);
  });
  afterAll(() => w.close());

  const input = (fields: Record<string, string>) => ({
    amount: '10.00',
    currency: 'USD',
    orderNumber: null,
    email: null,
    phoneNumber: null,
    firstName: null,
    lastName: null,
    returnUrl: null,
    webhookUrl: null,
    locale: null,
    ...fields,
  });

  it('refuses a card number in any text field, naming the field, and stores nothing', async () => {
    const { sessions, merchants } = w.t.gateway.deps;
    const merchant = (await merchants.get(w.db, w.a.id))!;
    for (const [field, value] of [
      ['orderNumber', 'PO 4111.1111.1111.1111'],
      ['firstName', '5555 5555 5555 4444'],
      ['phoneNumber', '+3782 822463 10005'],
    ] as const) {
      const err = await sessions.create(w.db, merchant, input({ [field]: value })).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PayframeError);
      expect((err as PayframeError).fields).toEqual([
        expect.objectContaining({ field, code: 'card_number' }),
      ]);
      expect((err as PayframeError).message).not.toMatch(/\d{4}/);
    }
    const { rows } = await w.db.query<{ n: number }>('select count(*)::int as n from checkout_sessions');
    expect(rows[0]!.n).toBe(0);
    const ok = await sessions.create(w.db, merchant, input({ orderNumber: 'RT-123456-123456789' }));
    expect(ok.orderNumber).toBe('RT-123456-123456789');
  });
});
