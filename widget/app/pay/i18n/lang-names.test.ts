import { expect, test } from 'vitest';
import { PAGE_LANGS, type PageLang } from '../../../../shared/checkout/page-lang.ts';
import { nativeName, selectorLabel } from './lang-names.ts';

/** What a shopper reads in the selector for each language Payframe speaks or plans to. */
const NAMES: Record<string, string> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  de: 'Deutsch',
  it: 'Italiano',
  'pt-BR': 'Português (Brasil)',
  nl: 'Nederlands',
  pl: 'Polski',
  sv: 'Svenska',
  ja: '日本語',
  'zh-CN': '简体中文',
  ar: 'العربية',
  he: 'עברית',
};

test('each language is named in its own words, as a menu item starts', () => {
  for (const lang of Object.keys(NAMES)) expect(nativeName(lang as PageLang)).toBe(NAMES[lang]);
});

test('every offered language is named and has the label in its own words', () => {
  for (const lang of PAGE_LANGS) {
    expect(NAMES[lang]).toBeDefined();
    expect(selectorLabel(lang) === 'Language').toBe(lang === 'en');
  }
});
