/**
 * Spec mode (issue 20): the checkout in front of a Transaction Service asked only through the spec's
 * 21 operations — load, pay approved and declined, ACH, the signed return to ReturnUrl, a session
 * the service will not resolve, a merchant the checkout does not know, and a lost answer settled by
 * the history lookup without a second charge.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalRedirectString, REDIRECT_PARAMS } from '../../shared/checkout/redirect-signature.ts';
import { specOperations } from '../../shared/contract/operations.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  achBody,
  approvedTransactions,
  cardBody,
  manualClock,
  newKey,
  pay,
  sessionBody,
  WIDGET_HEADERS,
} from '../../test/kit/checkout/checkout-world.ts';
import { listOutbox } from '../notify/outbox.ts';
import {
  invoiceSession,
  openSpecWorld,
  returningSession,
  type SpecWorld,
} from '../../test/kit/checkout/spec-world.ts';
import { UNKNOWN_MERCHANT_MESSAGE } from './spec-port.ts';
import { setSpecMerchant, specSecretBox } from './spec-merchants.ts';

const SPEC_NAMES: ReadonlySet<string> = new Set(specOperations.map((o) => o.name));

function load(w: SpecWorld, token: string) {
  return w.app.inject({ method: 'GET', url: `/api/checkout/sessions/${token}` });
}

/** The merchant's own check of a redirect: HMAC-SHA256 of the canonical string under its secret. */
function verifyRedirect(url: string, secret: string): boolean {
  const u = new URL(url);
  const params = Object.fromEntries(REDIRECT_PARAMS.map((n) => [n, u.searchParams.get(n) ?? '']));
  const expected = crypto
    .createHmac('sha256', secret)
    .update(canonicalRedirectString(params as never), 'utf8')
    .digest('hex');
  return u.searchParams.get('signature') === expected;
}

