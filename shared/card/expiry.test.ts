import { describe, expect, it } from 'vitest';
import {
  earliestUnexpired,
  expiryInPast,
  expiryInRange,
  expiryTooFarAhead,
  formatExpiryMMYY,
  parseExpiry,
} from './expiry.ts';

describe('parseExpiry: the one set of accepted forms', () => {
  it.each([
    ['12/30', { month: 12, year: 2030 }],
    ['12 / 30', { month: 12, year: 2030 }],
    [' 01/30 ', { month: 1, year: 2030 }],
    ['12/2030', { month: 12, year: 2030 }],
    ['12 /2030', { month: 12, year: 2030 }],
    ['1230', { month: 12, year: 2030 }],
    ['0530', { month: 5, year: 2030 }],
    ['122030', { month: 12, year: 2030 }],
    ['2030-12', { month: 12, year: 2030 }],
    ['2030-01', { month: 1, year: 2030 }],
    ['01/00', { month: 1, year: 2000 }],
    ['12/99', { month: 12, year: 2099 }],
  ])('%j', (text, expected) => expect(parseExpiry(text)).toEqual(expected));

  it.each([
    '',
    '/',
    '13/30',
    '00/30',
    '1330',
    '12/3',
    '12/300',
    '12/20301',
    // A one-digit month or another separator reads two ways, or is not one of the documented forms.
    '1/30',
    '130',
    '12030',
    '01-30',
    '12 30',
    '12.30',
    '2030-1',
    '2030/12',
    '203012',
    'Dec 2030',
    '12/1999',
    '12/2100',
    '１２/３０', // full-width digits
  ])('rejects %j', (text) => expect(parseExpiry(text)).toBeNull());
});

describe('expiryInRange', () => {
  it('is a real month of 2000–2099', () => {
    expect(expiryInRange(1, 2000)).toBe(true);
    expect(expiryInRange(12, 2099)).toBe(true);
    for (const [m, y] of [
      [0, 2030],
      [13, 2030],
      [1.5, 2030],
      [1, 1999],
      [1, 2100],
      [Number.NaN, 2030],
    ])
      expect(expiryInRange(m!, y!), `${m}/${y}`).toBe(false);
  });
});

describe('formatExpiryMMYY', () => {
  it('writes MMYY, which parseExpiry reads back', () => {
    expect(formatExpiryMMYY({ month: 3, year: 2031 })).toBe('0331');
    expect(parseExpiry(formatExpiryMMYY({ month: 3, year: 2031 }))).toEqual({ month: 3, year: 2031 });
  });
});

describe('expiryInPast', () => {
  it('is valid through the last day of the month, in every time zone', () => {
    expect(expiryInPast(5, 2026, new Date('2026-05-31T23:59:59Z'))).toBe(false);
    expect(expiryInPast(5, 2026, new Date('2026-06-01T11:59:59Z'))).toBe(false); // still May 31 in UTC-12
    expect(expiryInPast(5, 2026, new Date('2026-06-01T12:00:00Z'))).toBe(true);
    expect(expiryInPast(12, 2026, new Date('2027-01-01T11:00:00Z'))).toBe(false);
    expect(expiryInPast(12, 2026, new Date('2027-01-02T00:00:00Z'))).toBe(true);
    expect(expiryInPast(4, 2026, new Date('2026-05-15T12:00:00Z'))).toBe(true);
  });
});

describe('earliestUnexpired', () => {
  it('agrees with expiryInPast on every month boundary of a few years', () => {
    for (let year = 2025; year <= 2028; year++) {
      for (let month = 1; month <= 12; month++) {
        const boundary = Date.UTC(year, month, 1, 12); // when (year, month) expires
        for (const offset of [-60_000, -1, 0, 1, 60_000]) {
          const now = new Date(boundary + offset);
          const from = earliestUnexpired(now);
          const validByFilter = year > from.year || (year === from.year && month >= from.month);
          expect(validByFilter, `${year}-${month} at ${now.toISOString()}`).toBe(
            !expiryInPast(month, year, now),
          );
        }
      }
    }
  });
});

describe('expiryTooFarAhead', () => {
  it('allows 20 years ahead, not 21', () => {
    const now = new Date('2026-05-15T12:00:00Z');
    expect(expiryTooFarAhead(2046, now)).toBe(false);
    expect(expiryTooFarAhead(2047, now)).toBe(true);
  });
});
