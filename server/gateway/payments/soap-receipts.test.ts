/**
 * ProcessTransaction's CardHolderReceipt and MerchantReceipt (soap-receipts.ts) through the real
 * SOAP binding on every database target: an approved sale queues the receipt to the request's Email
 * and to the merchant's support e-mail with its row, the notifier sends each once into the dev
 * outbox; a decline, or the booleans false, send none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../../test/kit/databases.ts';
import { call, card, type GatewayWorld, openWorld, pay } from '../../../test/kit/gateway/gateway-kit.ts';
import { listOutbox } from '../../notify/outbox.ts';
import { deliverReceipts } from '../../notify/receipt-queue.ts';
import { TEST_CARDS } from '../processor/simulator.ts';

describe.each(databaseTargets())('ProcessTransaction receipts on $name', (target) => {
  let w: GatewayWorld;
  beforeAll(async () => {
    w = await openWorld(target);
  });
  afterAll(() => w?.close());

  const notifier = () => w.t.gateway.deps.notifier;
  const receiptsTo = async (to: string) =>
    (await listOutbox(w.db, { to })).filter((m) => m.purpose === 'receipt');
  const merchantEmail = () => 'billing@alpha-outfitters.example';

  it('CardHolderReceipt and MerchantReceipt: one receipt each, brand and last four, sent once', async () => {
    const before = (await receiptsTo(merchantEmail())).length;
    const sale = await call(
      w.app,
      'ProcessTransaction',
      pay(
        w.a,
        card(TEST_CARDS.visa, '12.50', {
          Email: 'holder@example.com',
          CardHolderReceipt: true,
          MerchantReceipt: true,
        }),
      ),
      w.a.as,
    );
    expect(sale.ResponseCode).toBe('00');
    await notifier().flush();
    const holder = await receiptsTo('holder@example.com');
    expect(holder).toHaveLength(1);
    expect(holder[0]!.subject).toBe('Your receipt from Alpha Outfitters');
    expect(holder[0]!.text).toContain('$12.50');
    expect(holder[0]!.text).toContain('Visa ending in 4242');
    expect(holder[0]!.text).toContain(sale.TransactionID!);
    expect(holder[0]!.text).not.toContain(TEST_CARDS.visa);
    const merchant = await receiptsTo(merchantEmail());
    expect(merchant).toHaveLength(before + 1);
    expect(merchant[0]!.text).toContain(sale.TransactionID!);
    // Nothing is left to send: another run sends none.
    const d = { notifier: notifier(), log: w.app.log, now: () => new Date() };
    expect(await deliverReceipts(w.db, d)).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(await receiptsTo('holder@example.com')).toHaveLength(1);
  });

  it('no receipt when the booleans are false, or the sale is declined', async () => {
    const to = 'nobody@example.com';
    await call(w.app, 'ProcessTransaction', pay(w.a, card(TEST_CARDS.visa, '3.00', { Email: to })), w.a.as);
    const declined = await call(
      w.app,
      'ProcessTransaction',
      pay(w.a, card(TEST_CARDS.declined, '3.00', { Email: to, CardHolderReceipt: true })),
      w.a.as,
    );
    expect(declined.ResponseCode).not.toBe('00');
    await notifier().flush();
    expect(await receiptsTo(to)).toEqual([]);
  });
});
