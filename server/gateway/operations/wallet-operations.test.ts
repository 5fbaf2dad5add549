/**
 * The shopper's wallet (docs/gateway-wallet-codes.md): GetStoredCards (last four only, expired cards
 * left out, matching by e-mail OR phone, one card shown once), RemoveStoredCard, who may call what,
 * and `addToWallet`. Through the real SOAP endpoint, on every database target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../../test/kit/databases.ts';
import { TEST_CARDS } from '../processor/simulator.ts';
import { call, futureExpiry, rawCall } from '../../../test/kit/gateway/gateway-kit.ts';
import {
  newShopper,
  openWalletWorld,
  SERVICE,
  saveCard,
  storedCards,
  type WalletWorld,
} from '../../../test/kit/gateway/wallet-world.ts';
import { walletCardId } from '../wallet/wallet-store.ts';
import { addToWallet } from './wallet-operations.ts';

describe.each(databaseTargets())('shopper wallet ($name)', (target) => {
  let w: WalletWorld;

  beforeAll(async () => {
    w = await openWalletWorld(target);
  });
  afterAll(() => w?.close());

  it('UpdateToken saves a card for an e-mail; GetStoredCards shows the last four only', async () => {
    const s = newShopper();
    const saved = await saveCard(w, {
      CardNumber: TEST_CARDS.visa,
      ExpirationDate: futureExpiry(),
      CVV2: '123',
      NameOnCard: 'Jo Doe',
      CardEmail: s.email,
      DisplayName: 'Work card',
    });
    expect(saved).toMatchObject({ Status: true, Message: expect.stringMatching(/^Saved\. TokenGuid=/) });
    const reply = await rawCall(w.app, 'GetStoredCards', { email: s.email.toLowerCase() }, SERVICE);
    expect(reply.status).toBe(200);
    // Beyond the (random) TokenGuid, no run of more than four digits: never a PAN, nor its BIN.
    const shown = reply.body.replace(/<TokenGuid>[^<]*<\/TokenGuid>/g, '');
    expect(reply.body).not.toMatch(/\d{13,}/);
    expect(shown).not.toMatch(/\d{5,}/);
    expect(reply.body).not.toContain('424242');
    // The expiry (issue 14 §6) as CardDetail writes it, 'MMYY', the last element of the card.
    const mmyy = futureExpiry().replace('/', '');
    expect(reply.body).toContain(
      `<DisplayName>Work card</DisplayName><ExpirationDate>${mmyy}</ExpirationDate>`,
    );
    expect(await storedCards(w, s.email)).toEqual([
      {
        TokenGuid: saved.guid,
        MaskedCardNumber: '************4242',
        NameOnCard: 'Jo Doe',
        CardType: 'Visa',
        DisplayName: 'Work card',
        ExpirationDate: mmyy,
      },
    ]);
    // Nothing about the card under another contact, and never the CVV anywhere in the database.
    expect(await storedCards(w, 'someone.else@example.com')).toEqual([]);
    const dump = await w.db.query('select * from wallet_cards');
    expect(JSON.stringify(dump.rows)).not.toMatch(/4242424242424242|"123"/);
  });

  it('matches an entry by its e-mail OR its phone; names default; one card shown once', async () => {
    const s = newShopper();
    const both = await saveCard(w, {
      CardNumber: TEST_CARDS.mastercard,
      ExpirationDate: futureExpiry(),
      CardEmail: s.email,
      PhoneNumber: s.phone,
    });
    expect(both.Status).toBe(true);
    const byPhoneOnly = await saveCard(w, {
      CardNumber: TEST_CARDS.amex,
      ExpirationDate: futureExpiry(),
      PhoneNumber: s.phone,
    });
    // The same card for a phone-only entry too: still one card in the list.
    await saveCard(w, {
      CardNumber: TEST_CARDS.mastercard,
      ExpirationDate: futureExpiry(),
      PhoneNumber: s.phone,
    });
    const viaEmail = await storedCards(w, s.email);
    expect(viaEmail.map((c) => c.TokenGuid)).toEqual([both.guid]);
    expect(viaEmail[0]).toMatchObject({ CardType: 'Mastercard', DisplayName: 'Mastercard ending in 4444' });
    const viaPhone = await storedCards(w, null, `(415) 555-${s.phone.slice(-4)}`);
    expect(viaPhone.map((c) => c.MaskedCardNumber).sort()).toEqual(['************0005', '************4444']);
    expect(viaPhone.find((c) => c.CardType === 'American Express')?.TokenGuid).toBe(byPhoneOnly.guid);
    expect(await storedCards(w, s.email, s.phone)).toHaveLength(2);
  });

  it('GetStoredCards leaves expired cards out; an UpdateToken with a new expiry brings one back', async () => {
    const s = newShopper();
    const year = w.clock.now.getUTCFullYear() + 1;
    const soon = await saveCard(w, {
      CardNumber: TEST_CARDS.visa,
      ExpirationDate: `06/${year % 100}`,
      PhoneNumber: s.phone,
    });
    await saveCard(w, {
      CardNumber: TEST_CARDS.mastercard,
      ExpirationDate: `12/${(year + 5) % 100}`,
      PhoneNumber: s.phone,
    });
    expect(await storedCards(w, null, s.phone)).toHaveLength(2);
    const real = w.clock.now;
    try {
      w.clock.now = new Date(Date.UTC(year, 6, 1, 12)); // 1 July 12:00 UTC: June has ended everywhere
      expect((await storedCards(w, null, s.phone)).map((c) => c.CardType)).toEqual(['Mastercard']);
      w.clock.now = new Date(Date.UTC(year, 6, 1, 11, 59)); // still 30 June somewhere
      expect(await storedCards(w, null, s.phone)).toHaveLength(2);
      w.clock.now = new Date(Date.UTC(year, 6, 2));
      const renewed = await saveCard(w, {
        TokenGuid: soon.guid,
        PhoneNumber: s.phone,
        ExpirationDate: `06/${(year + 3) % 100}`,
      });
      expect(renewed.Status).toBe(true);
      expect(await storedCards(w, null, s.phone)).toHaveLength(2);
    } finally {
      w.clock.now = real;
    }
  });

  it('RemoveStoredCard (extension): the checkout server removes a card for a shopper it verified', async () => {
    const s = newShopper();
    const saved = await saveCard(w, {
      CardNumber: TEST_CARDS.visa,
      ExpirationDate: futureExpiry(),
      CardEmail: s.email,
      PhoneNumber: s.phone,
    });
    // The same card again under the phone alone: a second entry, shown once beside the first.
    const phoneOnly = await saveCard(w, {
      CardNumber: TEST_CARDS.visa,
      ExpirationDate: futureExpiry(),
      PhoneNumber: s.phone,
    });
    expect(await storedCards(w, s.email, s.phone)).toHaveLength(1);
    const remove = (email: string | null, phoneNumber: string | null, tokenGuid: string | undefined) =>
      call(w.app, 'RemoveStoredCard', { email, phoneNumber, tokenGuid }, SERVICE);
    expect(await remove('other@example.com', null, saved.guid)).toMatchObject({ Status: false });
    expect(await remove(s.email, null, '')).toMatchObject({
      Status: false,
      Message: expect.stringMatching(/tokenGuid/),
    });
    // Proven e-mail only: the entries the e-mail reaches go; the phone-only one needs the phone.
    expect(await remove(s.email, null, saved.guid)).toEqual({
      Status: true,
      Message: `Removed. TokenGuid=${saved.guid}`,
    });
    expect(await storedCards(w, s.email)).toEqual([]);
    expect((await storedCards(w, null, s.phone)).map((c) => c.TokenGuid)).toEqual([phoneOnly.guid]);
    // Both proven: every entry of that card either contact reaches goes, so none resurfaces.
    const again = await saveCard(w, {
      CardNumber: TEST_CARDS.visa,
      ExpirationDate: futureExpiry(),
      CardEmail: s.email,
      PhoneNumber: s.phone,
    });
    expect(await remove(s.email, s.phone, again.guid)).toMatchObject({ Status: true });
    expect(await storedCards(w, s.email, s.phone)).toEqual([]);
    expect(await remove(s.email, null, saved.guid)).toMatchObject({ Status: false });
    expect(
      (await saveCard(w, { TokenGuid: saved.guid, CardEmail: s.email, DisplayName: 'back?' })).Status,
    ).toBe(false);
  });

  it('a merchant credential may not read, remove from or code into the wallet: forbidden', async () => {
    const s = newShopper();
    const saved = await saveCard(w, {
      CardNumber: TEST_CARDS.visa,
      ExpirationDate: futureExpiry(),
      CardEmail: s.email,
    });
    for (const [op, params] of [
      ['GetStoredCards', { email: s.email }],
      ['RemoveStoredCard', { email: s.email, tokenGuid: saved.guid }],
      ['SendVerificationCode', { email: s.email }],
    ] as const) {
      const f = await rawCall(w.app, op, params, w.a.as);
      expect(f.errorCode, op).toBe('forbidden');
      expect(f.body).not.toContain('4242');
      expect(f.body).not.toMatch(/\b\d{6}\b/);
      expect((await rawCall(w.app, op, params, null)).status).toBe(401);
    }
    expect(await storedCards(w, s.email)).toHaveLength(1);
  });

  it('addToWallet (after a payment with CreateToken): saves for valid contacts, once, keeping names', async () => {
    const s = newShopper();
    const card = await w.deps.vault.store(w.db, {
      number: TEST_CARDS.visa,
      expMonth: 12,
      expYear: 2040,
    });
    const add = (fields: Partial<Parameters<typeof addToWallet>[2]>) =>
      addToWallet(w.db, w.deps, { cardId: card.id, merchantId: w.a.id, nameOnCard: 'J D', ...fields });
    expect(await add({})).toBeNull();
    expect(await add({ email: 'not an email', phone: 'call me' })).toBeNull();
    const first = await add({ email: s.email, displayName: 'From Alpha' });
    expect(first?.tokenGuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(await add({ email: ` ${s.email.toUpperCase()} `, displayName: 'Renamed?' })).toEqual(first);
    expect(await storedCards(w, s.email)).toEqual([
      {
        TokenGuid: first?.tokenGuid,
        MaskedCardNumber: '************4242',
        NameOnCard: 'J D',
        CardType: 'Visa',
        DisplayName: 'From Alpha',
        ExpirationDate: '1240',
      },
    ]);
    // An invalid phone beside a valid e-mail is left out, not fatal.
    const other = await addToWallet(w.db, w.deps, {
      cardId: card.id,
      merchantId: null,
      email: `x.${s.email}`,
      phone: '12',
    });
    const rows = await w.db.query<{ phone: string | null; created_by_merchant: string | null }>(
      'select phone, created_by_merchant from wallet_cards where token_guid = $1',
      [other?.tokenGuid],
    );
    expect(rows.rows).toEqual([{ phone: null, created_by_merchant: null }]);
  });

  it('walletCardId (for paying with a wallet card): the TokenGuid and a matching contact, not expired or removed', async () => {
    const s = newShopper();
    const saved = await saveCard(w, {
      CardNumber: TEST_CARDS.visa,
      ExpirationDate: futureExpiry(),
      CardEmail: s.email,
    });
    const contacts = { email: s.email.toLowerCase(), phone: null };
    const cardId = (await walletCardId(w.db, saved.guid ?? '', contacts, w.clock.now))?.cardId;
    expect((await w.deps.vault.get(w.db, cardId ?? ''))?.last4).toBe('4242');
    expect(
      await walletCardId(w.db, saved.guid ?? '', { email: 'x@example.com', phone: null }, w.clock.now),
    ).toBeNull();
    const later = new Date(Date.UTC(w.clock.now.getUTCFullYear() + 3, 0, 2));
    expect(await walletCardId(w.db, saved.guid ?? '', contacts, later)).toBeNull();
    await call(w.app, 'RemoveStoredCard', { email: s.email, tokenGuid: saved.guid }, SERVICE);
    expect(await walletCardId(w.db, saved.guid ?? '', contacts, w.clock.now)).toBeNull();
  });
});
