/**
 * The widget's wallet API (wallet-routes.ts, otp.ts; security-requirements.md OTP-2…10, OTP-13,
 * SESS-1): send → the code arrives in the dev outbox → verify → list cards (last four) → remove;
 * no enumeration; 5 wrong tries burn a code; 10-minute expiry; single use; wallet credentials bound
 * to their session; no code in any table or log line.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { futureExpiry } from '../../test/kit/gateway/gateway-kit.ts';
import { call } from '../../test/kit/gateway/gateway-kit.ts';
import { listOutbox } from '../notify/outbox.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { OTP_RETENTION_MS, OTP_TTL_MS } from './otp.ts';
import {
  type CheckoutWorld,
  createSession,
  manualClock,
  openCheckoutWorld,
  SERVICE_KEY,
  WIDGET_HEADERS,
} from '../../test/kit/checkout/checkout-world.ts';

let shoppers = 0;
function newShopper() {
  shoppers += 1;
  const n = `${Date.now() % 100000}${shoppers}`;
  return {
    email: `wallet.${n}@example.com`,
    phone: `+1415555${String(1000 + (shoppers % 9000)).padStart(4, '0')}`,
  };
}

let ips = 0;
const nextIp = () => `198.51.100.${(ips += 1)}`;

/** The whole row text with a 6-digit code standing alone (not inside a hex digest, number or time). */
function holdsCode(text: string, code: string): boolean {
  return new RegExp(`(?<![0-9a-f.:-])${code}(?![0-9a-f])`).test(text.toLowerCase());
}

