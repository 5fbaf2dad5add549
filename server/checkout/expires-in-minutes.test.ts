/**
 * How long a checkout session stays payable, chosen by its creator (issue 15's payment links): 1 to
 * 43,200 minutes (30 days), SESSION_TTL_MINUTES when absent; outside the range refused naming the
 * field — over SOAP (CreateHostedPayment's ExpiresInMinutes, ErrorField) and merchant REST
 * (`expiresInMinutes`, a 400 field error). On every database target, on a fixed clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EXPIRES_IN_MINUTES } from '../../shared/checkout/session-schemas.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { soapCall } from '../../test/kit/gateway/soap-call.ts';
import {
  type CheckoutWorld,
  openCheckoutWorld,
  sessionBody,
} from '../../test/kit/checkout/checkout-world.ts';

const NOW = new Date('2026-03-02T10:00:00.000Z');
const TTL_MINUTES = 45;
const after = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000).toISOString();

describe.each(databaseTargets())('a session’s time to pay ($name)', (target) => {
  let w: CheckoutWorld;
  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open(), {
      now: () => NOW,
      env: { SESSION_TTL_MINUTES: String(TTL_MINUTES) },
    });
  });
  afterAll(() => w?.close());

  const soap = async (expiresInMinutes?: number) => {
    const reply = await soapCall(
      w.app,
      'CreateHostedPayment',
      {
        request: {
          MerchantID: w.merchant.id,
          Amount: '5.00',
          ...(expiresInMinutes === undefined ? {} : { ExpiresInMinutes: expiresInMinutes }),
        },
      },
      { merchantId: w.merchant.id, key: w.merchant.key },
    );
    expect(reply.status).toBe(200);
    return reply.result as {
      Success: boolean;
      ExpiresAt: string | null;
      ErrorField?: string;
      Message?: string;
    };
  };
  const rest = (extra: Record<string, unknown>) =>
    w.app.inject({
      method: 'POST',
      url: '/v1/checkout-sessions',
      headers: { authorization: w.merchant.authorization },
      payload: sessionBody(extra),
    });

  it('CreateHostedPayment: the server’s time when absent, else the minutes asked, 1 to 43,200', async () => {
    expect(MAX_EXPIRES_IN_MINUTES).toBe(43_200);
    const expiry = async (minutes?: number) => {
      const created = await soap(minutes);
      expect(created.Success).toBe(true);
      return new Date(created.ExpiresAt!).toISOString();
    };
    expect(await expiry()).toBe(after(TTL_MINUTES));
    expect(await expiry(1)).toBe(after(1));
    expect(await expiry(43_200)).toBe(after(43_200));
  });

  it.each([0, -5, 43_201])('CreateHostedPayment refuses %i minutes, naming the field', async (minutes) => {
    expect(await soap(minutes)).toMatchObject({
      Success: false,
      ErrorField: 'expiresInMinutes',
      Message: 'expiresInMinutes must be a whole number from 1 to 43200.',
      ExpiresAt: null,
    });
  });

  it('REST: expiresInMinutes reaches the session', async () => {
    const res = await rest({ expiresInMinutes: 7 * 24 * 60 });
    expect(res.statusCode).toBe(201);
    expect(res.json().expiresAt).toBe(after(7 * 24 * 60));
    const plain = await rest({});
    expect(plain.json().expiresAt).toBe(after(TTL_MINUTES));
  });

  it.each([0, 43_201, 1.5, '60'])('REST refuses expiresInMinutes %j as a field error', async (value) => {
    const res = await rest({ expiresInMinutes: value });
    expect(res.statusCode).toBe(400);
    const fields = res.json().error.fields as { field: string }[];
    expect(fields.map((f) => f.field)).toEqual(['expiresInMinutes']);
  });
});
