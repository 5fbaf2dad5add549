import { describe, expect, it } from 'vitest';
import { abaRoutingValid, bankAccountNumberValid } from './bank-account.ts';

describe('abaRoutingValid', () => {
  it.each(['011000015', '110000000', '021000021', '121000358', '322271627', ' 011000015 '])(
    '%j is a valid ABA number',
    (r) => expect(abaRoutingValid(r)).toBe(true),
  );

  it.each([
    ['011000016', 'checksum'],
    ['000000000', 'all zeros'],
    ['12345678', 'eight digits'],
    ['1234567890', 'ten digits'],
    ['99000000x', 'not digits'],
    ['990000000', 'prefix 99'],
    ['400000000', 'prefix 40 (checksum holds)'],
    ['011 000 015', 'spaces inside'],
  ])('%j is not (%s)', (r) => expect(abaRoutingValid(r)).toBe(false));
});

describe('bankAccountNumberValid', () => {
  it('is 4 to 17 digits', () => {
    expect(bankAccountNumberValid('1234')).toBe(true);
    expect(bankAccountNumberValid('12345678901234567')).toBe(true);
    expect(bankAccountNumberValid('123')).toBe(false);
    expect(bankAccountNumberValid('123456789012345678')).toBe(false);
    expect(bankAccountNumberValid('1234-5678')).toBe(false);
  });
});
