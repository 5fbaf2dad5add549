import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { luhnValid } from '../../../shared/card/luhn.ts';
import type { Database } from '../../db/database.ts';
import { PayframeError } from '../../errors.ts';
import { databaseTargets } from '../../../test/kit/databases.ts';
import { CardVault } from './card-vault.ts';
import { VaultDecryptError, VaultKeys } from './keys.ts';

/** A Luhn-valid Visa number with random middle digits, so a scan can tell them apart from anything else. */
function randomPan(): string {
  for (;;) {
    const body = `4${Array.from(crypto.randomBytes(14), (b) => b % 10).join('')}`;
    for (let d = 0; d < 10; d++) if (luhnValid(`${body}${d}`)) return `${body}${d}`;
  }
}

for (const target of databaseTargets()) {
  describe(`card vault on ${target.name}`, () => {
    let db: Database;
    const keys = new VaultKeys(crypto.randomBytes(32));
    const vault = new CardVault(keys);

    beforeAll(async () => {
      db = await target.open();
    });
    afterAll(async () => {
      await db?.close();
    });

    it('stores a card and reveals its PAN', async () => {
      const pan = randomPan();
      const card = await vault.store(db, {
        number: pan,
        expMonth: 12,
        expYear: 2030,
      });
      expect(card).toEqual({
        id: expect.stringMatching(/^card_[0-9a-f]{24}$/),
        brand: 'Visa',
        bin: pan.slice(0, 6),
        last4: pan.slice(-4),
        masked: `${pan.slice(0, 6)}******${pan.slice(-4)}`,
        expMonth: 12,
        expYear: 2030,
        fingerprint: vault.fingerprint(pan),
      });
      expect(await vault.get(db, card.id)).toEqual(card);
      expect(await vault.reveal(db, card.id)).toBe(pan);
      expect(await vault.get(db, 'card_nothere')).toBeNull();
      await expect(vault.reveal(db, 'card_nothere')).rejects.toBeInstanceOf(PayframeError);
    });

    it('stores the same PAN and expiry once, even concurrently', async () => {
      const pan = randomPan();
      const spaced = pan.replace(/(\d{4})/g, '$1 ');
      const cards = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          vault.store(db, { number: i % 2 ? spaced : pan, expMonth: 1, expYear: 31 }),
        ),
      );
      expect(new Set(cards.map((c) => c.id)).size).toBe(1);
      expect(cards[0]!.expYear).toBe(2031);
      const { rows } = await db.query<{ n: string }>(
        'select count(*) as n from cards where fingerprint = $1',
        [vault.fingerprint(pan)],
      );
      expect(Number(rows[0]!.n)).toBe(1);
    });

    it('stores another expiry of the same PAN as another card, with a fresh ciphertext', async () => {
      const pan = randomPan();
      const a = await vault.store(db, { number: pan, expMonth: 2, expYear: 2030 });
      const b = await vault.store(db, { number: pan, expMonth: 3, expYear: 2030 });
      expect(b.id).not.toBe(a.id);
      expect(b.fingerprint).toBe(a.fingerprint);
      const { rows } = await db.query<{ pan_enc: string }>('select pan_enc from cards where id = any($1)', [
        [a.id, b.id],
      ]);
      expect(rows).toHaveLength(2);
      expect(rows[0]!.pan_enc).not.toBe(rows[1]!.pan_enc);
      expect(keys.encryptPan(pan, a.id)).not.toBe(keys.encryptPan(pan, a.id)); // a random IV each time
    });

    it('keeps no PAN digits beyond the BIN and last four in any column', async () => {
      const pans = [randomPan(), randomPan(), randomPan()];
      for (const pan of pans) await vault.store(db, { number: pan, expMonth: 7, expYear: 2029 });
      const { rows } = await db.query('select * from cards');
      const text = rows.map((r) => Object.values(r).map(String).join('|')).join('\n');
      // Digits of the clear columns run together (random-looking ones could match by chance).
      const clear = rows.map(({ pan_enc, fingerprint, id, created_at, ...rest }) =>
        Object.values(rest).join(''),
      );
      const digitsOnly = clear.join('').replace(/\D/g, '');
      for (const pan of pans) {
        const middle = pan.slice(6, -4);
        expect(text).not.toContain(pan);
        expect(text).not.toContain(middle);
        expect(digitsOnly).not.toContain(middle);
        expect(text).not.toContain(crypto.createHash('sha256').update(pan).digest('hex')); // no bare hash
      }
    });

    it('gives a different fingerprint under a different key (PCI-3511-1)', () => {
      const pan = randomPan();
      const other = new CardVault(new VaultKeys(crypto.randomBytes(32)));
      expect(vault.fingerprint(pan)).toMatch(/^[0-9a-f]{64}$/);
      expect(other.fingerprint(pan)).not.toBe(vault.fingerprint(pan));
      expect(vault.fingerprint(pan.replace(/(\d{4})/g, '$1-'))).toBe(vault.fingerprint(pan));
    });

    it('refuses a tampered or moved ciphertext', async () => {
      const a = await vault.store(db, { number: randomPan(), expMonth: 8, expYear: 2030 });
      const b = await vault.store(db, { number: randomPan(), expMonth: 8, expYear: 2030 });
      const { rows } = await db.query<{ pan_enc: string }>('select pan_enc from cards where id = $1', [a.id]);
      const parts = rows[0]!.pan_enc.split('.');
      const ct = Buffer.from(parts[4]!, 'base64url');
      ct[3]! ^= 0x10;
      await db.query('update cards set pan_enc = $2 where id = $1', [
        a.id,
        [...parts.slice(0, 4), ct.toString('base64url')].join('.'),
      ]);
      await expect(vault.reveal(db, a.id)).rejects.toBeInstanceOf(VaultDecryptError);
      // b's ciphertext copied onto a's row does not decrypt there either: each is bound to its id.
      await db.query('update cards set pan_enc = (select pan_enc from cards where id = $2) where id = $1', [
        a.id,
        b.id,
      ]);
      await expect(vault.reveal(db, a.id)).rejects.toBeInstanceOf(VaultDecryptError);
      // A vault under another key cannot read the cards.
      const stranger = new CardVault(new VaultKeys(crypto.randomBytes(32)));
      await expect(stranger.reveal(db, b.id)).rejects.toThrow(/encrypted under key/);
    });

    it('rejects bad input with messages that hold no number', async () => {
      for (const input of [
        { number: '4242424242424241', expMonth: 1, expYear: 2030 },
        { number: '4242424242424242', expMonth: 13, expYear: 2030 },
        { number: '4242424242424242', expMonth: 1, expYear: 1999 },
      ]) {
        const err = await vault.store(db, input).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(PayframeError);
        expect((err as PayframeError).code).toBe('validation_failed');
        expect((err as Error).message).not.toMatch(/4242/);
      }
    });
  });
}
