/**
 * The output fast paths of formatInt64, formatDecimal and formatDateTime (issue 18) answer exactly
 * what the full parse answers, throwing included: tens of thousands of generated values near the
 * canonical forms (signs, leading zeros, lengths at the limits, trailing zeros, invalid dates,
 * zones, white space) go through both.
 */
import { describe, expect, it } from 'vitest';
import {
  formatDateTime,
  formatDecimal,
  formatInt64,
  parseDecimal,
  parseInt64,
  parseXsdDateTime,
  printXsdDateTime,
  toDateTime,
} from './scalars.ts';

/** A small deterministic generator (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NOW = new Date('2024-06-15T12:00:00Z');

function outcome(fn: () => string): string {
  try {
    return `ok ${fn()}`;
  } catch (err) {
    return `throws ${(err as Error).message}`;
  }
}

function digits(r: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String(Math.floor(r() * 10));
  return s;
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;

describe('output fast paths agree with the full parse', () => {
  const r = random(18);

  it('long', () => {
    for (let i = 0; i < 20_000; i++) {
      const v = `${pick(r, ['', '', '-', '+', ' '])}${pick(r, ['', '', '0', '00'])}${digits(r, Math.floor(r() * 21))}${pick(r, ['', '', ' ', 'x'])}`;
      expect(
        outcome(() => formatInt64(v)),
        v,
      ).toBe(outcome(() => parseInt64(v)));
    }
    for (const v of [
      '9223372036854775807',
      '9223372036854775808',
      '-9223372036854775808',
      '999999999999999999',
      '-0',
      '0',
    ])
      expect(
        outcome(() => formatInt64(v)),
        v,
      ).toBe(outcome(() => parseInt64(v)));
  });

  it('decimal', () => {
    for (let i = 0; i < 20_000; i++) {
      const int = `${pick(r, ['', '', '0', '00'])}${digits(r, Math.floor(r() * 18))}`;
      const frac = pick(r, ['', '.', `.${digits(r, Math.floor(r() * 16))}`, `.${digits(r, 2)}`]);
      const v = `${pick(r, ['', '', '-', '+', ' '])}${int}${frac}${pick(r, ['', '', ' ', 'e1'])}`;
      expect(
        outcome(() => formatDecimal(v)),
        v,
      ).toBe(outcome(() => parseDecimal(v)));
    }
    for (const v of [
      '-0',
      '-0.00',
      '-.5',
      '-0.01',
      '0.50',
      '10.50',
      '999999999999999.9999999999999',
      '79228162514264337593543950336',
    ])
      expect(
        outcome(() => formatDecimal(v)),
        v,
      ).toBe(outcome(() => parseDecimal(v)));
  });

  it('dateTime', () => {
    const two = (lo: number, hi: number) => String(lo + Math.floor(r() * (hi - lo + 1))).padStart(2, '0');
    for (let i = 0; i < 20_000; i++) {
      const year = pick(r, ['2024', '2023', '1900', '2000', '0000', '0001', '9999', '24']);
      const fraction = pick(r, ['', '', '.', `.${digits(r, 1 + Math.floor(r() * 9))}`, '.5000000', '.1230']);
      const zone = pick(r, ['', '', 'Z', 'z', '+01:00', '-05:30', '+14:00', '+99:99', '+1:00']);
      const v = `${pick(r, ['', '', ' '])}${year}-${two(0, 13)}-${two(0, 32)}T${two(0, 25)}:${two(0, 60)}:${two(0, 60)}${fraction}${zone}`;
      const full = () => printXsdDateTime(toDateTime(parseXsdDateTime(v), NOW));
      expect(
        outcome(() => formatDateTime(v, NOW)),
        v,
      ).toBe(outcome(full));
    }
  });
});
