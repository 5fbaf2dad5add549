/**
 * The name on a card is the one sent with it, and no merchant sees another's (issue 13 §13): the
 * vault keeps one row per card number and expiry for everyone, so that row holds no name; a
 * transaction keeps the name sent with it, a merchant's token the name that merchant gave, a
 * shopper's wallet entry the shopper's. Through the real SOAP endpoint, on every database target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationResult } from '../../shared/contract/service.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { TEST_CARDS } from './processor/simulator.ts';
import {
  call,
  card,
  type GatewayWorld,
  openWorld,
  pay,
  SERVICE_KEY,
  type TestMerchant,
} from '../../test/kit/gateway/gateway-kit.ts';

type Response = OperationResult<'ProcessTransaction'>;
const DAY = 86_400_000;

describe.each(databaseTargets())("NameOnCard is the transaction's own ($name)", (target) => {
  let w: GatewayWorld;
  beforeAll(async () => {
    w = await openWorld(target);
  });
  afterAll(() => w?.close());

  const sale = (m: TestMerchant, fields: Record<string, unknown>): Promise<Response> =>
    call(w.app, 'ProcessTransaction', pay(m, fields), m.as);

  async function history(m: TestMerchant) {
    return call(
      w.app,
      'GetTransactionHistories',
      {
        startDate: new Date(Date.now() - DAY).toISOString(),
        endDate: new Date(Date.now() + DAY).toISOString(),
        merchantID: m.id,
      },
      m.as,
    );
  }

  async function nameOf(m: TestMerchant, transactionId: string | undefined) {
    const row = (await history(m)).find((t) => t.TransactionID === transactionId);
    expect(row, `transaction ${transactionId} in ${m.name}'s history`).toBeDefined();
    return row?.NameOnCard ?? null;
  }

  it("a second merchant's sale of the same card shows the name it sent, or none — never the first merchant's", async () => {
    const number = TEST_CARDS.mastercard;
    const first = await sale(w.a, card(number, '10.00', { CardName: 'Alice Avery' }));
    expect(first.ResponseCode).toBe('00');
    const named = await sale(w.b, card(number, '11.00', { CardName: 'Bob Brown' }));
    const unnamed = await sale(w.b, card(number, '12.00'));
    const byParts = await sale(w.b, card(number, '13.00', { FirstName: 'Cleo', LastName: 'Chen' }));
    expect(await nameOf(w.b, named.TransactionID)).toBe('Bob Brown');
    expect(await nameOf(w.b, unnamed.TransactionID)).toBeNull();
    expect(await nameOf(w.b, byParts.TransactionID)).toBe('Cleo Chen');
    expect(await nameOf(w.a, first.TransactionID)).toBe('Alice Avery');
    // Nothing the second merchant reads holds the first one's name.
    expect(JSON.stringify(await history(w.b))).not.toContain('Alice');
    // And the vault's shared row holds no name at all.
    const { rows } = await w.db.query<{ n: string }>(
      'select count(*) as n from cards where name_on_card is not null',
    );
    expect(Number(rows[0]!.n)).toBe(0);
  });

  it("a token pays with its own merchant's name; another merchant's token for the same card has none of it", async () => {
    const number = TEST_CARDS.amex;
    const a = await sale(w.a, card(number, '20.00', { CardName: 'Alice Avery', CreateToken: true }));
    const b = await sale(w.b, card(number, '21.00', { CreateToken: true }));
    expect(a.Token).toMatch(/^tok_/);
    expect(b.Token).toMatch(/^tok_/);
    const again = await sale(w.a, { SaveCardID: a.Token, Amount: '22.00' });
    expect(await nameOf(w.a, again.TransactionID)).toBe('Alice Avery');
    const theirs = await sale(w.b, { SaveCardID: b.Token, Amount: '23.00' });
    expect(await nameOf(w.b, theirs.TransactionID)).toBeNull();
    // A name sent with the token payment is the one kept.
    const renamed = await sale(w.b, { SaveCardID: b.Token, Amount: '24.00', CardName: 'Bob Brown' });
    expect(await nameOf(w.b, renamed.TransactionID)).toBe('Bob Brown');
  });

  it("a shopper's wallet shows the name saved with the shopper's entry, not another shopper's for the same card", async () => {
    const number = '4012888888881881';
    const alice = `alice.${Date.now()}@example.com`;
    const bob = `bob.${Date.now()}@example.com`;
    await sale(w.a, card(number, '30.00', { CardName: 'Alice Avery', CreateToken: true, Email: alice }));
    await sale(w.b, card(number, '31.00', { CreateToken: true, Email: bob }));
    const stored = (email: string) =>
      call(w.app, 'GetStoredCards', { email, phoneNumber: '' }, { service: SERVICE_KEY });
    expect((await stored(alice)).map((c) => c.NameOnCard)).toEqual(['Alice Avery']);
    const bobs = await stored(bob);
    expect(bobs).toHaveLength(1);
    expect(bobs[0]?.NameOnCard ?? null).toBeNull();
  });
});
