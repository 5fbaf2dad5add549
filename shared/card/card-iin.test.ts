import creditCardType from 'credit-card-type';
import { describe, expect, it } from 'vitest';
import { brandOfDigits, CARD_BRAND_IINS, CARD_MAX_DIGITS, CARD_MIN_DIGITS } from './card-iin.ts';
import { containsCardNumber } from './card-number-in-text.ts';
import { cardNumber, seededRandom } from '../../test/kit/card/card-spellings.ts';

/** The simulator's documented test cards (docs/test-cards.md), and the brands' well-known ones. */
const TEST_CARDS: Record<string, string> = {
  '4242424242424242': 'Visa',
  '4000000000000002': 'Visa',
  '4000000000009995': 'Visa',
  '4000000000000069': 'Visa',
  '4000000000000127': 'Visa',
  '4000000000003220': 'Visa',
  '4000000000000036': 'Visa',
  '5555555555554444': 'Mastercard',
  '2223003122003222': 'Mastercard',
  '378282246310005': 'American Express',
  '371449635398431': 'American Express',
  '6011111111111117': 'Discover',
  '6011000990139424': 'Discover',
  '3056930009020004': 'Diners Club',
  '36227206271667': 'Diners Club',
  '3566002020360505': 'JCB',
  '6200000000000005': 'UnionPay',
  '6759649826438453': 'Maestro',
  '2200000000000004': 'Mir',
};

/**
 * credit-card-type prefixes (what the gateway names brands with) that card-iin.ts leaves out on
 * purpose, as its header explains: Maestro's net is wider than the ranges Maestro publishes, and
 * JCB's 1800 and 2131 ranges are retired 15-digit ones.
 */
const NOT_TAKEN: Record<string, readonly string[]> = {
  Maestro: ['500000', '504176', '506779', '56', '63', '67', '6'],
  JCB: ['2131', '1800'],
};

describe('card brands: IIN prefixes and lengths', () => {
  it('names the brand of every documented test card, and the detector finds each', () => {
    for (const [pan, brand] of Object.entries(TEST_CARDS)) {
      expect(brandOfDigits(pan), pan).toBe(brand);
      expect(containsCardNumber(pan), pan).toBe(true);
    }
  });

  it('takes each range at its ends and each length the brand issues, and nothing one digit beyond', () => {
    for (const { ranges, lengths } of CARD_BRAND_IINS) {
      for (const { low, high } of ranges) {
        for (const length of lengths) {
          for (const prefix of [low, high]) {
            expect(brandOfDigits(prefix.padEnd(length, '0')), `${prefix} × ${length}`).not.toBeNull();
          }
        }
      }
    }
    expect(brandOfDigits('4'.padEnd(CARD_MAX_DIGITS + 1, '0'))).toBeNull();
    expect(brandOfDigits('6759'.padEnd(CARD_MIN_DIGITS - 1, '0'))).toBeNull();
    expect(brandOfDigits('2721000000000000')).toBeNull(); // just above Mastercard's 2-series
    expect(brandOfDigits('2220000000000000')).toBeNull(); // just below it
  });

  it('finds a number of every brand the gateway names (credit-card-type), but the prefixes left out', () => {
    const random = seededRandom(11);
    const missed: string[] = [];
    for (const type of Object.values(creditCardType.types)) {
      const info = creditCardType.getTypeInfo(type);
      const length = info.lengths.includes(16) ? 16 : info.lengths[0]!;
      for (const pattern of info.patterns) {
        const prefix = String(Array.isArray(pattern) ? pattern[0] : pattern);
        if (NOT_TAKEN[info.niceType]?.includes(prefix)) {
          expect(brandOfDigits(prefix.padEnd(length, '1')), `${info.niceType} ${prefix}`).toBeNull();
          continue;
        }
        const pan = cardNumber(prefix, length, random);
        if (!containsCardNumber(pan)) missed.push(`${info.niceType} ${prefix}: ${pan}`);
      }
    }
    expect(missed).toEqual([]);
  });
});
