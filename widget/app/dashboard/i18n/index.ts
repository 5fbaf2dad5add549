/**
 * The dashboard's language: the one the user picked (kept in this browser), else the browser's
 * first of English and Spanish, else English. English is bundled; Spanish is a chunk of its own
 * (STYLE.md §7), named so it is not taken for one of the hosted page's (widget/budgets.test.ts).
 * The same small `t` as the hosted page's (../../ui/translate.ts), without an i18n library.
 */
import { translator } from '../../ui/translate.ts';
import { en, type MessageKey, type Messages } from './en.ts';

export type { MessageKey } from './en.ts';

export const LANGS = ['en', 'es'] as const;
export type Lang = (typeof LANGS)[number];
/** Each language named in its own words, so a user who cannot read the current one finds theirs. */
export const LANG_NAMES: Record<Lang, string> = { en: 'English', es: 'Español' };

export interface I18n {
  lang: Lang;
  t: (key: MessageKey, vars?: Record<string, string | number>) => string;
}

const LOADERS: Record<Exclude<Lang, 'en'>, () => Promise<{ messages: Messages }>> = {
  es: () => import('./dashboard-es.ts'),
};

function make(lang: Lang, dict: Messages): I18n {
  return { lang, t: translator(lang, dict) };
}

export const english: I18n = make('en', en);

export async function loadI18n(lang: Lang): Promise<I18n> {
  if (lang === 'en') return english;
  return make(lang, (await LOADERS[lang]()).messages);
}

const STORED = 'payframe.dashboard.lang';
const isLang = (value: unknown): value is Lang => LANGS.includes(value as Lang);

/** The language to start in: the stored choice, else the browser's. */
export function startLang(): Lang {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(STORED);
  } catch {
    // Storage refused (a private window's policy): the browser's language decides.
  }
  if (isLang(stored)) return stored;
  for (const tag of navigator.languages) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLang(base)) return base;
  }
  return 'en';
}

export function rememberLang(lang: Lang): void {
  try {
    localStorage.setItem(STORED, lang);
  } catch {
    // Not remembered: the next visit starts from the browser's language.
  }
  document.documentElement.lang = lang;
}
