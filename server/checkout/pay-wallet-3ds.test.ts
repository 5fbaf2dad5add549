/**
 * The rest of the widget's pay API: finishing a 3-D Secure challenge (the result pays once),
 * "save this card" then paying with the saved card behind a one-time code (CVV typed again, the
 * wallet credential bound to its session), canceling a session, and what a load tells the widget
 * about embedding (the merchant's origins, the session's locale).
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../gateway/processor/simulator.ts';
import { listOutbox } from '../notify/outbox.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  addMerchant,
  approvedTransactions,
  cardBody,
  type CheckoutWorld,
  createSession,
  newKey,
  openCheckoutWorld,
  pay,
  SHOP_ORIGIN,
  WIDGET_HEADERS,
  withPayCheckoutSession,
} from '../../test/kit/checkout/checkout-world.ts';

let shoppers = 0;
const newEmail = () => `saved.${Date.now() % 100000}.${(shoppers += 1)}@example.com`;
let ips = 0;
const nextIp = () => `198.51.100.${(ips += 1) % 250}`;

describe.each(databaseTargets())('pay API: 3-D Secure, saved cards, cancel ($name)', (target) => {
  let w: CheckoutWorld;
  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open());
  });
  afterAll(() => w?.close());

  function post(token: string, path: string, body: unknown, headers: Record<string, string> = {}) {
    return w.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${token}/${path}`,
      remoteAddress: nextIp(),
      headers: { ...WIDGET_HEADERS, ...headers },
      payload: JSON.stringify(body),
    });
  }

  /** Answers the sandbox challenge as the test bank's own page would, then reads its result. */
  async function answerChallenge(challengeUrl: string, outcome: 'authenticate' | 'fail') {
    const path = new URL(challengeUrl).pathname;
    const answered = await w.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `outcome=${outcome}`,
    });
    expect(answered.statusCode).toBe(200);
    const result = await w.app.inject({ method: 'GET', url: `${path}/result.json` });
    return result.json() as {
      status: string;
      cavv: string;
      eci: string;
      xid: string;
      dsTransactionId: string;
    };
  }

  async function walletToken(token: string, email: string): Promise<string> {
    const sent = await post(token, 'wallet/send-code', {});
    expect(sent.statusCode).toBe(202);
    await w.t.gateway.deps.notifier.flush();
    const [message] = await listOutbox(w.db, { to: email });
    const code = /\b(\d{6})\b/.exec(message?.text ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const verified = await post(token, 'wallet/verify', { verificationId: sent.json().verificationId, code });
    expect(verified.statusCode).toBe(200);
    return verified.json().walletToken;
  }

  describe('3-D Secure', () => {
    it('challenge → authenticated → the same card with the result pays; the result pays only once', async () => {
      const enrolled = await addMerchant(w.t, w.db, 'Secure Shop', { threeDsEnrolled: true });
      const token = await createSession(w, {}, enrolled);
      const card = cardBody(TEST_CARDS.threeDSecure);
      const first = (await pay(w.app, token, card)).json();
      expect(first.status).toBe('requires_action');
      const id = first.challengeUrl.split('/').pop();
      expect(first.resultUrl).toBe(`/api/checkout/sessions/${token}/three-ds/${id}`);
      const polled = async () => (await w.app.inject({ method: 'GET', url: first.resultUrl })).json();
      expect(await polled()).toEqual({
        status: 'pending',
        cavv: null,
        eci: null,
        xid: null,
        dsTransactionId: null,
      });

      const result = await answerChallenge(first.challengeUrl, 'authenticate');
      expect(result.status).toBe('authenticated');
      // The widget's poll on its own origin says the same as the gateway's result.json.
      expect(await polled()).toEqual(result);
      const threeDSecure = {
        cavv: result.cavv,
        eci: result.eci,
        xid: result.xid,
        dsTransactionId: result.dsTransactionId,
      };
      const paid = await pay(w.app, token, { ...card, threeDSecure });
      expect(paid.json().status).toBe('succeeded');
      expect(await approvedTransactions(w.db, token)).toBe(1);

      // The same result on another session of the same amount and card: refused, nothing charged.
      const other = await createSession(w, { orderNumber: 'A-1002' }, enrolled);
      const replayed = (await pay(w.app, other, { ...card, threeDSecure })).json();
      expect(replayed.status).toBe('declined');
      expect(await approvedTransactions(w.db, other)).toBe(0);
    });

    it('a failed challenge gives no values: paying without them asks for a new challenge', async () => {
      const enrolled = await addMerchant(w.t, w.db, 'Secure Shop 2', { threeDsEnrolled: true });
      const token = await createSession(w, {}, enrolled);
      const first = (await pay(w.app, token, cardBody(TEST_CARDS.threeDSecure))).json();
      const result = await answerChallenge(first.challengeUrl, 'fail');
      expect(result).toMatchObject({ status: 'failed', cavv: null });
      const again = (await pay(w.app, token, cardBody(TEST_CARDS.threeDSecure))).json();
      expect(again.status).toBe('requires_action');
      expect(again.challengeUrl).not.toBe(first.challengeUrl);
      expect(await approvedTransactions(w.db, token)).toBe(0);
    });

    it('made-up values are refused by the gateway: declined, nothing charged', async () => {
      const enrolled = await addMerchant(w.t, w.db, 'Secure Shop 3', { threeDsEnrolled: true });
      const token = await createSession(w, {}, enrolled);
      const forged = {
        cavv: 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=',
        eci: '05',
        xid: 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=',
        dsTransactionId: '00000000-0000-4000-8000-000000000000',
      };
      const res = (
        await pay(w.app, token, { ...cardBody(TEST_CARDS.threeDSecure), threeDSecure: forged })
      ).json();
      expect(res.status).not.toBe('succeeded');
      expect(await approvedTransactions(w.db, token)).toBe(0);
    });
  });

  it('an unknown or malformed challenge id answers 404 on the poll route', async () => {
    const token = await createSession(w);
    for (const id of ['A'.repeat(24), 'not valid!']) {
      const res = await w.app.inject({
        method: 'GET',
        url: `/api/checkout/sessions/${token}/three-ds/${encodeURIComponent(id)}`,
      });
      expect(res.statusCode).toBe(404);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  describe('saved cards', () => {
    it('"save this card", then a later session pays with it after a code, CVV typed again', async () => {
      const email = newEmail();
      const first = await createSession(w, { shopper: { email, firstName: 'Ada' } });
      const saved = (await pay(w.app, first, cardBody('5555555555554444', { saveCard: true }))).json();
      expect(saved.status).toBe('succeeded');

      const second = await createSession(w, { orderNumber: 'A-2002', shopper: { email } });
      const wallet = await walletToken(second, email);
      const list = await w.app.inject({
        method: 'GET',
        url: `/api/checkout/sessions/${second}/wallet/cards`,
        headers: { 'x-payframe-wallet': wallet },
      });
      const cards = list.json().cards as { tokenGuid: string; maskedCardNumber: string }[];
      expect(cards.map((c) => c.maskedCardNumber)).toEqual(['•••• 4444']);
      const body = { method: 'saved', tokenGuid: cards[0]!.tokenGuid, cvv: '123' };

      // Without the wallet credential, or with no CVV: refused before anything is charged.
      expect((await pay(w.app, second, body)).statusCode).toBe(401);
      expect(
        (await pay(w.app, second, { ...body, cvv: undefined }, { headers: { 'x-payframe-wallet': wallet } }))
          .statusCode,
      ).toBe(400);

      const key = newKey();
      const paid = await pay(w.app, second, body, { key, headers: { 'x-payframe-wallet': wallet } });
      expect(paid.json()).toMatchObject({
        status: 'succeeded',
        receipt: { maskedCard: '•••• 4444', cardBrand: 'Mastercard', method: 'card' },
      });
      expect(await approvedTransactions(w.db, second)).toBe(1);

      // The answer was lost; the retry comes after the wallet credential ended with the session:
      // the same key still gets the stored outcome, byte for byte; another key gets nothing.
      const retry = await pay(w.app, second, body, { key });
      expect(retry.statusCode).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toBe(paid.body);
      expect((await pay(w.app, second, body)).statusCode).toBe(401);
    });

    it("a wallet credential works on its own session only, and a saved card does not pay without the shopper's code", async () => {
      const email = newEmail();
      const first = await createSession(w, { shopper: { email } });
      expect((await pay(w.app, first, cardBody('4242424242424242', { saveCard: true }))).json().status).toBe(
        'succeeded',
      );
      const mine = await createSession(w, { orderNumber: 'B-1', shopper: { email } });
      const wallet = await walletToken(mine, email);
      const list = await w.app.inject({
        method: 'GET',
        url: `/api/checkout/sessions/${mine}/wallet/cards`,
        headers: { 'x-payframe-wallet': wallet },
      });
      const tokenGuid = list.json().cards[0].tokenGuid as string;

      // Another session (another shopper's, say) cannot use this credential.
      const theirs = await createSession(w, { orderNumber: 'B-2', shopper: { email: newEmail() } });
      const res = await pay(
        w.app,
        theirs,
        { method: 'saved', tokenGuid, cvv: '123' },
        { headers: { 'x-payframe-wallet': wallet } },
      );
      expect(res.statusCode).toBe(401);
      expect(await approvedTransactions(w.db, theirs)).toBe(0);
    });

    it('"save this card" saves for the e-mail shown beside the checkbox, not for the phone', async () => {
      const email = newEmail();
      const phone = `+1415555${String(2000 + shoppers).padStart(4, '0')}`;
      const first = await createSession(w, { shopper: { email, phone } });
      expect((await pay(w.app, first, cardBody('4242424242424242', { saveCard: true }))).json().status).toBe(
        'succeeded',
      );
      const second = await createSession(w, { orderNumber: 'P-2', shopper: { email, phone } });
      expect((await post(second, 'wallet/send-code', { phone })).statusCode).toBe(202);
      await w.t.gateway.deps.notifier.flush();
      expect(await listOutbox(w.db, { to: phone })).toEqual([]); // the phone holds no wallet
      expect(await walletToken(second, email)).toMatch(/^wt_/); // the e-mail does
    });

    it('without a contact on the session, "save this card" pays and saves nothing', async () => {
      const token = await createSession(w, { shopper: { firstName: 'Ada' } });
      const res = (await pay(w.app, token, cardBody('4242424242424242', { saveCard: true }))).json();
      expect(res.status).toBe('succeeded');
    });
  });

  describe('cancel', () => {
    const cancel = (token: string): Promise<LightMyRequestResponse> => post(token, 'cancel', {});

    it('cancels an open session; twice answers the same; it can no longer be paid', async () => {
      const token = await createSession(w);
      const first = await cancel(token);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ status: 'canceled' });
      expect((await cancel(token)).json()).toEqual({ status: 'canceled' });
      const paid = await pay(w.app, token, cardBody());
      expect(paid.statusCode).toBe(409);
      expect(await approvedTransactions(w.db, token)).toBe(0);
      const seen = await w.app.inject({ method: 'GET', url: `/api/checkout/sessions/${token}` });
      expect(seen.json().status).toBe('canceled');
      const merchant = await w.app.inject({
        method: 'GET',
        url: `/v1/checkout-sessions/${token}`,
        headers: { authorization: w.merchant.authorization },
      });
      expect(merchant.json().status).toBe('canceled');
    });

    it('a paid session cannot be canceled (409) and stays paid', async () => {
      const token = await createSession(w);
      expect((await pay(w.app, token, cardBody())).json().status).toBe('succeeded');
      const res = await cancel(token);
      expect(res.statusCode).toBe(409);
      const seen = await w.app.inject({ method: 'GET', url: `/api/checkout/sessions/${token}` });
      expect(seen.json().status).toBe('paid');
    });

    it('needs the widget header (CSRF) and a known session', async () => {
      const token = await createSession(w);
      const forged = await w.app.inject({
        method: 'POST',
        url: `/api/checkout/sessions/${token}/cancel`,
        headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
        payload: '{}',
      });
      expect(forged.statusCode).toBe(403);
      expect((await cancel('cs_' + 'x'.repeat(43))).statusCode).toBe(404);
      const seen = await w.app.inject({ method: 'GET', url: `/api/checkout/sessions/${token}` });
      expect(seen.json().status).toBe('open');
    });
  });

  it("a load names the merchant's registered origins and the session's locale", async () => {
    const token = await createSession(w, { locale: 'es' });
    const res = await w.app.inject({ method: 'GET', url: `/api/checkout/sessions/${token}` });
    expect(res.json()).toMatchObject({ locale: 'es', embedOrigins: [SHOP_ORIGIN, 'http://localhost:4000'] });
  });
});

describe('a cancel that wins the race against a pay', () => {
  it('answers 409 session_canceled, not a decline, and charges nothing', async () => {
    let cancelFirst: string | null = null;
    const w = await openCheckoutWorld(await databaseTargets()[0]!.open(), {
      // Between the checkout's attempt row and the gateway's sale, the shopper's other tab cancels.
      wrapPort: withPayCheckoutSession(async (real, params, context) => {
        if (cancelFirst) {
          await w.app.inject({
            method: 'POST',
            url: `/api/checkout/sessions/${cancelFirst}/cancel`,
            headers: WIDGET_HEADERS,
            payload: '{}',
          });
        }
        return real(params, context);
      }),
    });
    try {
      const token = await createSession(w);
      cancelFirst = token;
      const res = await pay(w.app, token, cardBody());
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('session_canceled');
      expect(await approvedTransactions(w.db, token)).toBe(0);
    } finally {
      await w.close();
    }
  });
});
