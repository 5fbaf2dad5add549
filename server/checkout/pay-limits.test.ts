/**
 * Junk cannot use up a session's pays (issue 13 §7): a pay request is counted against its session
 * only once it passes validation; the rest — a bad key, a bad body, a body that is not JSON, a saved
 * card without its credential — is counted against its address only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  approvedTransactions,
  cardBody,
  type CheckoutWorld,
  createSession,
  manualClock,
  newKey,
  openCheckoutWorld,
  pay,
  WIDGET_HEADERS,
} from '../../test/kit/checkout/checkout-world.ts';

const JUNK: readonly [string, (token: string, from: string) => ReturnType<typeof pay>][] = [
  ['no Idempotency-Key', (token, from) => pay(w.app, token, cardBody(), { key: null, remoteAddress: from })],
  [
    'a card number that fails its check',
    (token, from) => pay(w.app, token, cardBody('4242424242424241'), { remoteAddress: from }),
  ],
  [
    'an amount in the body',
    (token, from) => pay(w.app, token, { ...cardBody(), amount: '0.01' }, { remoteAddress: from }),
  ],
  [
    'a saved card without a wallet credential',
    (token, from) =>
      pay(
        w.app,
        token,
        { method: 'saved', tokenGuid: '0f8fad5b-d9cb-469f-a165-70867728950e', cvv: '123' },
        { remoteAddress: from },
      ),
  ],
  [
    'a body that is not JSON',
    (token, from) =>
      w.app.inject({
        method: 'POST',
        url: `/api/checkout/sessions/${token}/pay`,
        remoteAddress: from,
        headers: { ...WIDGET_HEADERS, 'idempotency-key': newKey() },
        payload: '{"method":',
      }),
  ],
];

let w: CheckoutWorld;

describe.each(databaseTargets())('pay limits count junk per address, not per session ($name)', (target) => {
  beforeAll(async () => {
    // A clock that stands still, 10 s into the current minute: no window boundary falls in a test.
    const clock = manualClock(new Date(Math.floor(Date.now() / 60_000) * 60_000 + 10_000));
    w = await openCheckoutWorld(await target.open(), {
      now: clock.now,
      limits: {
        payPerIp: { limit: 3, windowMs: 60_000 },
        payPerSession: { limit: 4, windowMs: 60_000 },
      },
    });
  });
  afterAll(() => w?.close());

  it('junk from many addresses leaves the session its pays: the shopper still pays', async () => {
    const token = await createSession(w);
    let n = 0;
    for (let round = 0; round < 2; round++) {
      for (const [name, send] of JUNK) {
        const res = await send(token, `192.0.2.${(n += 1)}`);
        expect([400, 401], name).toContain(res.statusCode);
      }
    }
    const paid = await pay(w.app, token, cardBody(), { remoteAddress: '198.51.100.77' });
    expect(paid.statusCode).toBe(200);
    expect(paid.json().status).toBe('succeeded');
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });

  it.each(JUNK.map(([name]) => name))('junk (%s) is counted per address: the fourth is 429', async (name) => {
    const send = JUNK.find(([n]) => n === name)![1];
    const token = await createSession(w);
    const from = `203.0.113.${JUNK.findIndex(([n]) => n === name) + 10}`;
    for (let i = 0; i < 3; i++) expect([400, 401]).toContain((await send(token, from)).statusCode);
    const limited = await send(token, from);
    expect(limited.statusCode).toBe(429);
    // A valid pay from that address waits too; from another address it runs.
    expect((await pay(w.app, token, cardBody(), { remoteAddress: from })).statusCode).toBe(429);
    expect(
      (await pay(w.app, token, cardBody(), { remoteAddress: from.replace('203.0.113.', '198.51.100.') }))
        .statusCode,
    ).toBe(200);
  });

  it('a cross-site request refused by the CSRF guard is not counted against the address', async () => {
    const token = await createSession(w);
    const from = '203.0.113.90';
    for (let i = 0; i < 5; i++) {
      const res = await w.app.inject({
        method: 'POST',
        url: `/api/checkout/sessions/${token}/pay`,
        remoteAddress: from,
        headers: { 'content-type': 'text/plain' },
        payload: JSON.stringify(cardBody()),
      });
      expect(res.statusCode).toBe(403);
    }
    expect((await pay(w.app, token, cardBody(), { remoteAddress: from })).statusCode).toBe(200);
  });
});
