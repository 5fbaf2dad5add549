/**
 * Paying a session through the widget's API: card (approved; declined then a good card on the same
 * session with a new key), ACH, already paid, expired, 3-D Secure, method not accepted — and no
 * card data kept anywhere the checkout writes (PCI-331-1, PCI-351-1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../gateway/processor/simulator.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  achBody,
  addMerchant,
  approvedTransactions,
  type CheckoutWorld,
  cardBody,
  createSession,
  openCheckoutWorld,
  pay,
  SHOP_ORIGIN,
} from '../../test/kit/checkout/checkout-world.ts';

const CHECKOUT_TABLES = [
  'checkout_session_endings',
  'checkout_idempotency',
  'checkout_attempts',
  'checkout_payments',
  'checkout_webhook_events',
  'checkout_rate_counters',
];

describe.each(databaseTargets())('paying a checkout session ($name)', (target) => {
  let w: CheckoutWorld;
  beforeAll(async () => {
    // Every log line is kept (trace), so the card-data check below sees all of them.
    w = await openCheckoutWorld(await target.open(), { env: { LOG_LEVEL: 'trace' } });
  });
  afterAll(() => w?.close());

  it('pays by card: a receipt with the last four digits only, and a signed redirect', async () => {
    const token = await createSession(w, { webhookUrl: 'https://hooks.shop.example/payframe' });
    const res = await pay(w.app, token, cardBody());
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.status).toBe('succeeded');
    expect(body.receipt).toMatchObject({
      status: 'succeeded',
      amount: '24.99',
      currency: 'USD',
      orderNumber: 'A-1001',
      merchantName: 'Alpha Outfitters',
      maskedCard: '•••• 4242',
      // The brand from the gateway's typed CardBrand, for "Visa ••4242" (issue 14 §3).
      cardBrand: 'Visa',
      method: 'card',
    });
    expect(body.receipt.transactionId).toMatch(/^\d+$/);
    expect(body.receipt.approvalCode).toMatch(/^[0-9A-Z]{6}$/);
    const redirect = new URL(body.redirectUrl);
    expect(redirect.origin + redirect.pathname).toBe(`${SHOP_ORIGIN}/thanks`);
    expect(redirect.searchParams.get('cart')).toBe('7');
    expect(redirect.searchParams.get('transactionId')).toBe(body.receipt.transactionId);
    expect(redirect.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(await approvedTransactions(w.db, token)).toBe(1);
    const events = await w.db.query<{ type: string }>(
      'select type from checkout_webhook_events where session_token = $1',
      [token],
    );
    expect(events.rows.map((r) => r.type)).toEqual(['payment.succeeded']);
  });

  it('a declined card leaves the session open; a good card with a new key then pays it', async () => {
    const token = await createSession(w, { webhookUrl: 'https://hooks.shop.example/payframe' });
    const declined = await pay(w.app, token, cardBody(TEST_CARDS.declined));
    expect(declined.statusCode).toBe(200);
    expect(declined.json()).toEqual({
      status: 'declined',
      code: '05',
      message: 'Your card was declined. Please use another card.',
      field: null,
    });
    const paid = await pay(w.app, token, cardBody(TEST_CARDS.mastercard));
    expect(paid.json().status).toBe('succeeded');
    expect(paid.json().receipt).toMatchObject({ maskedCard: '•••• 4444', cardBrand: 'Mastercard' });
    expect(await approvedTransactions(w.db, token)).toBe(1);
    const events = await w.db.query<{ type: string }>(
      'select type from checkout_webhook_events where session_token = $1 order by created_at',
      [token],
    );
    expect(events.rows.map((r) => r.type).sort()).toEqual(['payment.failed', 'payment.succeeded']);
  });

  it('pays by bank account (ACH)', async () => {
    const token = await createSession(w);
    const res = await pay(w.app, token, achBody());
    expect(res.json()).toMatchObject({
      status: 'succeeded',
      receipt: { maskedCard: '•••• 6789', method: 'ach', cardBrand: null },
    });
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });

  it('an ACH return is a decline the shopper can act on', async () => {
    const token = await createSession(w);
    const res = await pay(w.app, token, achBody('000111111116'));
    expect(res.json()).toMatchObject({ status: 'declined', code: 'R01' });
  });

  it('a different key on a paid session answers already_paid with the original receipt', async () => {
    const token = await createSession(w);
    const first = (await pay(w.app, token, cardBody())).json();
    const again = await pay(w.app, token, cardBody(TEST_CARDS.mastercard));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ...first, status: 'already_paid' });
    expect(await approvedTransactions(w.db, token)).toBe(1);
  });

  it('a reload after paying shows the receipt', async () => {
    const token = await createSession(w);
    const paid = (await pay(w.app, token, cardBody())).json();
    const view = (await w.app.inject({ method: 'GET', url: `/api/checkout/sessions/${token}` })).json();
    expect(view).toMatchObject({ status: 'paid', receipt: paid.receipt, redirectUrl: paid.redirectUrl });
    expect(view.receipt.cardBrand).toBe('Visa'); // from GetCheckoutSession's CardBrand, kept on reload
  });

  it('an expired session cannot be paid: 409, nothing charged', async () => {
    const token = await createSession(w);
    await w.db.query(
      "update checkout_sessions set expires_at = now() - interval '1 minute' where token = $1",
      [token],
    );
    const res = await pay(w.app, token, cardBody());
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('This checkout session has expired.');
    expect(await approvedTransactions(w.db, token)).toBe(0);
  });

  it('a method the merchant does not accept is a field error', async () => {
    const cardOnly = await addMerchant(w.t, w.db, 'Card Only', { paymentMethods: ['card'] });
    const token = await createSession(w, {}, cardOnly);
    const res = await pay(w.app, token, achBody());
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual([
      { field: 'method', code: 'method_not_accepted', message: 'This payment method is not accepted here.' },
    ]);
  });

  it('a card asking for 3-D Secure at an enrolled merchant answers requires_action', async () => {
    const enrolled = await addMerchant(w.t, w.db, 'Secure Shop', { threeDsEnrolled: true });
    const token = await createSession(w, {}, enrolled);
    const res = await pay(w.app, token, cardBody(TEST_CARDS.threeDSecure));
    expect(res.json().status).toBe('requires_action');
    expect(res.json().challengeUrl).toMatch(/^https:\/\/pay\.example\//);
    expect(await approvedTransactions(w.db, token)).toBe(0);
  });

  it('keeps no card number, CVV or account number in any checkout table or log line', async () => {
    const token = await createSession(w, { webhookUrl: 'https://hooks.shop.example/payframe' });
    expect((await pay(w.app, token, cardBody(TEST_CARDS.cvvMismatch))).json().code).toBe('N7');
    const unusual = { number: '4000 0000 0000 0002', expiry: '12/39', cvv: '9731', name: 'Ada Lovelace' };
    expect((await pay(w.app, token, { method: 'card', card: unusual })).json().status).toBe('declined');
    const amex = { ...cardBody(TEST_CARDS.amex).card, cvv: '8642' };
    const paid = await pay(w.app, token, { method: 'card', card: amex });
    expect(paid.json().status).toBe('succeeded');
    expect(
      (await pay(w.app, token, { method: 'card', card: { ...unusual, number: 'x4242424242424242' } }))
        .statusCode,
    ).toBe(400);
    const dump: string[] = [];
    for (const table of CHECKOUT_TABLES) {
      const { rows } = await w.db.query(`select * from ${table}`);
      dump.push(JSON.stringify(rows));
    }
    const text = `${dump.join('\n')}\n${w.t.logLines.join('\n')}`;
    for (const pan of [
      '4242424242424242',
      '378282246310005',
      '4000000000000002',
      '4000000000000127',
      '000123456789',
    ]) {
      expect(text).not.toContain(pan);
    }
    // A CVV as a value on its own (random tokens and hashes may contain the digits).
    for (const cvv of ['9731', '8642'])
      expect(text).not.toMatch(new RegExp(`(?<![0-9A-Za-z_-])${cvv}(?![0-9A-Za-z_-])`));
    expect(text).not.toMatch(/"cvv2?"\s*:/i);
    // No PAN-like digit run in the tables (log lines carry 13-digit millisecond times).
    expect(dump.join('\n')).not.toMatch(/\b\d{13,19}\b/);
  });
});
