import { describe, expect, it } from 'vitest';
import { containsCardNumber, maskCardNumbers } from './card-number-in-text.ts';

const PAN = '4242424242424242';

describe('containsCardNumber', () => {
  it('finds a Luhn-valid 13–19 digit number, plain, spaced or dashed, anywhere in text', () => {
    for (const text of [
      PAN,
      `paid with ${PAN}.`,
      'card 4000 0000 0000 0002 ok',
      '5555-5555-5555-4444',
      `${PAN} 123`, // a CVV typed after it
      `x${PAN}y`,
    ])
      expect(containsCardNumber(text), text).toBe(true);
  });

  it('leaves order numbers, times, decimals and short numbers alone', () => {
    for (const text of [
      'order 1234567890123 total 10.50',
      '"responseTime":1.0000000000998899',
      '2026-11-22T03:04:25.389Z',
      '424242******4242',
      '•••• 4242',
      '4242 4242',
    ])
      expect(containsCardNumber(text), text).toBe(false);
  });
});

describe('maskCardNumbers', () => {
  it('masks every digit but the last four, keeping separators', () => {
    expect(maskCardNumbers(`card ${PAN} ok`)).toBe('card ************4242 ok');
    expect(maskCardNumbers('"4000 0000 0000 0002"')).toBe('"**** **** **** 0002"');
    expect(maskCardNumbers('5555-5555-5555-4444')).toBe('****-****-****-4444');
    expect(maskCardNumbers(`${PAN} 123`)).not.toContain(PAN);
  });

  it('agrees with containsCardNumber: text changes exactly when it holds one', () => {
    for (const text of [PAN, 'order 1234567890123', '3782-822463-10005', '1.0000000000998899', 'no digits'])
      expect(maskCardNumbers(text) !== text, text).toBe(containsCardNumber(text));
  });
});
