import { describe, expect, it } from 'vitest';
import { AmountError, fromCents, toCents, toPositiveCents } from './money.ts';

describe('money', () => {
  it('converts decimal strings to cents exactly', () => {
    expect(toCents('10.50')).toBe(1050n);
    expect(toCents('10.5')).toBe(1050n);
    expect(toCents('0.01')).toBe(1n);
    expect(toCents('.5')).toBe(50n);
    expect(toCents('7')).toBe(700n);
    expect(toCents('1.500')).toBe(150n);
    expect(toCents('-2.25')).toBe(-225n);
    expect(toCents('9999999999.99')).toBe(999_999_999_999n);
  });

  it('refuses what is not an amount of money', () => {
    for (const bad of ['', '.', 'abc', '1e5', '10.001', '1,000.00', 'NaN', '10000000000.00']) {
      expect(() => toCents(bad)).toThrow(AmountError);
    }
  });

  it('requires positive amounts where asked', () => {
    expect(() => toPositiveCents('0')).toThrow('greater than zero');
    expect(() => toPositiveCents('-1')).toThrow('greater than zero');
    expect(toPositiveCents('0.01')).toBe(1n);
  });

  it('formats cents with two decimals', () => {
    expect(fromCents(1050n)).toBe('10.50');
    expect(fromCents(5n)).toBe('0.05');
    expect(fromCents(-225n)).toBe('-2.25');
    expect(fromCents(0n)).toBe('0.00');
  });
});
