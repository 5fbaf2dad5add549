/**
 * What the language selector says (components/language-select.tsx): each language named in its own
 * words by the browser's own data (Intl.DisplayNames, CLDR), so the first paint carries no table
 * of names, capitalised as a menu item starts ("Español", not "español").
 */
import type { PageLang } from '../../../../shared/checkout/page-lang.ts';

/** The name DisplayNames knows a language by: Simplified Chinese is a script, not a country. */
const ASK: Partial<Record<string, string>> = { 'zh-CN': 'zh-Hans' };

export function nativeName(lang: PageLang): string {
  try {
    const name = new Intl.DisplayNames([lang], { type: 'language' }).of(ASK[lang] ?? lang) ?? lang;
    return name.charAt(0).toLocaleUpperCase(lang) + name.slice(1);
  } catch {
    return lang; // an engine without DisplayNames: the tag still tells the language apart
  }
}

/**
 * The selector's label, in every language the page may speak: a few bytes in the first paint, so
 * the label is right before any dictionary arrives, and kept here so the dictionaries (one per
 * translator) need no key for it.
 */
const LABEL: Record<string, string> = {
  en: 'Language',
  es: 'Idioma',
  fr: 'Langue',
  de: 'Sprache',
  it: 'Lingua',
  'pt-BR': 'Idioma',
  nl: 'Taal',
  pl: 'Język',
  sv: 'Språk',
  ja: '言語',
  'zh-CN': '语言',
  ar: 'اللغة',
  he: 'שפה',
};

export const selectorLabel = (lang: PageLang): string => LABEL[lang] ?? 'Language';
