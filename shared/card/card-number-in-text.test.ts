import { describe, expect, it } from 'vitest';
import { containsCardNumber, findCardNumbers, maskCardNumbers } from './card-number-in-text.ts';
import {
  cardNumber,
  cardsOfEveryBrand,
  seededRandom,
  spellings,
} from '../../test/kit/card/card-spellings.ts';
import { idCorpus } from '../../test/kit/card/id-corpus.ts';

const PAN = '4242424242424242';
const CARDS = cardsOfEveryBrand();
const CORPUS = idCorpus();
const KINDS = new Set(CORPUS.map((c) => c.kind)).size;

describe('containsCardNumber: card numbers of every brand, however they are written', () => {
  it(`finds ${CARDS.length} generated numbers (every brand, range and length) in ${spellings(PAN).length} spellings each`, () => {
    const missed: string[] = [];
    let checked = 0;
    for (const { brand, number } of CARDS) {
      for (const text of spellings(number)) {
        checked++;
        if (!containsCardNumber(text)) missed.push(`${brand} ${JSON.stringify(text)}`);
      }
    }
    expect(missed).toEqual([]);
    expect(checked).toBeGreaterThan(5000);
  });

  it('names the brand and where the number is written', () => {
    const text = `card: 3782 822463 10005, thanks`;
    expect(findCardNumbers(text)).toEqual([
      expect.objectContaining({ brand: 'American Express', start: 6, end: 23 }),
    ]);
    const [match] = findCardNumbers('x %34%32%34%32%34%32%34%32%34%32%34%32%34%32%34%32 y');
    expect(match?.digitSpans[0]).toEqual([2, 5]);
  });

  it('catches the separators that used to pass: dots, slashes, plus signs, several spaces, Unicode spaces', () => {
    for (const text of [
      '4242.4242.4242.4242',
      '4242/4242/4242/4242',
      '4242+4242+4242+4242',
      '4242   4242   4242   4242',
      '4242\u00a04242\u00a04242\u00a04242',
      '4242\u20094242\u20094242\u20094242',
      '4242\u30004242\u30004242\u30004242',
      'total 1.4242424242424242', // after "digit."
    ])
      expect(containsCardNumber(text), JSON.stringify(text)).toBe(true);
  });

  it('does not take a run of more than 19 digits, nor a number of no brand length or prefix', () => {
    const random = seededRandom(3);
    for (const text of [
      `${PAN}1234`, // 20 digits in one run
      '4242424242424242424242',
      cardNumber('4', 17, random), // Visa issues 16 and 19 digits
      cardNumber('4', 13, random), // … and no longer 13
      cardNumber('1', 16, random), // no brand starts with 1
      cardNumber('0', 16, random),
      cardNumber('7', 16, random),
      cardNumber('61', 16, random), // no brand's range
      '4242 4242 4242 4241', // Luhn fails
      '424242******4242',
      '•••• 4242',
    ])
      expect(containsCardNumber(text), text).toBe(false);
  });
});

describe('containsCardNumber: order numbers and ids are not card numbers', () => {
  it(`false positives: 0 of ${CORPUS.length} realistic order numbers, times and ids (${KINDS} kinds)`, () => {
    const flagged = CORPUS.filter(({ text }) => containsCardNumber(text));
    expect(flagged).toEqual([]);
  });

  it('lets the numbers that used to be refused pass', () => {
    for (const text of [
      'RT-123456-123456789',
      'order 1234567890123 total 10.50',
      '"responseTime":1.0000000000998899',
      '2026-11-22T03:04:25.389Z',
      '1800000000000000003', // a 2024 snowflake id that passes Luhn
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
    expect(maskCardNumbers('4242%204242%204242%204242')).toBe('****%20****%20****%204242');
    expect(maskCardNumbers(`${PAN} 123`)).toBe('************4242 123');
  });

  it('leaves no card number in any spelling of any brand', () => {
    for (const { number } of CARDS.slice(0, 40)) {
      for (const text of spellings(number)) {
        const masked = maskCardNumbers(text);
        expect(containsCardNumber(masked), JSON.stringify(masked)).toBe(false);
        expect(masked).not.toContain(number.slice(0, 8));
      }
    }
  });

  it('agrees with containsCardNumber: text changes exactly when it holds one', () => {
    for (const text of [PAN, 'order 1234567890123', '3782-822463-10005', '1.0000000000998899', 'no digits'])
      expect(maskCardNumbers(text) !== text, text).toBe(containsCardNumber(text));
    for (const { text } of CORPUS.slice(0, 500)) expect(maskCardNumbers(text)).toBe(text);
  });
});
