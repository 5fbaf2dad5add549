/**
 * Headers and limits of the checkout API: CSRF (security-requirements.md CSRF-1/2, attack row 15),
 * per-IP and per-session rate limits counted in the database (429 with Retry-After), and
 * `Cache-Control: no-store` (HDR-1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  approvedTransactions,
  type CheckoutWorld,
  cardBody,
  createSession,
  manualClock,
  newKey,
  openCheckoutWorld,
  PUBLIC_URL,
  pay,
} from '../../test/kit/checkout/checkout-world.ts';

describe.each(databaseTargets())('CSRF guard ($name)', (target) => {
  let w: CheckoutWorld;
  let token: string;
  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open());
    token = await createSession(w);
  });
  afterAll(() => w?.close());

  const url = () => `/api/checkout/sessions/${token}/pay`;

  it.each([
    ['text/plain', JSON.stringify(cardBody())],
    ['application/x-www-form-urlencoded', 'method=card&card[number]=4242424242424242'],
    [
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="method"\r\n\r\ncard\r\n--x--',
    ],
  ])('a cross-site form post (%s, cookies, no custom header) is 403 (row 15)', async (type, payload) => {
    const res = await w.app.inject({
      method: 'POST',
      url: url(),
      headers: {
        'content-type': type,
        origin: 'https://evil.example',
        cookie: 'session=abc',
        'idempotency-key': newKey(),
      },
      payload,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('forbidden');
  });

  it('JSON without the custom header is 403', async () => {
    const res = await pay(w.app, token, cardBody(), { headers: { 'x-payframe-client': '' } });
    expect(res.statusCode).toBe(403);
  });

  it('the custom header with a non-JSON body is 403', async () => {
    const res = await pay(w.app, token, cardBody(), { headers: { 'content-type': 'text/plain' } });
    expect(res.statusCode).toBe(403);
  });

  it('another Origin, or Sec-Fetch-Site cross-site, is 403 even with the header', async () => {
    expect(
      (await pay(w.app, token, cardBody(), { headers: { origin: 'https://evil.example' } })).statusCode,
    ).toBe(403);
    expect((await pay(w.app, token, cardBody(), { headers: { origin: 'null' } })).statusCode).toBe(403);
    expect(
      (await pay(w.app, token, cardBody(), { headers: { 'sec-fetch-site': 'cross-site' } })).statusCode,
    ).toBe(403);
    expect(await approvedTransactions(w.db, token)).toBe(0);
  });

  it("the widget's own request (same origin) passes", async () => {
    const res = await pay(w.app, token, cardBody(), {
      headers: { origin: PUBLIC_URL, 'sec-fetch-site': 'same-origin' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('GET changes nothing and needs no header (CSRF-2)', async () => {
    const res = await w.app.inject({ method: 'GET', url: `/api/checkout/sessions/${token}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe.each(databaseTargets())('rate limits ($name)', (target) => {
  let w: CheckoutWorld;
  beforeAll(async () => {
    // A clock that stands still: no window boundary can fall inside a test.
    const clock = manualClock(new Date('2030-01-01T00:00:10Z'));
    w = await openCheckoutWorld(await target.open(), {
      now: clock.now,
      limits: {
        payPerIp: { limit: 3, windowMs: 60_000 },
        payPerSession: { limit: 4, windowMs: 60_000 },
        readPerIp: { limit: 2, windowMs: 60_000 },
      },
    });
  });
  afterAll(() => w?.close());

  it('per address: the fourth pay from one address in a minute is 429 with Retry-After', async () => {
    const token = await createSession(w);
    const from = '192.0.2.10';
    for (let i = 0; i < 3; i++) {
      expect(
        (await pay(w.app, token, cardBody('4000000000000002'), { remoteAddress: from })).statusCode,
      ).toBe(200);
    }
    const limited = await pay(w.app, token, cardBody(), { remoteAddress: from });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
    expect(limited.headers['retry-after']).toBe('50');
    expect(await approvedTransactions(w.db, token)).toBe(0);
  });

  it('per session: the fifth pay on one session is 429 whatever the address', async () => {
    const token = await createSession(w);
    for (let i = 0; i < 4; i++) {
      const res = await pay(w.app, token, cardBody('4000000000000002'), {
        remoteAddress: `192.0.2.${20 + i}`,
      });
      expect(res.statusCode).toBe(200);
    }
    expect((await pay(w.app, token, cardBody(), { remoteAddress: '192.0.2.99' })).statusCode).toBe(429);
  });

  it('session loads per address', async () => {
    const token = await createSession(w);
    const load = () =>
      w.app.inject({ method: 'GET', url: `/api/checkout/sessions/${token}`, remoteAddress: '192.0.2.50' });
    expect((await load()).statusCode).toBe(200);
    expect((await load()).statusCode).toBe(200);
    expect((await load()).statusCode).toBe(429);
  });
});
