/**
 * No part of an Idempotency-Key's stored fingerprint depends on a CVV, for any payment method
 * (PCI-331-1; issue 13 §3): a replay that changes only the CVV is the same request and gets the
 * first answer, and the fingerprint column is the same whatever CVV was sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayBody } from '../../shared/checkout/pay-schemas.ts';
import { listOutbox } from '../notify/outbox.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { fingerprintOf } from './idempotency.ts';
import { PAY_ENDPOINT } from './recovery.ts';
import {
  achBody,
  approvedTransactions,
  CHECKOUT_SECRET,
  cardBody,
  type CheckoutWorld,
  createSession,
  newKey,
  openCheckoutWorld,
  pay,
  WIDGET_HEADERS,
} from '../../test/kit/checkout/checkout-world.ts';

let shoppers = 0;
const newEmail = () => `cvv.${Date.now() % 100000}.${(shoppers += 1)}@example.com`;

describe('the pay fingerprint leaves every CVV out', () => {
  it('is the same for all 10,000 CVVs of a card body and of a saved-card body', () => {
    const card = PayBody.parse(cardBody());
    const saved = PayBody.parse({
      method: 'saved',
      tokenGuid: '0f8fad5b-d9cb-469f-a165-70867728950e',
      cvv: '123',
    });
    for (const body of [card, saved]) {
      const seen = new Set<string>();
      for (let n = 0; n < 10_000; n++) {
        const cvv = String(n).padStart(n < 1000 ? 3 : 4, '0');
        const variant = body.method === 'card' ? { ...body, card: { ...body.card, cvv } } : { ...body, cvv };
        seen.add(fingerprintOf(CHECKOUT_SECRET, PAY_ENDPOINT, variant));
      }
      expect(seen.size).toBe(1);
    }
  });

  it('still tells other fields apart (the card number, the saved token)', () => {
    const a = fingerprintOf(CHECKOUT_SECRET, PAY_ENDPOINT, PayBody.parse(cardBody()));
    const b = fingerprintOf(CHECKOUT_SECRET, PAY_ENDPOINT, PayBody.parse(cardBody('5555555555554444')));
    expect(a).not.toBe(b);
  });
});

describe.each(databaseTargets())('replaying every method with another CVV ($name)', (target) => {
  let w: CheckoutWorld;
  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open());
  });
  afterAll(() => w?.close());

  async function storedFingerprint(token: string, key: string): Promise<string> {
    const { rows } = await w.db.query<{ fingerprint: string }>(
      'select fingerprint from checkout_idempotency where session_token = $1 and key = $2',
      [token, key],
    );
    return rows[0]!.fingerprint;
  }

  it('a card pay replayed with another CVV gets the first answer, one charge', async () => {
    const token = await createSession(w);
    const key = newKey();
    const first = await pay(w.app, token, cardBody(), { key });
    expect(first.json().status).toBe('succeeded');
    const again = await pay(
      w.app,
      token,
      { ...cardBody(), card: { ...cardBody().card, cvv: '9876' } },
      { key },
    );
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(await approvedTransactions(w.db, token)).toBe(1);
    expect(await storedFingerprint(token, key)).toBe(
      fingerprintOf(CHECKOUT_SECRET, PAY_ENDPOINT, {
        ...cardBody(),
        card: { ...cardBody().card, cvv: '000' },
      }),
    );
  });

  it('a saved-card pay replayed with another CVV gets the first answer, not 422', async () => {
    const email = newEmail();
    const first = await createSession(w, { shopper: { email } });
    const saved = await pay(w.app, first, cardBody('5555555555554444', { saveCard: true }));
    expect(saved.json().status).toBe('succeeded');

    const token = await createSession(w, { orderNumber: 'CVV-2', shopper: { email } });
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      w.app.inject({
        method: 'POST',
        url: `/api/checkout/sessions/${token}/${path}`,
        headers: { ...WIDGET_HEADERS, ...headers },
        payload: JSON.stringify(body),
      });
    const sent = await post('wallet/send-code', {});
    await w.t.gateway.deps.notifier.flush();
    const [message] = await listOutbox(w.db, { to: email });
    const code = /\b(\d{6})\b/.exec(message?.text ?? '')?.[1];
    const verified = await post('wallet/verify', { verificationId: sent.json().verificationId, code });
    const wallet = verified.json().walletToken as string;
    const list = await w.app.inject({
      method: 'GET',
      url: `/api/checkout/sessions/${token}/wallet/cards`,
      headers: { 'x-payframe-wallet': wallet },
    });
    const tokenGuid = list.json().cards[0].tokenGuid as string;

    const key = newKey();
    const headers = { 'x-payframe-wallet': wallet };
    const paid = await pay(w.app, token, { method: 'saved', tokenGuid, cvv: '123' }, { key, headers });
    expect(paid.json().status).toBe('succeeded');
    // With the credential, and after it ended with the session: the stored answer both times.
    for (const h of [headers, {}]) {
      const again = await pay(w.app, token, { method: 'saved', tokenGuid, cvv: '999' }, { key, headers: h });
      expect(again.statusCode).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toBe(paid.body);
    }
    expect(await approvedTransactions(w.db, token)).toBe(1);
    expect(await storedFingerprint(token, key)).toBe(
      fingerprintOf(CHECKOUT_SECRET, PAY_ENDPOINT, { method: 'saved', tokenGuid, cvv: '000' }),
    );
  });

  it('an ACH pay has no CVV: a replay is the first answer, and a CVV added to it is a 400 that keeps the key', async () => {
    const token = await createSession(w);
    const key = newKey();
    const first = await pay(w.app, token, achBody(), { key });
    expect(first.json().status).toBe('succeeded');
    const withCvv = await pay(w.app, token, { ...achBody(), cvv: '123' }, { key });
    expect(withCvv.statusCode).toBe(400);
    const again = await pay(w.app, token, achBody(), { key });
    expect(again.body).toBe(first.body);
  });
});
