/**
 * The receipt e-mail after an approved checkout payment (docs/merchant-guide.md "Receipt e-mails"),
 * through the real app on every database target, in both wirings (the gateway in process, and over
 * real SOAP): queued in the transaction that records the payment, sent once by the notifier into the
 * dev outbox in the session's language, with the brand and last four only; a second delivery run
 * sends nothing; the merchant's setting off queues none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/kit/app.ts';
import {
  achBody,
  addMerchant,
  buildCheckoutApp,
  cardBody,
  type CheckoutWorld,
  createSession,
  openRemoteCheckoutWorld,
  pay,
  wiringCases,
} from '../../test/kit/checkout/checkout-world.ts';
import { deliverReceipts } from '../notify/receipt-queue.ts';
import { listOutbox } from '../notify/outbox.ts';
import { recordPayment } from './attempts.ts';
import type { Payment } from './records.ts';

describe.each(wiringCases())('receipt e-mails ($name)', ({ target, wiring }) => {
  let w: CheckoutWorld;
  let gatewayApp: TestApp;
  let n = 0;

  beforeAll(async () => {
    const db = await target.open();
    if (wiring === 'in process') {
      const { t, checkout } = await buildCheckoutApp(db);
      gatewayApp = t;
      w = {
        db,
        t,
        app: t.app,
        checkout,
        merchant: await addMerchant(t, db, 'Receipt Shop'),
        close: () => t.close(),
      };
      return;
    }
    const remote = await openRemoteCheckoutWorld(db, 'Remote Receipt Shop');
    gatewayApp = remote.gateway;
    w = remote;
  });
  afterAll(async () => {
    await w?.close();
  });

  const notifier = () => w.checkout.deps.notifier!;
  const deliver = () =>
    deliverReceipts(w.db, { notifier: notifier(), log: w.app.log, now: () => new Date() });
  const queued = async (token: string) =>
    (
      await w.db.query<{ state: string; recipient: string }>(
        `select state, recipient from receipt_emails where dedupe_key = $1`,
        [`session:${token}:shopper`],
      )
    ).rows;

  it('an approved card payment queues one receipt with its record, sent once in the session language, brand and last four only', async () => {
    const email = `shopper${++n}@example.com`;
    const token = await createSession(w, {
      shopper: { email, firstName: 'Ada', lastName: 'Lovelace' },
      locale: 'de',
      orderNumber: 'R-77',
    });
    const paid = await pay(w.app, token, cardBody('4242424242424242'));
    expect(paid.statusCode, paid.body).toBe(200);
    const transactionId = paid.json().receipt.transactionId as string;
    expect(transactionId).toMatch(/^\d+$/);
    await notifier().flush();
    expect(await queued(token)).toEqual([{ state: 'sent', recipient: email }]);
    // A second run finds nothing to send; the outbox holds one receipt.
    expect(await deliver()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    const mails = (await listOutbox(w.db, { to: email })).filter((m) => m.purpose === 'receipt');
    expect(mails).toHaveLength(1);
    const [m] = mails;
    expect(m!.subject).toMatch(/^Ihre Quittung von .*Receipt Shop$/);
    expect(m!.text).toContain('R-77');
    expect(m!.text).toContain('Visa mit Endziffern 4242');
    expect(m!.text).toContain(transactionId);
    expect(m!.text).toContain('24,99'); // the amount as German writes it
    expect(m!.html).toContain('lang="de"');
    // Never more of the number than its last four digits.
    expect(`${m!.subject} ${m!.text} ${m!.html}`).not.toMatch(/424242/);
  });

  it('a bank account payment names the account type and last four, in English by default', async () => {
    const email = `ach${++n}@example.com`;
    const token = await createSession(w, { shopper: { email } });
    const paid = await pay(w.app, token, achBody('000123456789'));
    expect(paid.statusCode, paid.body).toBe(200);
    await notifier().flush();
    const [m] = (await listOutbox(w.db, { to: email })).filter((x) => x.purpose === 'receipt');
    expect(m?.subject).toMatch(/^Your receipt from /);
    expect(m?.text).toContain('Checking account ending in 6789');
    expect(m?.text).not.toContain('000123456789');
  });

  it("the merchant's setting off: no receipt is queued; a session without a shopper e-mail queues none", async () => {
    const m = await addMerchant(gatewayApp, w.db, `Quiet Shop ${++n}`);
    await gatewayApp.gateway.deps.merchants.update(w.db, m.id, { receiptEmail: false });
    const email = `quiet${n}@example.com`;
    const token = await createSession(w, { shopper: { email } }, m);
    expect((await pay(w.app, token, cardBody())).statusCode).toBe(200);
    await notifier().flush();
    expect(await queued(token)).toEqual([]);
    expect((await listOutbox(w.db, { to: email })).filter((x) => x.purpose === 'receipt')).toEqual([]);

    const anonymous = await createSession(w, { shopper: { firstName: 'Nobody' } });
    expect((await pay(w.app, anonymous, cardBody())).statusCode).toBe(200);
    await notifier().flush();
    expect(await queued(anonymous)).toEqual([]);
  });
});

describe.each(wiringCases().filter((c) => c.wiring === 'in process'))(
  'the receipt queue and the payment record ($name)',
  ({ target }) => {
    let w: CheckoutWorld;
    beforeAll(async () => {
      const db = await target.open();
      const { t, checkout } = await buildCheckoutApp(db);
      w = {
        db,
        t,
        app: t.app,
        checkout,
        merchant: await addMerchant(t, db, 'Queue Shop'),
        close: () => t.close(),
      };
    });
    afterAll(async () => {
      await w?.close();
    });

    const payment = (token: string): Payment => ({
      sessionToken: token,
      merchantId: w.merchant.id,
      merchantName: 'Queue Shop',
      amount: '10.00',
      currency: 'USD',
      orderNumber: 'Q-1',
      returnUrl: null,
      transactionId: '9001',
      approvalCode: 'A1B2C3',
      maskedCard: '411111******1111',
      cardBrand: 'Visa',
      method: 'card',
      paidAt: new Date(),
      attemptKey: null,
      redirectSignature: null,
    });
    const rowsOf = async (token: string) =>
      (
        await w.db.query<{ state: string }>('select state from receipt_emails where dedupe_key = $1', [
          `session:${token}:shopper`,
        ])
      ).rows;

    it('is written by the transaction that records the payment: rolled back with it, once per session', async () => {
      const to = { email: 'queue@example.com', locale: 'fr' };
      const rolledBack = 'tok_receipt_rollback_000000000001';
      await expect(
        w.db.transaction(async (tx) => {
          await recordPayment(tx, payment(rolledBack), null, null, new Date(), to);
          throw new Error('the payment record failed after the receipt was queued');
        }),
      ).rejects.toThrow(/failed after/);
      expect(await rowsOf(rolledBack)).toEqual([]);

      const token = 'tok_receipt_once_0000000000000001';
      await w.db.transaction((tx) => recordPayment(tx, payment(token), null, null, new Date(), to));
      // Recorded again (recovery after the pay answer, say): nothing more is queued.
      await w.db.transaction((tx) => recordPayment(tx, payment(token), null, null, new Date(), to));
      expect(await rowsOf(token)).toEqual([{ state: 'pending' }]);
      const d = { notifier: w.checkout.deps.notifier!, log: w.app.log, now: () => new Date() };
      expect((await deliverReceipts(w.db, d)).sent).toBe(1);
      expect(await deliverReceipts(w.db, d)).toEqual({ sent: 0, retrying: 0, failed: 0 });
      expect(await rowsOf(token)).toEqual([{ state: 'sent' }]);
      const mails = (await listOutbox(w.db, { to: 'queue@example.com' })).filter(
        (m) => m.purpose === 'receipt',
      );
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe('Votre reçu de Queue Shop');
      expect(mails[0]!.text).toContain('Visa se terminant par 1111');
      expect(mails[0]!.text).not.toContain('411111');
    });
  },
);
