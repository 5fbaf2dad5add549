/**
 * A closed checkout session issues no wallet credential (issue 13 §9; SESS-2): a code sent while the
 * session was open, verified once it is paid, expired or canceled, is refused with the session's
 * state, and no credential row is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOutbox } from '../notify/outbox.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  cardBody,
  type CheckoutWorld,
  createSession,
  manualClock,
  openCheckoutWorld,
  pay,
  WIDGET_HEADERS,
} from '../../test/kit/checkout/checkout-world.ts';

let shoppers = 0;
const newEmail = () => `closed.${Date.now() % 100000}.${(shoppers += 1)}@example.com`;
let ips = 0;
const nextIp = () => `198.51.100.${(ips += 1) % 250}`;

describe.each(databaseTargets())('wallet/verify on a closed session ($name)', (target) => {
  let w: CheckoutWorld;
  const clock = manualClock();
  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open(), { now: clock.now });
  });
  afterAll(() => w?.close());

  function post(token: string, path: string, body: unknown) {
    return w.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${token}/${path}`,
      remoteAddress: nextIp(),
      headers: WIDGET_HEADERS,
      payload: JSON.stringify(body),
    });
  }

  /** A session with a code sent to its shopper while it was open: the session and the code. */
  async function sessionWithCode() {
    const email = newEmail();
    // A card saved for the shopper first: codes go only to contacts that hold a wallet (OTP-7).
    const first = await createSession(w, { shopper: { email } });
    expect((await pay(w.app, first, cardBody('4242424242424242', { saveCard: true }))).json().status).toBe(
      'succeeded',
    );
    const token = await createSession(w, { orderNumber: 'C-2', shopper: { email } });
    const sent = await post(token, 'wallet/send-code', {});
    expect(sent.statusCode).toBe(202);
    await w.t.gateway.deps.notifier.flush();
    const [message] = await listOutbox(w.db, { to: email });
    const code = /\b(\d{6})\b/.exec(message?.text ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    return { token, verify: { verificationId: sent.json().verificationId as string, code } };
  }

  async function credentials(token: string): Promise<number> {
    const { rows } = await w.db.query<{ n: string }>(
      'select count(*) as n from checkout_wallet_tokens where session_token = $1',
      [token],
    );
    return Number(rows[0]?.n);
  }

  const closers: readonly [string, string, (token: string) => Promise<void>][] = [
    [
      'paid',
      'session_paid',
      async (token) => {
        expect((await pay(w.app, token, cardBody())).json().status).toBe('succeeded');
      },
    ],
    [
      'canceled',
      'session_canceled',
      async (token) => {
        expect((await post(token, 'cancel', {})).statusCode).toBe(200);
      },
    ],
    [
      'expired',
      'session_expired',
      async () => {
        clock.advance(61 * 60_000);
      },
    ],
  ];

  it.each(closers)(
    'verify on a session closed as %s issues no credential (%s)',
    async (_state, code, close) => {
      const { token, verify } = await sessionWithCode();
      await close(token);
      const res = await post(token, 'wallet/verify', verify);
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe(code);
      expect(res.body).not.toContain('wt_');
      expect(await credentials(token)).toBe(0);
    },
  );

  it('an open session still issues one (the same steps without closing it)', async () => {
    const { token, verify } = await sessionWithCode();
    const res = await post(token, 'wallet/verify', verify);
    expect(res.statusCode).toBe(200);
    expect(res.json().walletToken).toMatch(/^wt_/);
    expect(await credentials(token)).toBe(1);
  });
});