describe.each(databaseTargets())('the checkout in spec mode ($name)', (target) => {
  let w: SpecWorld;
  beforeAll(async () => {
    w = await openSpecWorld(await target.open(), 'Spec Outfitters');
  });
  afterAll(async () => {
    await w?.close();
  });

  it('loads an invoice session through GetHostedPaymentDetails only, and offers no cancel or removal', async () => {
    const token = await invoiceSession(w, '31.50');
    w.soapCalls.length = 0;
    const view = await load(w, token);
    expect(view.statusCode).toBe(200);
    expect(view.json()).toMatchObject({
      status: 'open',
      amount: '31.50',
      expiresAt: null,
      merchant: { name: 'Spec Outfitters' },
      methods: ['card', 'ach'],
      threeDSecure: false,
      embedOrigins: ['https://shop.example'],
      capabilities: { cancel: false, removeSavedCard: false },
    });
    expect(w.soapCalls).toEqual(['GetHostedPaymentDetails']);
  });

  it('pays a card once, signs the return to ReturnUrl with the merchant secret, and replays by key', async () => {
    const token = await returningSession(w, '24.99');
    w.soapCalls.length = 0;
    const key = newKey();
    const paid = await pay(w.app, token, cardBody(), { key });
    expect(paid.statusCode).toBe(200);
    const body = paid.json();
    expect(body.status).toBe('succeeded');
    expect(body.redirectUrl.startsWith('https://shop.example/thanks?cart=9&')).toBe(true);
    expect(verifyRedirect(body.redirectUrl, w.merchant.redirectSecret)).toBe(true);
    expect(verifyRedirect(body.redirectUrl, w.merchant.key)).toBe(false);
    expect((await pay(w.app, token, cardBody(), { key })).body).toBe(paid.body);
    // Paid: the receipt and the same signed redirect on a reload, without asking the service.
    w.soapCalls.length = 0;
    const reloaded = await load(w, token);
    expect(reloaded.json()).toMatchObject({ status: 'paid', redirectUrl: body.redirectUrl });
    expect(w.soapCalls).toEqual([]);
    const again = await pay(w.app, token, cardBody());
    expect(again.json().status).toBe('already_paid');
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });

  it('a decline is told as one, and the session stays payable', async () => {
    const token = await invoiceSession(w, '12.00', 'INV-DECLINE');
    const declined = await pay(w.app, token, cardBody('4000000000000002'));
    expect(declined.json()).toMatchObject({ status: 'declined' });
    expect((await load(w, token)).json().status).toBe('open');
    expect((await pay(w.app, token, cardBody())).json().status).toBe('succeeded');
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });

  it('pays by bank account (ACH)', async () => {
    const token = await invoiceSession(w, '80.00', 'INV-ACH');
    const paid = await pay(w.app, token, achBody());
    expect(paid.json()).toMatchObject({ status: 'succeeded' });
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });

  it("shows the service's own words for a session it will not resolve, and takes no payment", async () => {
    const token = await invoiceSession(w, '5.00', 'INV-PAID');
    expect((await pay(w.app, token, cardBody())).json().status).toBe('succeeded');
    // A session paid elsewhere (not through this checkout) as the service tells it.
    const other = await invoiceSession(w, '6.00', 'INV-ELSEWHERE');
    await w.merchantClient.ProcessTransaction({
      request: {
        ...(await import('../../shared/contract/neutral.ts')).requiredDefaults('Request'),
        MerchantID: w.merchant.id,
        TransactionType: 'sale',
        HostedPaymentToken: other,
        CardNumber: '4242424242424242',
        ExpirationDate: '12/40',
        CVV2: '123',
      },
    });
    const view = (await load(w, other)).json();
    expect(view.status).toBe('expired');
    expect(view.unavailableMessage).toMatch(/\S/);
    const refused = await pay(w.app, other, cardBody());
    expect(refused.statusCode).toBe(409);
    expect(await approvedTransactions(w.db, other)).toBe(1);
  });

  it('refuses a session whose merchant has no entry on this checkout, saying so', async () => {
    const token = await invoiceSession(w, '7.00', 'INV-RENAMED');
    await setSpecMerchant(
      w.db,
      specSecretBox(Buffer.alloc(32, 7)),
      { id: w.merchant.id, name: 'Another Name', origins: [], secret: w.merchant.redirectSecret },
      new Date(),
    );
    try {
      expect((await load(w, token)).json()).toMatchObject({
        status: 'expired',
        unavailableMessage: UNKNOWN_MERCHANT_MESSAGE,
      });
      expect((await pay(w.app, token, cardBody())).statusCode).toBe(409);
      expect(await approvedTransactions(w.db, token)).toBe(0);
    } finally {
      await setSpecMerchant(
        w.db,
        specSecretBox(Buffer.alloc(32, 7)),
        {
          id: w.merchant.id,
          name: 'Spec Outfitters',
          origins: ['https://shop.example'],
          secret: w.merchant.redirectSecret,
        },
        new Date(),
      );
    }
  });

  it('saves a card, then a later session pays with it after a one-time code (SendVerificationCode, GetStoredCards)', async () => {
    const email = `saver-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const first = await returningSession(w, '10.00', email);
    const saved = await pay(w.app, first, cardBody('5555555555554444', { saveCard: true }));
    expect(saved.json().status).toBe('succeeded');

    const second = await returningSession(w, '11.00', email);
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      w.app.inject({
        method: 'POST',
        url: `/api/checkout/sessions/${second}/${path}`,
        headers: { ...WIDGET_HEADERS, ...headers },
        payload: JSON.stringify(body),
      });
    const sent = await post('wallet/send-code', {});
    expect(sent.statusCode).toBe(202);
    await w.checkout.gateway.deps.notifier.flush();
    const [message] = await listOutbox(w.db, { to: email });
    const code = /\b(\d{6})\b/.exec(message?.text ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const verified = await post('wallet/verify', { verificationId: sent.json().verificationId, code });
    expect(verified.statusCode).toBe(200);
    const wallet = verified.json().walletToken as string;
    const list = await w.app.inject({
      method: 'GET',
      url: `/api/checkout/sessions/${second}/wallet/cards`,
      headers: { 'x-payframe-wallet': wallet },
    });
    const cards = list.json().cards as { tokenGuid: string; maskedCardNumber: string }[];
    expect(cards.map((c) => c.maskedCardNumber)).toEqual(['•••• 4444']);
    // Removing a saved card is not in the spec: not offered, and refused if asked.
    const removed = await post(
      'wallet/remove',
      { tokenGuid: cards[0]!.tokenGuid },
      { 'x-payframe-wallet': wallet },
    );
    expect(removed.statusCode).toBe(501);
    const paid = await pay(
      w.app,
      second,
      { method: 'saved', tokenGuid: cards[0]!.tokenGuid, cvv: '123' },
      { headers: { 'x-payframe-wallet': wallet } },
    );
    expect(paid.json()).toMatchObject({ status: 'succeeded', receipt: { maskedCard: '•••• 4444' } });
    expect(await approvedTransactions(w.db, second)).toBe(1);
  });

  it('uses none but the spec operations', () => {
    expect(w.soapCalls.length).toBeGreaterThan(0);
    expect(w.soapCalls.filter((op) => !SPEC_NAMES.has(op))).toEqual([]);
  });
});

describe.each(databaseTargets())('spec mode: a lost answer ($name)', (target) => {
  let w: SpecWorld;
  const clock = manualClock();
  /** What the next ProcessTransaction meets: its answer lost after the service acted, or never sent. */
  let fault: 'lose-answer' | 'refuse' | null = null;
  beforeAll(async () => {
    const faulty: typeof fetch = async (input, init) => {
      const isPay = String((init?.headers as Record<string, string>)?.soapaction ?? '').includes(
        'ProcessTransaction',
      );
      const now = isPay ? fault : null;
      if (now) fault = null;
      if (now === 'refuse') throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
      const res = await fetch(input, init);
      if (now === 'lose-answer') {
        await res.arrayBuffer();
        throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
      }
      return res;
    };
    w = await openSpecWorld(await target.open(), 'Lossy Outfitters', {
      now: clock.now,
      fetch: faulty,
      callLimitMs: 6_000,
      staleAttemptMs: 10_000,
    });
  });
  afterAll(async () => {
    await w?.close();
  });

  it('an answer lost after the service charged: confirmed by the history, never charged again', async () => {
    const token = await invoiceSession(w, '42.00', 'INV-LOST');
    const key = newKey();
    fault = 'lose-answer';
    const first = await pay(w.app, token, cardBody(), { key });
    expect(first.statusCode).toBeGreaterThanOrEqual(500);
    // While its call may still be answered, the same key waits: nothing is sent again.
    const early = await pay(w.app, token, cardBody(), { key });
    expect(early.statusCode).toBeGreaterThanOrEqual(400);
    expect(await approvedTransactions(w.db, token)).toBe(1);
    clock.advance(11_000);
    const tally = await w.core.recoverAttempts();
    expect(tally.succeeded).toBe(1);
    const replay = await pay(w.app, token, cardBody(), { key });
    expect(replay.json().status).toBe('succeeded');
    expect((await load(w, token)).json().status).toBe('paid');
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });

  it('a request that never reached the service: found unpaid, and the retry pays once', async () => {
    const token = await invoiceSession(w, '43.00', 'INV-REFUSED');
    const key = newKey();
    fault = 'refuse';
    const first = await pay(w.app, token, cardBody(), { key });
    expect(first.statusCode).toBeGreaterThanOrEqual(500);
    clock.advance(11_000);
    const tally = await w.core.recoverAttempts();
    expect(tally.failed).toBe(1);
    const retry = await pay(w.app, token, cardBody(), { key });
    expect(retry.json().status).toBe('succeeded');
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });

  it('an attempt the history cannot decide is asked about less often, and holds up no other', async () => {
    const rechecks = async (token: string) =>
      (
        await w.db.query<{ undecided_checks: number; next_check_at: Date | null }>(
          'select undecided_checks, next_check_at from checkout_attempts where session_token = $1',
          [token],
        )
      ).rows;
    // A decline whose answer was lost: the service's history shows a row of the token without an
    // approval code, which the checkout never recorded — the lookup cannot decide it.
    const undecided = await invoiceSession(w, '44.00', 'INV-UNDECIDED');
    fault = 'lose-answer';
    const lost = await pay(w.app, undecided, cardBody('4000000000000002'), { key: newKey() });
    expect(lost.statusCode).toBeGreaterThanOrEqual(500);
    clock.advance(11_000);
    expect(await w.core.recoverAttempts()).toEqual({ succeeded: 0, failed: 0, unknown: 1 });
    expect(await rechecks(undecided)).toEqual([
      { undecided_checks: 1, next_check_at: new Date(clock.now().getTime() + 5_000) },
    ]);
    // Not due yet: the run does not ask the service about it.
    w.soapCalls.length = 0;
    expect(await w.core.recoverAttempts()).toEqual({ succeeded: 0, failed: 0, unknown: 0 });
    expect(w.soapCalls).toEqual([]);

    // Another attempt goes stale meanwhile: it is recovered, and the undecided one, due again,
    // is asked once more and waits twice as long.
    const other = await invoiceSession(w, '45.00', 'INV-OTHER');
    fault = 'refuse';
    expect((await pay(w.app, other, cardBody(), { key: newKey() })).statusCode).toBeGreaterThanOrEqual(500);
    clock.advance(11_000);
    expect(await w.core.recoverAttempts()).toEqual({ succeeded: 0, failed: 1, unknown: 1 });
    expect(await rechecks(undecided)).toEqual([
      { undecided_checks: 2, next_check_at: new Date(clock.now().getTime() + 10_000) },
    ]);

    // The shopper's own try asks at once, without moving the wait; still undecided, so nothing is
    // sent and nothing charged.
    w.soapCalls.length = 0;
    const again = await pay(w.app, undecided, cardBody(), { key: newKey() });
    expect(again.statusCode).toBeGreaterThanOrEqual(400);
    expect(w.soapCalls).toContain('GetHostedPaymentDetails');
    expect(w.soapCalls).not.toContain('ProcessTransaction');
    expect(await rechecks(undecided)).toEqual([
      { undecided_checks: 2, next_check_at: new Date(clock.now().getTime() + 10_000) },
    ]);
    expect(await approvedTransactions(w.db, undecided)).toBe(0);
  });
});

describe.each(databaseTargets())('spec mode: merchant REST ($name)', (target) => {
  let w: SpecWorld;
  beforeAll(async () => {
    w = await openSpecWorld(await target.open(), 'Rest Outfitters');
  });
  afterAll(async () => {
    await w?.close();
  });

  it('is not offered (501), and never relays a caller under the checkout’s own credential', async () => {
    const token = await invoiceSession(w, '9.00', 'INV-REST');
    w.soapCalls.length = 0;
    const auth = { authorization: w.merchant.authorization };
    const read = await w.app.inject({ method: 'GET', url: `/v1/checkout-sessions/${token}`, headers: auth });
    expect(read.statusCode).toBe(501);
    expect(read.json().error.message).toContain('only the spec');
    const forged = await w.app.inject({
      method: 'GET',
      url: `/v1/checkout-sessions/${token}`,
      headers: { authorization: 'Basic Zm9vOmJhcg==' },
    });
    expect([401, 501]).toContain(forged.statusCode); // refused before or at the port, never answered
    const created = await w.app.inject({
      method: 'POST',
      url: '/v1/checkout-sessions',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: JSON.stringify(sessionBody()),
    });
    expect(created.statusCode).toBe(501);
    // The shopper's cancel: not offered either (the page hides it).
    const cancel = await w.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${token}/cancel`,
      headers: { 'x-payframe-client': 'widget', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(cancel.statusCode).toBe(501);
    expect(w.soapCalls.filter((op) => op !== 'GetHostedPaymentDetails')).toEqual([]);
  });

  it('answers every payments call 501 and asks the service nothing; a refund key is not used up', async () => {
    w.soapCalls.length = 0;
    const auth = { authorization: w.merchant.authorization };
    for (const url of ['/v1/payments', '/v1/payments/500000001']) {
      const res = await w.app.inject({ method: 'GET', url, headers: auth });
      expect(res.statusCode, url).toBe(501);
    }
    for (const action of ['refunds', 'capture', 'void']) {
      const res = await w.app.inject({
        method: 'POST',
        url: `/v1/payments/500000001/${action}`,
        headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': `spec-${action}` },
        payload: '{}',
      });
      expect(res.statusCode, action).toBe(501);
      expect(res.json().error.code).toBe('not_implemented');
    }
    const { rows } = await w.db.query("select state from merchant_payment_actions where state = 'started'");
    expect(rows).toEqual([]);
    expect(w.soapCalls).toEqual([]);
  });
});
