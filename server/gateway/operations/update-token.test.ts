/**
 * UpdateToken (docs/gateway-wallet-codes.md "UpdateToken"): create, refusals a merchant can act on,
 * IsValidateCard (a declined card is not saved), and updates by TokenGuid (expiry, names, a new
 * number; only with a matching contact, only by the merchant that created the entry or the checkout
 * server). Through the real SOAP endpoint, on every database target.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../../test/kit/databases.ts';
import { TEST_CARDS } from '../processor/simulator.ts';
import { call, futureExpiry } from '../../../test/kit/gateway/gateway-kit.ts';
import {
  newShopper,
  openWalletWorld,
  SERVICE,
  saveCard,
  storedCards,
  type WalletWorld,
} from '../../../test/kit/gateway/wallet-world.ts';

describe.each(databaseTargets())('UpdateToken ($name)', (target) => {
  let w: WalletWorld;

  beforeAll(async () => {
    w = await openWalletWorld(target);
  });
  afterAll(() => w?.close());

  it('UpdateToken refuses what a merchant can fix, with a Message', async () => {
    const s = newShopper();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ CardNumber: TEST_CARDS.visa, ExpirationDate: futureExpiry() }, /CardEmail or PhoneNumber/],
      [
        { CardNumber: TEST_CARDS.visa, ExpirationDate: futureExpiry(), CardEmail: 'not-an-email' },
        /CardEmail/,
      ],
      [{ CardNumber: TEST_CARDS.visa, ExpirationDate: futureExpiry(), PhoneNumber: '12' }, /PhoneNumber/],
      [{ CardNumber: '4242424242424241', ExpirationDate: futureExpiry(), CardEmail: s.email }, /not valid/],
      [{ CardNumber: TEST_CARDS.visa, ExpirationDate: '01/20', CardEmail: s.email }, /expired/],
      [{ CardNumber: TEST_CARDS.visa, CardEmail: s.email }, /^ExpirationDate is required/],
      [{ ExpirationDate: futureExpiry(), CardEmail: s.email }, /CardNumber/],
      [{ TokenGuid: crypto.randomUUID(), CardEmail: s.email, DisplayName: 'x' }, /No stored card matches/],
    ];
    for (const [fields, message] of cases) {
      const r = await saveCard(w, fields);
      expect(r.Status, JSON.stringify(fields)).toBe(false);
      expect(r.Message).toMatch(message);
    }
    expect(await storedCards(w, s.email)).toEqual([]);
  });

  it('IsValidateCard: a zero-amount verification first; a declined card is refused and not saved', async () => {
    const s = newShopper();
    const declined = await saveCard(w, {
      CardNumber: TEST_CARDS.declined,
      ExpirationDate: futureExpiry(),
      CardEmail: s.email,
      IsValidateCard: true,
    });
    expect(declined).toMatchObject({
      Status: false,
      Message: expect.stringMatching(/declined.*05.*not saved/),
    });
    const cvv = await saveCard(w, {
      CardNumber: TEST_CARDS.cvvMismatch,
      ExpirationDate: futureExpiry(),
      CVV2: '999',
      CardEmail: s.email,
      IsValidateCard: true,
    });
    expect(cvv).toMatchObject({ Status: false, Message: expect.stringMatching(/N7/) });
    expect(await storedCards(w, s.email)).toEqual([]);
    const ok = await saveCard(w, {
      CardNumber: TEST_CARDS.visa,
      ExpirationDate: futureExpiry(),
      CVV2: '123',
      CardEmail: s.email,
      IsValidateCard: true,
    });
    expect(ok.Status).toBe(true);
    expect(await storedCards(w, s.email)).toHaveLength(1);
  });

  it('UpdateToken with a TokenGuid: new expiry, names, a new number; validated; only with a matching contact', async () => {
    const s = newShopper();
    const yy = (ahead: number) => String((new Date().getUTCFullYear() + ahead) % 100).padStart(2, '0');
    const first = await saveCard(w, {
      CardNumber: TEST_CARDS.visa,
      ExpirationDate: `12/${yy(3)}`,
      CardEmail: s.email,
      NameOnCard: 'Jo',
    });
    const guid = first.guid;
    const renamed = await saveCard(w, {
      TokenGuid: guid,
      CardEmail: s.email,
      NameOnCard: 'Jo Doe',
      DisplayName: 'Travel',
    });
    expect(renamed).toMatchObject({ Status: true, Message: `Updated. TokenGuid=${guid}` });
    expect(await storedCards(w, s.email)).toEqual([
      {
        TokenGuid: guid,
        MaskedCardNumber: '************4242',
        NameOnCard: 'Jo Doe',
        CardType: 'Visa',
        DisplayName: 'Travel',
        ExpirationDate: `12${yy(3)}`,
      },
    ]);
    expect(
      (await saveCard(w, { TokenGuid: guid, CardEmail: s.email, ExpirationDate: `11/${yy(4)}` })).Status,
    ).toBe(true);
    // The new expiry is the one listed.
    expect((await storedCards(w, s.email))[0]?.ExpirationDate).toBe(`11${yy(4)}`);
    // The wrong contact, or none, finds nothing; so does another merchant (it did not create the entry).
    expect(
      (await saveCard(w, { TokenGuid: guid, CardEmail: 'other@example.com', DisplayName: 'x' })).Message,
    ).toMatch(/No stored card/);
    expect((await saveCard(w, { TokenGuid: guid, DisplayName: 'x' })).Message).toMatch(
      /CardEmail or PhoneNumber/,
    );
    const other = await call(
      w.app,
      'UpdateToken',
      {
        token: {
          MerchantID: w.b.id,
          IsValidateCard: false,
          TokenGuid: guid,
          CardEmail: s.email,
          DisplayName: 'x',
        },
      },
      w.b.as,
    );
    expect(other).toMatchObject({ Status: false, Message: expect.stringMatching(/No stored card/) });
    // A new number that fails its verification changes nothing; one that passes replaces the card.
    const bad = await saveCard(w, {
      TokenGuid: guid,
      CardEmail: s.email,
      CardNumber: TEST_CARDS.declined,
      ExpirationDate: futureExpiry(),
      IsValidateCard: true,
    });
    expect(bad).toMatchObject({ Status: false, Message: expect.stringMatching(/nothing was changed/) });
    expect((await storedCards(w, s.email))[0]?.MaskedCardNumber).toBe('************4242');
    const swapped = await saveCard(
      w,
      {
        TokenGuid: guid,
        CardEmail: s.email,
        CardNumber: TEST_CARDS.mastercard,
        ExpirationDate: futureExpiry(),
        IsValidateCard: true,
      },
      SERVICE,
    );
    expect(swapped.Status).toBe(true);
    expect(await storedCards(w, s.email)).toEqual([
      expect.objectContaining({
        TokenGuid: guid,
        MaskedCardNumber: '************4444',
        DisplayName: 'Travel',
      }),
    ]);
  });

  it('a new number the shopper already holds under these contacts is refused, naming that entry', async () => {
    const s = newShopper();
    const expiry = futureExpiry();
    const visa = await saveCard(w, {
      CardNumber: TEST_CARDS.visa,
      ExpirationDate: expiry,
      CardEmail: s.email,
    });
    const mc = await saveCard(w, {
      CardNumber: TEST_CARDS.mastercard,
      ExpirationDate: expiry,
      CardEmail: s.email,
    });
    const clash = await saveCard(w, {
      TokenGuid: mc.guid,
      CardEmail: s.email,
      CardNumber: TEST_CARDS.visa,
      ExpirationDate: expiry,
    });
    expect(clash).toMatchObject({
      Status: false,
      Message: `This card is already in the shopper's wallet. TokenGuid=${visa.guid}`,
    });
    // Saving it again (empty TokenGuid) is not a clash: it answers the entry the shopper has.
    const again = await saveCard(w, {
      CardNumber: TEST_CARDS.visa,
      ExpirationDate: expiry,
      CardEmail: s.email,
    });
    expect(again).toMatchObject({ Status: true, guid: visa.guid });
    expect(await storedCards(w, s.email)).toHaveLength(2);
  });
});