describe.each(databaseTargets())('wallet one-time codes ($name)', (target) => {
  let w: CheckoutWorld;
  const clock = manualClock();

  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open(), { now: clock.now, env: { LOG_LEVEL: 'trace' } });
    // app.ts registers the wallet routes (checkoutPlugin with the gateway's notifier).
  });
  afterAll(() => w?.close());

  async function saveCard(shopper: { email?: string; phone?: string }, number = '4242424242424242') {
    const status = await call(
      w.app,
      'UpdateToken',
      {
        token: {
          MerchantID: w.merchant.id,
          IsValidateCard: false,
          CardEmail: shopper.email,
          PhoneNumber: shopper.phone,
          CardNumber: number,
          ExpirationDate: futureExpiry(),
          NameOnCard: 'Ada Lovelace',
        },
      },
      { service: SERVICE_KEY },
    );
    expect(status.Status).toBe(true);
  }

  function session(shopper: { email: string; phone?: string }) {
    return createSession(w, {
      shopper: { email: shopper.email, firstName: 'Ada', lastName: 'Lovelace', phone: shopper.phone },
    });
  }

  function post(
    token: string,
    path: string,
    body: unknown,
    options: { ip?: string; wallet?: string } = {},
  ): Promise<LightMyRequestResponse> {
    return w.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${token}/wallet/${path}`,
      remoteAddress: options.ip ?? '203.0.113.50',
      headers: { ...WIDGET_HEADERS, ...(options.wallet ? { 'x-payframe-wallet': options.wallet } : {}) },
      payload: JSON.stringify(body),
    });
  }

  function cards(token: string, wallet?: string) {
    return w.app.inject({
      method: 'GET',
      url: `/api/checkout/sessions/${token}/wallet/cards`,
      remoteAddress: '203.0.113.50',
      headers: wallet ? { 'x-payframe-wallet': wallet } : {},
    });
  }

  /** The newest code delivered to `to` (dev outbox), or null. */
  async function deliveredCode(to: string): Promise<string | null> {
    await w.t.gateway.deps.notifier.flush();
    const [message] = await listOutbox(w.db, { to });
    return message ? (/\b(\d{6})\b/.exec(message.text)?.[1] ?? null) : null;
  }

  async function sendAndRead(token: string, to: string, body: unknown = {}) {
    const res = await post(token, 'send-code', body, { ip: nextIp() });
    expect(res.statusCode).toBe(202);
    const code = await deliveredCode(to);
    expect(code).toMatch(/^\d{6}$/);
    return { verificationId: res.json().verificationId as string, code: code! };
  }

  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('send → the code arrives by e-mail → verify → cards (last four only) → remove', async () => {
    const shopper = newShopper();
    await saveCard(shopper);
    await saveCard({ email: shopper.email }, '5555555555554444');
    const token = await session(shopper);

    const sent = await post(token, 'send-code', { email: shopper.email }, { ip: nextIp() });
    expect(sent.statusCode).toBe(202);
    expect(sent.headers['cache-control']).toBe('no-store');
    expect(sent.body).not.toMatch(/"code"|\b\d{6}\b/);
    expect(sent.json()).toEqual({
      verificationId: expect.any(String),
      channels: [{ channel: 'email', to: `w•••@example.com` }],
    });

    await w.t.gateway.deps.notifier.flush();
    const [message] = await listOutbox(w.db, { to: shopper.email });
    expect(message?.purpose).toBe('otp');
    expect(message?.text).toContain('Alpha Outfitters');
    expect(message?.text).toContain('10 minutes');
    expect(message?.text).not.toMatch(/4242|4444/);
    const code = /\b(\d{6})\b/.exec(message!.text)![1]!;

    const verified = await post(token, 'verify', { verificationId: sent.json().verificationId, code });
    expect(verified.statusCode).toBe(200);
    const { walletToken } = verified.json();
    expect(walletToken).toMatch(/^wt_[A-Za-z0-9_-]{43}$/);

    const listed = await cards(token, walletToken);
    expect(listed.statusCode).toBe(200);
    expect(listed.headers['cache-control']).toBe('no-store');
    const list = listed.json().cards as { tokenGuid: string; maskedCardNumber: string }[];
    expect(list.map((c) => c.maskedCardNumber).sort()).toEqual(['•••• 4242', '•••• 4444']);
    expect(listed.body.replace(/[0-9a-f-]{36}/g, '')).not.toMatch(/\d{5,}/);
    expect(list[0]).toEqual({
      tokenGuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      maskedCardNumber: expect.any(String),
      cardType: expect.any(String),
      nameOnCard: 'Ada Lovelace',
      displayName: expect.any(String),
      // The gateway's 'MMYY' as month and four-digit year (issue 14 §6).
      expiry: { month: 12, year: 2000 + Number(futureExpiry().slice(-2)) },
    });

    const removed = await post(token, 'remove', { tokenGuid: list[0]!.tokenGuid }, { wallet: walletToken });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ removed: true });
    expect((await cards(token, walletToken)).json().cards).toHaveLength(1);
    // A card that is not the shopper's (or already removed): 404.
    expect(
      (await post(token, 'remove', { tokenGuid: list[0]!.tokenGuid }, { wallet: walletToken })).statusCode,
    ).toBe(404);

    // No code in any table (the dev outbox aside) and no code in any log line.
    const { rows: tables } = await w.db.query<{ table_name: string }>(
      `select table_name from information_schema.tables
       where table_schema = current_schema() and table_type = 'BASE TABLE'`,
    );
    for (const { table_name } of tables) {
      if (table_name === 'notification_outbox') continue;
      const { rows } = await w.db.query<{ r: string }>(
        `select row_to_json(t)::text as r from ${table_name} t`,
      );
      for (const { r } of rows) expect(holdsCode(r, code), `${table_name}: ${r}`).toBe(false);
    }
    expect(w.t.logLines.length).toBeGreaterThan(0);
    for (const line of w.t.logLines) expect(holdsCode(line, code), line).toBe(false);
    expect(w.t.logLines.join('\n')).not.toContain(walletToken);
  });

  it('the session e-mail and phone are the default; SMS goes to the phone on file', async () => {
    const shopper = newShopper();
    await saveCard({ phone: shopper.phone });
    const token = await session(shopper);
    const res = await post(token, 'send-code', {}, { ip: nextIp() });
    expect(res.statusCode).toBe(202);
    expect(res.json().channels).toEqual([
      { channel: 'email', to: 'w•••@example.com' },
      { channel: 'sms', to: `•••• ${shopper.phone.slice(-4)}` },
    ]);
    expect(await deliveredCode(shopper.phone)).toMatch(/^\d{6}$/);
    // The e-mail holds no card: nothing sent there (OTP-8), and the answer did not say so.
    expect(await deliveredCode(shopper.email)).toBeNull();
  });

  it('an unknown contact gets the same status and body shape, and nothing is sent (OTP-7)', async () => {
    const known = newShopper();
    await saveCard(known);
    const unknown = newShopper();
    const a = await post(await session(known), 'send-code', { email: known.email }, { ip: nextIp() });
    const b = await post(await session(unknown), 'send-code', { email: unknown.email }, { ip: nextIp() });
    expect(b.statusCode).toBe(a.statusCode);
    const shape = (r: LightMyRequestResponse) => {
      const j = r.json();
      return { keys: Object.keys(j), id: j.verificationId.length, channels: j.channels };
    };
    expect(shape(b)).toEqual({ ...shape(a), channels: [{ channel: 'email', to: 'w•••@example.com' }] });
    expect(Object.keys(b.headers).sort()).toEqual(Object.keys(a.headers).sort());
    expect(await deliveredCode(unknown.email)).toBeNull();
    expect(await deliveredCode(known.email)).toMatch(/^\d{6}$/);
    // A guess at the unknown contact's verification fails like a wrong code.
    const guess = await post(await session(unknown), 'verify', {
      verificationId: b.json().verificationId,
      code: '000000',
    });
    expect(guess.statusCode).toBe(400);
  });

  it('5 wrong codes burn it: the 6th try fails even when correct', async () => {
    const shopper = newShopper();
    await saveCard(shopper);
    const token = await session(shopper);
    const { verificationId, code } = await sendAndRead(token, shopper.email, { email: shopper.email });
    for (let i = 1; i <= 5; i += 1) {
      const res = await post(token, 'verify', { verificationId, code: wrong(code) });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields[0]).toMatchObject({
        field: 'code',
        code: i < 5 ? 'code_invalid' : 'code_expired',
      });
    }
    const sixth = await post(token, 'verify', { verificationId, code });
    expect(sixth.statusCode).toBe(400);
    expect(sixth.json().error.fields[0].code).toBe('code_expired');
    expect(sixth.body).not.toContain('walletToken');
  });

  it('a code expires after 10 minutes (TTL + 1 s fails)', async () => {
    const shopper = newShopper();
    await saveCard(shopper);
    const token = await session(shopper);
    const { verificationId, code } = await sendAndRead(token, shopper.email, { email: shopper.email });
    clock.advance(OTP_TTL_MS + 1000);
    const res = await post(token, 'verify', { verificationId, code });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields[0].code).toBe('code_expired');
  });

  it('a code works once; a new send or a new verify ends the older code and credential', async () => {
    const shopper = newShopper();
    await saveCard(shopper);
    const token = await session(shopper);
    const first = await sendAndRead(token, shopper.email, { email: shopper.email });
    const ok = await post(token, 'verify', first);
    expect(ok.statusCode).toBe(200);
    const again = await post(token, 'verify', first);
    expect(again.statusCode).toBe(400);
    expect(again.json().error.fields[0].code).toBe('code_expired');

    const second = await sendAndRead(token, shopper.email, { email: shopper.email });
    const third = await sendAndRead(token, shopper.email, { email: shopper.email });
    expect((await post(token, 'verify', second)).json().error.fields[0].code).toBe('code_expired');
    const newer = await post(token, 'verify', third);
    expect(newer.statusCode).toBe(200);
    // SESS-1: the older wallet credential died with the new one.
    expect((await cards(token, ok.json().walletToken)).statusCode).toBe(401);
    expect((await cards(token, newer.json().walletToken)).statusCode).toBe(200);
  });

  it('cards need a wallet credential of this session: none, wrong or another session’s → 401', async () => {
    const shopper = newShopper();
    await saveCard(shopper);
    const token = await session(shopper);
    const other = await session(newShopper());
    const sent = await sendAndRead(token, shopper.email, { email: shopper.email });
    const { walletToken } = (await post(token, 'verify', sent)).json();
    expect((await cards(token)).statusCode).toBe(401);
    expect((await cards(token, `wt_${'A'.repeat(43)}`)).statusCode).toBe(401);
    expect((await cards(other, walletToken)).statusCode).toBe(401);
    expect(
      (await post(other, 'remove', { tokenGuid: crypto.randomUUID() }, { wallet: walletToken })).statusCode,
    ).toBe(401);
    // A code is bound to its session too.
    const again = await sendAndRead(token, shopper.email, { email: shopper.email });
    expect((await post(other, 'verify', again)).statusCode).toBe(400);
  });

  it('pruning deletes codes and wallet credentials a day after they were made, not before', async () => {
    const shopper = newShopper();
    await saveCard(shopper);
    const token = await session(shopper);
    const { verificationId, code } = await sendAndRead(token, shopper.email, { email: shopper.email });
    expect((await post(token, 'verify', { verificationId, code })).statusCode).toBe(200);
    const count = async () => {
      const v = await w.db.query<{ n: string }>(
        'select count(*) as n from checkout_otp_verifications where session_token = $1',
        [token],
      );
      const t = await w.db.query<{ n: string }>(
        'select count(*) as n from checkout_wallet_tokens where session_token = $1',
        [token],
      );
      return [Number(v.rows[0]!.n), Number(t.rows[0]!.n)];
    };
    expect(await count()).toEqual([1, 1]);
    clock.advance(OTP_RETENTION_MS - 60_000);
    await w.checkout.prune();
    expect(await count()).toEqual([1, 1]);
    clock.advance(120_000);
    await w.checkout.prune();
    expect(await count()).toEqual([0, 0]);
  });

  it('the CSRF guard applies, and bodies are validated into field errors', async () => {
    const token = await session(newShopper());
    const noHeader = await w.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${token}/wallet/send-code`,
      headers: { 'content-type': 'text/plain' },
      payload: '{}',
    });
    expect(noHeader.statusCode).toBe(403);
    const bad = await post(token, 'verify', { verificationId: 'x', code: '12ab' });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .error.fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(['code', 'verificationId']);
    const badPhone = await post(token, 'send-code', { phone: '12' }, { ip: nextIp() });
    expect(badPhone.json().error.fields[0]).toMatchObject({ field: 'phone', code: 'invalid_phone' });
  });

  it('sends are limited per destination (429, same for known and unknown contacts)', async () => {
    const shopper = newShopper();
    const ip = nextIp();
    const a = await session(shopper);
    const b = await session(shopper);
    for (let i = 0; i < 5; i += 1) {
      expect((await post(i < 3 ? a : b, 'send-code', { email: shopper.email }, { ip })).statusCode).toBe(202);
    }
    const over = await post(await session(shopper), 'send-code', { email: shopper.email }, { ip: nextIp() });
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
    expect(over.json().error.code).toBe('rate_limited');
  });
});
