/**
 * Which digit strings can be card numbers: a brand's IIN (issuer identification number) prefix and
 * one of the lengths that brand issues. The card-number detector (card-number-in-text.ts) flags a
 * digit run only when it fits here and passes Luhn, so order numbers, timestamps and ids that merely
 * pass Luhn (one in ten of any digit string) are not mistaken for cards (DESIGN.md §18).
 *
 * The ranges and lengths are the ones the brands publish (the ISO/IEC 7812 registrations as listed
 * in the "Payment card number" IIN table), for every brand the gateway names
 * (server/gateway/vault/card-checks.ts, through credit-card-type) and the networks that issue in
 * the same ranges. credit-card-type is not used here: to name the brand of a number already known
 * to be a card, it casts a wider net (any number starting 6 is "Maestro", of 12 to 19 digits),
 * which in free text would take one in ten 12–19-digit ids starting 6 for a card. Left out on
 * purpose, each because it collides with everyday numbers and is not issued today:
 * - Visa's 13-digit numbers (retired): a 13-digit run starting 4 is a German mobile number.
 * - JCB's 15-digit 1800 and 2131 ranges (retired), and UATP (airline cards, 15 digits starting 1,
 *   not accepted by the gateway): a 15-digit run starting 1 is as often a date and a counter.
 * card-iin.test.ts checks that every documented test card and every range here is found.
 *
 * Pure: no imports.
 */

export interface IinRange {
  /** Lowest prefix, as digits; `high` has as many digits. */
  readonly low: string;
  readonly high: string;
}

export interface CardBrandIin {
  readonly brand: string;
  readonly ranges: readonly IinRange[];
  readonly lengths: readonly number[];
}

const r = (low: string, high: string = low): IinRange => ({ low, high });
const span = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

export const CARD_BRAND_IINS: readonly CardBrandIin[] = [
  { brand: 'Visa', ranges: [r('4')], lengths: [16, 19] },
  { brand: 'Mastercard', ranges: [r('51', '55'), r('2221', '2720')], lengths: [16] },
  { brand: 'American Express', ranges: [r('34'), r('37')], lengths: [15] },
  {
    brand: 'Diners Club',
    ranges: [r('300', '305'), r('3095'), r('36'), r('38', '39')],
    lengths: span(14, 19),
  },
  {
    brand: 'Discover',
    ranges: [r('6011'), r('644', '649'), r('65'), r('622126', '622925')],
    lengths: span(16, 19),
  },
  { brand: 'JCB', ranges: [r('3528', '3589')], lengths: span(16, 19) },
  { brand: 'UnionPay', ranges: [r('62'), r('8100', '8171')], lengths: span(16, 19) },
  {
    brand: 'Maestro',
    ranges: [
      r('5018'),
      r('5020'),
      r('5038'),
      r('5893'),
      r('6304'),
      r('6759'),
      r('6761', '6763'),
      r('676770'),
      r('676774'),
    ],
    lengths: span(12, 19),
  },
  { brand: 'Mir', ranges: [r('2200', '2204')], lengths: span(16, 19) },
  {
    brand: 'Elo',
    ranges: [r('504175'), r('506699', '506778'), r('509000', '509999'), r('636297'), r('636368')],
    lengths: [16],
  },
  { brand: 'Hipercard', ranges: [r('606282'), r('3841')], lengths: [16, 19] },
  { brand: 'Naranja', ranges: [r('589562')], lengths: [16] },
  {
    brand: 'Verve',
    ranges: [r('506099', '506198'), r('507865', '507964'), r('650002', '650027')],
    lengths: [16, 18, 19],
  },
  { brand: 'RuPay', ranges: [r('60'), r('65'), r('81', '82'), r('508'), r('353'), r('356')], lengths: [16] },
  { brand: 'Troy', ranges: [r('9792')], lengths: [16] },
  { brand: 'Dankort', ranges: [r('5019')], lengths: [16] },
  { brand: 'InterPayment', ranges: [r('636')], lengths: span(16, 19) },
  // Hiper's ranges (637095, 637568, …) are InstaPayment's.
  { brand: 'InstaPayment', ranges: [r('637', '639')], lengths: [16] },
  { brand: 'UzCard', ranges: [r('8600')], lengths: [16] },
  { brand: 'Humo', ranges: [r('9860')], lengths: [16] },
  { brand: 'BORICA', ranges: [r('2205')], lengths: [16] },
];

/** The fewest and most digits any brand issues. */
export const CARD_MIN_DIGITS = Math.min(...CARD_BRAND_IINS.flatMap((b) => b.lengths));
export const CARD_MAX_DIGITS = Math.max(...CARD_BRAND_IINS.flatMap((b) => b.lengths));

/** The brand whose prefix and length `digits` (0-9 only) has, or null. Luhn is not checked here. */
export function brandOfDigits(digits: string): string | null {
  const length = digits.length;
  if (length < CARD_MIN_DIGITS || length > CARD_MAX_DIGITS) return null;
  for (const { brand, ranges, lengths } of CARD_BRAND_IINS) {
    if (!lengths.includes(length)) continue;
    for (const { low, high } of ranges) {
      const prefix = digits.slice(0, low.length);
      if (prefix >= low && prefix <= high) return brand;
    }
  }
  return null;
}
