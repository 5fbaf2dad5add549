import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PayframeError } from '../errors.ts';
import { cardDetailsFromEncryptedData, getCardInfo, INVALID_CARD_NUMBER } from './card-info.ts';
import { decryptReaderData, encryptReaderData, ReaderDataError, readerTracks } from './card-reader.ts';
import { TEST_CARDS } from './processor/simulator.ts';

const KEY = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';

describe('GetCardInfo', () => {
  it.each([
    [TEST_CARDS.visa, 'Visa'],
    ['5555 5555 5555 4444', 'Mastercard'],
    [TEST_CARDS.amex, 'American Express'],
    ['6011-1111-1111-1117', 'Discover'],
    ['3566002020360505', 'JCB'],
  ])('%s → %s', (CardNumber, Type) => {
    expect(getCardInfo({ MerchantID: '100001', CardNumber })).toEqual({ Type, ErrorMessage: null });
  });

  it('says a number is invalid without echoing it', () => {
    for (const CardNumber of ['4242424242424241', '4242', 'not a card']) {
      const info = getCardInfo({ CardNumber });
      expect(info).toEqual({ Type: null, ErrorMessage: INVALID_CARD_NUMBER });
      expect(JSON.stringify(info)).not.toContain(CardNumber);
    }
    expect(getCardInfo(null).ErrorMessage).toMatch(/required/);
    expect(getCardInfo({ CardNumber: '  ' }).ErrorMessage).toMatch(/required/);
  });
});

describe('sandbox card-reader data', () => {
  it('round-trips, with and without a name', () => {
    const card = { pan: TEST_CARDS.visa, expMonth: 12, expYear: 2030 };
    expect(decryptReaderData(KEY, encryptReaderData(KEY, card))).toEqual(card);
    const named = { ...card, pan: TEST_CARDS.amex, name: 'Jane Doe' };
    expect(decryptReaderData(KEY, encryptReaderData(KEY, named))).toEqual({ ...named, name: 'JANE DOE' });
  });

  it('writes magnetic-stripe tracks', () => {
    expect(readerTracks({ pan: TEST_CARDS.visa, expMonth: 3, expYear: 2031 })).toBe(
      ';4242424242424242=3103101?',
    );
    expect(readerTracks({ pan: TEST_CARDS.visa, expMonth: 3, expYear: 2031, name: 'DOE/JANE' })).toBe(
      '%B4242424242424242^DOE/JANE^3103101?;4242424242424242=3103101?',
    );
  });

  it('is base64 of iv ‖ tag ‖ AES-256-GCM ciphertext (the documented worked example, checked with Python cryptography)', () => {
    const iv = Buffer.from('a0a1a2a3a4a5a6a7a8a9aaab', 'hex');
    const blob = encryptReaderData(KEY, { pan: TEST_CARDS.visa, expMonth: 12, expYear: 2030 }, { iv });
    expect(blob).toBe('oKGio6SlpqeoqaqrkaLGDhJxsY9EPfwMrv+BSd0sThl3/zCLUFG15zVO8upCkWogo4VzXK0x');
    // Independently: decrypt with plain node:crypto as a merchant's own code would.
    const bytes = Buffer.from(blob, 'base64');
    const d = crypto.createDecipheriv('aes-256-gcm', Buffer.from(KEY, 'hex'), bytes.subarray(0, 12));
    d.setAuthTag(bytes.subarray(12, 28));
    expect(Buffer.concat([d.update(bytes.subarray(28)), d.final()]).toString()).toBe(
      ';4242424242424242=3012101?',
    );
  });

  it('refuses a wrong key, altered data and bad input, without naming the number', () => {
    const blob = encryptReaderData(KEY, { pan: TEST_CARDS.visa, expMonth: 12, expYear: 2030 });
    const otherKey = crypto.randomBytes(32).toString('hex');
    const bytes = Buffer.from(blob, 'base64');
    bytes[bytes.length - 1]! ^= 1;
    const attempts: Array<() => unknown> = [
      () => decryptReaderData(otherKey, blob),
      () => decryptReaderData(KEY, bytes.toString('base64')),
      () => decryptReaderData(KEY, 'not base64!'),
      () => decryptReaderData(KEY, 'AAAA'),
      () => decryptReaderData('abc', blob),
      () => encryptReaderData(KEY, { pan: '4242424242424241', expMonth: 12, expYear: 2030 }),
      () => encryptReaderData(KEY, { pan: TEST_CARDS.visa, expMonth: 0, expYear: 2030 }),
    ];
    for (const attempt of attempts) {
      const err = (() => {
        try {
          attempt();
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(ReaderDataError);
      expect((err as Error).message).not.toMatch(/4242/);
    }
  });

  it('refuses data whose tracks are unreadable', () => {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', Buffer.from(KEY, 'hex'), iv);
    const ct = Buffer.concat([cipher.update('garbage'), cipher.final()]);
    const blob = Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64');
    expect(() => decryptReaderData(KEY, blob)).toThrow(/no readable track/);
  });
});

describe('GetCardDetailsFromEncryptedData', () => {
  it('returns the masked number, expiry as MMYY and brand', () => {
    const blob = encryptReaderData(KEY, { pan: TEST_CARDS.amex, expMonth: 5, expYear: 2029, name: 'J DOE' });
    expect(
      cardDetailsFromEncryptedData({ encryptedData: blob, deviceName: 'Sandbox MSR', readerKeyHex: KEY }),
    ).toEqual({
      MaskedCardNumber: '378282*****0005',
      ExpirationDate: '0529',
      CardType: 'American Express',
    });
  });

  it('answers unreadable data with a validation error that holds no number', () => {
    const blob = encryptReaderData(KEY, { pan: TEST_CARDS.visa, expMonth: 12, expYear: 2030 });
    const other = crypto.randomBytes(32).toString('hex');
    for (const encryptedData of [blob, '', null]) {
      const err = (() => {
        try {
          cardDetailsFromEncryptedData({ encryptedData, readerKeyHex: other });
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(PayframeError);
      expect((err as PayframeError).code).toBe('validation_failed');
      expect((err as Error).message).not.toMatch(/4242/);
    }
  });

  it('has a command-line helper for merchants', () => {
    const script = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../scripts/reader-data.ts');
    const run = (...args: string[]) =>
      execFileSync(process.execPath, ['--import', 'tsx', script, ...args], { encoding: 'utf8' }).trim();
    const blob = run('--key', KEY, '--pan', TEST_CARDS.visa, '--exp', '12/30', '--name', 'Jane Doe');
    expect(decryptReaderData(KEY, blob)).toEqual({
      pan: TEST_CARDS.visa,
      expMonth: 12,
      expYear: 2030,
      name: 'JANE DOE',
    });
    expect(JSON.parse(run('--key', KEY, '--decrypt', blob))).toEqual({
      MaskedCardNumber: '424242******4242',
      ExpirationDate: '1230',
      CardType: 'Visa',
    });
  });
});
