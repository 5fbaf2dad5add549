import { describe, expect, test } from 'vitest';
import { acceptedLanguages, matchLang, pickLang } from './page-lang-choice.ts';
import { dirOf, PAGE_LANGS, type PageLang } from './page-lang.ts';

/** The tag asked → the page language it gets, when that language is one the page speaks. */
const TABLE: [string, string | null][] = [
  ['en', 'en'],
  ['en-US', 'en'],
  ['EN-gb', 'en'],
  ['es-419', 'es'],
  ['fr', 'fr'],
  ['fr-CA', 'fr'],
  ['fr_ch', 'fr'],
  ['de-AT', 'de'],
  ['it-CH', 'it'],
  ['pt', 'pt-BR'],
  ['pt-PT', 'pt-BR'],
  ['pt-br', 'pt-BR'],
  ['nl-BE', 'nl'],
  ['pl-PL', 'pl'],
  ['sv-FI', 'sv'],
  ['ja-JP', 'ja'],
  ['zh', 'zh-CN'],
  ['zh-Hans', 'zh-CN'],
  ['zh-Hans-CN', 'zh-CN'],
  ['zh-CN', 'zh-CN'],
  ['ZH-cn', 'zh-CN'],
  ['zh-SG', 'zh-CN'],
  ['zh-Hans-HK', 'zh-CN'],
  ['zh-Hant', null],
  ['zh-TW', null],
  ['zh-HK', null],
  ['zh-Hant-CN', null],
  ['ar', 'ar'],
  ['ar-EG', 'ar'],
  ['he-IL', 'he'],
  ['iw', 'he'],
  ['iw-IL', 'he'],
  ['nb', null],
  ['nn-NO', null],
  ['no', null],
  ['ko', null],
  ['', null],
  ['*', null],
  ['e', null],
  ['fr;q=1', null],
];

const speaks = (lang: string): lang is PageLang => (PAGE_LANGS as readonly string[]).includes(lang);

describe('the language a tag asks for', () => {
  // A row whose language the page does not speak yet expects nothing rather than a wrong language.
  test.each(TABLE)('%s → %s', (tag, lang) => {
    expect(matchLang(tag)).toBe(lang !== null && speaks(lang) ? lang : null);
  });

  test('English and Spanish are always there; Arabic and Hebrew are right to left', () => {
    expect(PAGE_LANGS.slice(0, 2)).toEqual(['en', 'es']);
    for (const lang of PAGE_LANGS) expect(dirOf(lang)).toBe(['ar', 'he'].includes(lang) ? 'rtl' : 'ltr');
    expect([dirOf('ar'), dirOf('he'), dirOf('en'), dirOf('ja')]).toEqual(['rtl', 'rtl', 'ltr', 'ltr']);
  });
});

describe('Accept-Language', () => {
  test('most wanted first by q-value, ties in the order given', () => {
    expect(acceptedLanguages('de;q=0.5, fr-CA, ja;q=0.9, en;q=0.9')).toEqual(['fr-CA', 'ja', 'en', 'de']);
    expect(acceptedLanguages('ar,he')).toEqual(['ar', 'he']);
  });

  test('q=0, a wildcard, a malformed q-value and empty entries are left out', () => {
    expect(acceptedLanguages('fr;q=0, de;q=0.000, *;q=0.5, it;q=2, , nl;Q=0.1')).toEqual(['nl']);
    expect(acceptedLanguages('')).toEqual([]);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });
});

describe('the page language', () => {
  const first = (...langs: string[]) => langs.find(speaks) ?? 'en';

  test("the session's locale first, then the widget's, then the browser's", () => {
    expect(pickLang(['es-MX', 'fr', 'ja'])).toBe('es');
    expect(pickLang([null, 'fr-CA', 'es'])).toBe(first('fr', 'es'));
    expect(pickLang([undefined, null, 'es'])).toBe('es');
    expect(pickLang(['nb', null, ...acceptedLanguages('nb, es;q=0.8')])).toBe('es');
  });

  test('q-values choose among the browser languages; q=0 never chooses', () => {
    expect(pickLang([null, null, ...acceptedLanguages('es;q=0.4, ja;q=0.9, fr;q=0.8')])).toBe(
      first('ja', 'fr', 'es'),
    );
    expect(pickLang([null, null, ...acceptedLanguages('es;q=0, de')])).toBe(first('de'));
  });

  test('English when nothing fits', () => {
    expect(pickLang([])).toBe('en');
    expect(pickLang(['nb', 'zh-TW', 'ko'])).toBe('en');
    expect(pickLang([null, undefined, ''])).toBe('en');
  });
});
