import { describe, expect, it } from 'vitest';
import { amountProblem, formatDay, sumAmounts } from './format.ts';

describe('an amount a user types (refund, capture, payment link)', () => {
  it('is a positive amount with a dot and at most two decimals, up to what remains', () => {
    expect(amountProblem('12.34')).toBeNull();
    expect(amountProblem('12')).toBeNull();
    expect(amountProblem('25.00', '25.00')).toBeNull();
    expect(amountProblem('0.01', '25.00')).toBeNull();
  });

  it('says what is wrong: not an amount, not above zero, more than remains', () => {
    expect(amountProblem('')).toBe('amountInvalid');
    expect(amountProblem('12,34')).toBe('amountInvalid');
    expect(amountProblem('1.234')).toBe('amountInvalid');
    expect(amountProblem('ten')).toBe('amountInvalid');
    expect(amountProblem('0')).toBe('amountPositive');
    expect(amountProblem('-5.00')).toBe('amountPositive');
    expect(amountProblem('25.01', '25.00')).toBe('amountTooLarge');
  });

  it('compares in cents, never in floats (0.1 + 0.2 is not above 0.30)', () => {
    expect(sumAmounts(['0.10', '0.20'])).toBe('0.30');
    expect(amountProblem(sumAmounts(['0.10', '0.20']), '0.30')).toBeNull();
  });
});

describe('sums of decimal amounts', () => {
  it('are exact, also for many small and very large amounts', () => {
    expect(sumAmounts([])).toBe('0.00');
    expect(sumAmounts(Array.from({ length: 30 }, () => '0.10'))).toBe('3.00');
    expect(sumAmounts(['9999999999.99', '0.01'])).toBe('10000000000.00');
  });
});

describe("a chart day's label", () => {
  it('is the UTC day in the language, whatever the time zone', () => {
    expect(formatDay('2026-11-24', 'en')).toBe('Nov 24');
    expect(formatDay('2026-11-24', 'es')).toBe('24 nov');
    expect(formatDay('not a day', 'en')).toBe('not a day');
  });
});
