import { describe, expect, it } from 'vitest';
import { AccountNumber, CardExpiry, CardNumber, RoutingNumber } from '../../../shared/checkout/fields.ts';
import { achProblems, cardNumberProblem, expiryProblem, formatExpiry } from './card.ts';

const NOW = new Date('2026-05-15T12:00:00Z');

describe('formatExpiry, as the shopper types', () => {
  it.each([
    ['1', '1'],
    ['3', '03/'],
    ['12', '12/'],
    ['123', '12/3'],
    ['1230', '12/30'],
    ['12/20', '12/20'],
    ['12/203', '12/203'],
    ['122030', '12/2030'],
    ['12 / 2030', '12/2030'],
    ['12 / 30', '12/30'], // pasted or filled with spaces
    ['12/2030', '12/2030'], // cc-exp autofill, MM/YYYY
    ['2030-12', '12/2030'], // filled in ISO form
    ['1230999', '12/3099'],
  ])('%j → %j', (typed, shown) => expect(formatExpiry(typed, false)).toBe(shown));

  it('lets the slash be deleted', () => expect(formatExpiry('12', true)).toBe('12'));
});

describe('the form accepts what the checkout API accepts (shared/card/)', () => {
  it.each([
    '12/30',
    '12/2030',
    '1230',
    '122030',
    '2030-12',
    '12 / 30',
    '1/30',
    '12-30',
    '13/30',
    '12/3',
    '',
    'x',
  ])('expiry %j', (value) => {
    expect(value.trim() !== '' && expiryProblem(value, NOW) === undefined).toBe(
      CardExpiry.safeParse(value).success,
    );
  });

  it.each([
    '4242 4242 4242 4242',
    '4242-4242-4242-4242',
    '4222222222222',
    '4242 4242 4242 4241',
    '4242',
    '-4242424242424242',
  ])('card number %j', (value) => {
    expect(cardNumberProblem(value) === undefined).toBe(CardNumber.safeParse(value).success);
  });

  it.each([
    ['011000015', '000123456789'],
    ['011000016', '000123456789'],
    ['990000000', '1234'],
    ['011000015', '123'],
  ])('routing %j, account %j', (routing, account) => {
    const p = achProblems({
      routing,
      account,
      confirm: account,
      accountType: 'checking',
      name: 'Ada',
      authorized: true,
    });
    expect(p.routing === undefined).toBe(RoutingNumber.safeParse(routing).success);
    expect(p.account === undefined).toBe(AccountNumber.safeParse(account).success);
    expect(p.confirm).toBeUndefined();
  });

  it('asks for the account number twice, the same', () => {
    const base = {
      routing: '011000015',
      account: '000123456789',
      accountType: 'checking' as const,
      name: 'Ada',
      authorized: true,
    };
    expect(achProblems({ ...base, confirm: '' }).confirm).toEqual({ key: 'errConfirmRequired' });
    expect(achProblems({ ...base, confirm: '000123456780' }).confirm).toEqual({ key: 'errConfirmMismatch' });
    expect(achProblems({ ...base, confirm: base.account }).confirm).toBeUndefined();
  });
});

describe('expiryProblem', () => {
  it('says which problem: required, format (or too far ahead), past', () => {
    expect(expiryProblem(' ', NOW)).toEqual({ key: 'errExpiryRequired' });
    expect(expiryProblem('13/30', NOW)).toEqual({ key: 'errExpiryFormat' });
    expect(expiryProblem('12/2099', NOW)).toEqual({ key: 'errExpiryFormat' });
    expect(expiryProblem('04/26', NOW)).toEqual({ key: 'errExpiryPast' });
  });

  it('keeps a card valid through its last day anywhere on earth, as the server does', () => {
    // 1 June 02:00 in UTC+14 is still 31 May in UTC-12: a May card is accepted by both.
    expect(expiryProblem('05/26', new Date('2026-05-31T12:00:00Z'))).toBeUndefined();
    expect(expiryProblem('05/26', new Date('2026-06-01T12:00:00Z'))).toEqual({ key: 'errExpiryPast' });
  });
});
