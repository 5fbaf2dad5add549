/**
 * Card numbers for tests of the card-number detector and of the paths that use it: generated for
 * every brand range and length of card-iin.ts, and written in the many ways a person, a form, a URL
 * or a log line spells them. Deterministic: a seeded generator, so a failure names the same
 * number every run.
 */
import { CARD_BRAND_IINS } from '../../../shared/card/card-iin.ts';

/** A small seeded generator (mulberry32): the same numbers every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomDigits(random: () => number, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += String(Math.floor(random() * 10));
  return out;
}

/** The digit that makes `body` + it pass Luhn. */
export function luhnCheckDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = body.charCodeAt(body.length - 1 - i) - 48;
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

/** A Luhn-valid number of `length` digits that starts with `prefix`. */
export function cardNumber(prefix: string, length: number, random: () => number): string {
  const body = prefix + randomDigits(random, length - 1 - prefix.length);
  return body + luhnCheckDigit(body);
}

export interface GeneratedCard {
  brand: string;
  number: string;
}

/** For each brand, each of its ranges (lowest, highest and a middle prefix) and each length: one number. */
export function cardsOfEveryBrand(seed = 7): GeneratedCard[] {
  const random = seededRandom(seed);
  const out: GeneratedCard[] = [];
  for (const { brand, ranges, lengths } of CARD_BRAND_IINS) {
    for (const { low, high } of ranges) {
      const middle = String(Math.floor((Number(low) + Number(high)) / 2)).padStart(low.length, '0');
      for (const prefix of new Set([low, middle, high])) {
        for (const length of lengths) out.push({ brand, number: cardNumber(prefix, length, random) });
      }
    }
  }
  return out;
}

/** How the number is cut into groups when it is written in groups, as printed on cards. */
export function cardGroups(number: string): string[] {
  const sizes = number.length === 15 ? [4, 6, 5] : number.length === 14 ? [4, 6, 4] : [4, 4, 4, 4];
  const groups: string[] = [];
  let at = 0;
  for (const size of sizes) {
    if (at >= number.length) break;
    groups.push(number.slice(at, at + size));
    at += size;
  }
  if (at < number.length) groups.push(number.slice(at));
  return groups;
}

/** Separators between groups: every way of the detector's rule (text-units.ts). */
export const SEPARATORS: readonly string[] = [
  ' ',
  '  ',
  '-',
  ' - ',
  '.',
  '/',
  ' / ',
  '+',
  '\t',
  '\n',
  '\r\n',
  '\u00a0', // no-break space
  ...Array.from({ length: 11 }, (_, i) => String.fromCharCode(0x2000 + i)), // en quad … hair space
  '\u202f', // narrow no-break space
  '\u205f', // medium mathematical space
  '\u3000', // ideographic space
  '\u2010', // hyphen
  '\u2011', // non-breaking hyphen
  '\u2013', // en dash
  '\u2014', // em dash
  '\u2212', // minus sign
  '\uff0d', // fullwidth hyphen-minus
  '\uff0e', // fullwidth full stop
  '\u00b7', // middle dot
  '\u2044', // fraction slash
  '\u200b', // zero-width space
  '\u200d', // zero-width joiner
  '\u2060', // word joiner
  '\u00ad', // soft hyphen
  '\u202e', // right-to-left override
  '\ufeff', // byte-order mark
  '%20', // percent-encoded space (a URL, a query string)
  '%C2%A0', // percent-encoded no-break space
  '\\n', // a JSON-escaped line break (a log line)
  '\\u00a0', // a JSON-escaped no-break space
];

const FULLWIDTH_ZERO = 0xff10;
const ARABIC_INDIC_ZERO = 0x0660;
const DEVANAGARI_ZERO = 0x0966;

function inScript(number: string, zero: number): string {
  return [...number].map((d) => String.fromCharCode(zero + Number(d))).join('');
}

/**
 * The ways `number` is written: plain, in groups with every separator, one digit at a time, in other
 * scripts' digits, percent-encoded, and inside text (a CVV or an expiry after it, a street number
 * before it, glued to letters).
 */
export function spellings(number: string): string[] {
  const groups = cardGroups(number);
  const out = [number];
  for (const sep of SEPARATORS) out.push(groups.join(sep));
  out.push([...number].join(' '));
  out.push(groups.join(' ').replaceAll(' ', '   '));
  out.push(inScript(number, FULLWIDTH_ZERO), inScript(number, ARABIC_INDIC_ZERO));
  out.push(groups.map((g) => inScript(g, DEVANAGARI_ZERO)).join(' '));
  out.push([...number].map((d) => `%3${d}`).join('')); // every digit percent-encoded
  out.push([...number].map((d) => `\\u003${d}`).join('')); // every digit JSON-escaped
  const spaced = groups.join(' ');
  out.push(
    `paid with ${number}.`,
    `${spaced} 123`,
    `${number} 123`,
    `${groups.join('-')} 12/27`,
    `${spaced} exp 12/27 cvv 123`,
    `Flat 12 ${groups.join('.')}`,
    `2024 ${number}`,
    `ORD-${number}`,
    `x${number}y`,
    `"${groups.join('/')}"`,
    `name=${groups.join('+')}&a=1`,
  );
  return out;
}
