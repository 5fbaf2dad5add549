import { describe, expect, it } from 'vitest';
import { normalizeCardNumber, validCardNumber } from './card-number.ts';

describe('normalizeCardNumber', () => {
  it('strips spaces and dashes between groups and keeps 12–19 digits', () => {
    expect(normalizeCardNumber(' 4242 4242-4242 4242 ')).toBe('4242424242424242');
    expect(normalizeCardNumber('3782-822463-10005')).toBe('378282246310005');
    expect(normalizeCardNumber('675964982643')).toBe('675964982643');
    expect(normalizeCardNumber('4000000000000000006')).toBe('4000000000000000006');
  });

  it.each([
    '',
    '42424242424',
    '42424242424242424242',
    '4242x42424242424',
    '-4242424242424242',
    '+4242424242424242',
    '4242.4242.4242.4242',
    '４２４２４２４２４２４２４２４２',
  ])('refuses %j', (text) => expect(normalizeCardNumber(text)).toBeNull());
});

describe('validCardNumber', () => {
  it('answers the digits of a Luhn-valid number, else null', () => {
    expect(validCardNumber('4242 4242 4242 4242')).toBe('4242424242424242');
    expect(validCardNumber('4222222222222')).toBe('4222222222222'); // 13 digits: the length is the rule's, not a brand's
    expect(validCardNumber('4242 4242 4242 4241')).toBeNull();
    expect(validCardNumber('4242')).toBeNull();
  });
});
