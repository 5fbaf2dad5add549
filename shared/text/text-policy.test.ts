import { describe, expect, it } from 'vitest';
import { hasMixedScriptWord } from './mixed-script.ts';
import { normalizeText, textProblem } from './text-policy.ts';

const u = (...codes: number[]) => String.fromCodePoint(...codes);

describe('the text policy (issue 13 §4)', () => {
  it.each([
    ['tab', u(9)],
    ['line feed', u(10)],
    ['carriage return', u(13)],
    ['NUL', u(0)],
    ['DEL', u(0x7f)],
    ['C1 NEL', u(0x85)],
    ['C1 CSI', u(0x9b)],
  ])('refuses a control character: %s', (_name, ch) => {
    expect(textProblem(`Order${ch}1`)).toBe('control');
    expect(textProblem(`Caf\u00e9${ch}`)).toBe('control');
  });

  it.each([
    ['ALM', 0x61c],
    ['LRM', 0x200e],
    ['RLM', 0x200f],
    ['LRE', 0x202a],
    ['RLE', 0x202b],
    ['PDF', 0x202c],
    ['LRO', 0x202d],
    ['RLO', 0x202e],
    ['LRI', 0x2066],
    ['RLI', 0x2067],
    ['FSI', 0x2068],
    ['PDI', 0x2069],
  ])('refuses a bidi control: %s', (_name, code) => {
    expect(textProblem(`invoice${u(code)}gpj.exe`)).toBe('bidi');
  });

  it.each([
    ['zero-width space', 0x200b],
    ['zero-width non-joiner', 0x200c],
    ['zero-width joiner', 0x200d],
    ['word joiner', 0x2060],
    ['invisible times', 0x2062],
    ['BOM / zero-width no-break space', 0xfeff],
    ['soft hyphen', 0xad],
    ['line separator', 0x2028],
    ['paragraph separator', 0x2029],
    ['combining grapheme joiner', 0x34f],
    ['Hangul filler', 0x3164],
    ['halfwidth Hangul filler', 0xffa0],
    ['Mongolian vowel separator', 0x180e],
    ['interlinear annotation anchor', 0xfff9],
    ['tag letter A', 0xe0041],
    ['noncharacter U+FFFE', 0xfffe],
    ['noncharacter U+1FFFF', 0x1ffff],
  ])('refuses an invisible character: %s', (_name, code) => {
    expect(textProblem(`Pay${u(code)}Pal`)).toBe('invisible');
  });

  it('refuses a lone surrogate and a variation selector with nothing to select', () => {
    expect(textProblem('x\ud800')).toBe('invisible');
    expect(textProblem('\ufe0fabc')).toBe('invisible');
    expect(textProblem('a \ufe0f')).toBe('invisible');
  });

  it('accepts ordinary text of any script, spaces of any width, and an emoji with its selector', () => {
    for (const ok of [
      'RT-123456-123456789',
      "O'Brien & Sons, 12 Main St.",
      'Nguyễn Văn An',
      'Zoë Ærø Straße',
      'Θεσσαλονίκη',
      'Москва',
      '東京タワー',
      'مطعم بيروت',
      'מסעדה',
      'हिंदी',
      'Coffee \u2615\ufe0f',
      'Café\u00a0Nord',
      'A\u3000B',
      '',
    ]) {
      expect(textProblem(ok), ok).toBeNull();
    }
  });

  it('stores text in NFC: a decomposed é is composed', () => {
    expect(normalizeText('Cafe\u0301')).toBe('Caf\u00e9');
    expect(normalizeText('Caf\u00e9')).toBe('Caf\u00e9');
  });
});

describe('mixed-script words in a display name (UTS #39)', () => {
  it.each([
    ['Cyrillic а in a Latin word', 'P\u0430ypal'],
    ['Cyrillic А at the start', '\u0410pple Store'],
    ['Greek ο inside', 'Micr\u03bfsoft'],
    ['Cyrillic і in a Latin word', 'L\u0456nkedIn'],
    ['Arabic-Indic digit in a Latin word', 'Shop\u0663'],
    ['Latin inside a Cyrillic word', 'Мocква'],
  ])('refuses %s', (_name, value) => {
    expect(hasMixedScriptWord(value)).toBe(true);
  });

  it.each([
    'Alpha Outfitters',
    'Café Москва',
    'Ελλάδα Shop',
    'Tokyo東京',
    '東京タワー',
    '서울숲 Cafe',
    'Shop 123',
    'Ünïcode-Shop',
    'Nguyễn Văn',
    '北京饭店',
    'İstanbul Kebab',
    "O'Brien & Sons",
  ])('accepts %s', (value) => {
    expect(hasMixedScriptWord(value)).toBe(false);
  });
});
