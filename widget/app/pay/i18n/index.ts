/**
 * The page's language: the session's locale, else the widget's (`?locale=`), else the browser's
 * languages; English when none is supported (shared/checkout/page-lang-choice.ts: the page route
 * chooses and says it on `<html lang>`), and whichever the shopper picks in the page's language
 * selector. English is bundled; every other language is its own lazy chunk (STYLE.md §7), loaded
 * by LOADERS.
 */
import { declineMessage } from '../../../../shared/checkout/decline-messages.ts';
import { dirOf, type PageLang } from '../../../../shared/checkout/page-lang.ts';
import { translator } from '../../ui/translate.ts';
import { type DeclineMessages, en, type MessageKey, type Messages } from './en.ts';

export type { MessageKey } from './en.ts';
export type Lang = PageLang;

export interface I18n {
  lang: Lang;
  t: (key: MessageKey, vars?: Record<string, string | number>) => string;
  decline: (code: string, method: 'card' | 'ach') => string;
}

export interface Dictionary {
  messages: Messages;
  declines: DeclineMessages;
}

/**
 * One dynamic import per language: Vite makes each its own chunk, fetched only when that language
 * is chosen. Typed by the page's language list, so a language without its dictionary (or a
 * dictionary the list does not name) does not typecheck.
 */
const LOADERS: Record<Exclude<Lang, 'en'>, () => Promise<Dictionary>> = {
  es: () => import('./es.ts'),
  fr: () => import('./fr.ts'),
  de: () => import('./de.ts'),
  it: () => import('./it.ts'),
  'pt-BR': () => import('./pt-BR.ts'),
  nl: () => import('./nl.ts'),
  pl: () => import('./pl.ts'),
  sv: () => import('./sv.ts'),
  ja: () => import('./ja.ts'),
  'zh-CN': () => import('./zh-CN.ts'),
  ar: () => import('./ar.ts'),
  he: () => import('./he.ts'),
};

function make(lang: Lang, dict: Messages, declines: DeclineMessages | null): I18n {
  return {
    lang,
    t: translator(lang, dict),
    decline: (code, method) =>
      declines
        ? ((method === 'ach' ? declines.ach[code] : declines.card[code]) ?? declines.other)
        : declineMessage(code, method),
  };
}

export const english: I18n = make('en', en, null);

/** A language from its dictionary at hand (the server's rendering has them all). */
export const fromDictionary = (lang: Lang, dict: Dictionary): I18n =>
  make(lang, dict.messages, dict.declines);

export async function loadI18n(lang: Lang): Promise<I18n> {
  if (lang === 'en') return english;
  const dict = await LOADERS[lang]();
  return make(lang, dict.messages, dict.declines);
}

/** The page language `<html lang>` says (the page route chose it), English when it names none. */
export const documentLang = (root: HTMLElement = document.documentElement): Lang =>
  Object.prototype.hasOwnProperty.call(LOADERS, root.lang) ? (root.lang as Lang) : 'en';

/**
 * The page's language chosen in the browser, for a page that came without the session's state
 * (the route chose without its locale): the choice is a chunk of its own, out of the first paint.
 */
export async function chooseI18n(candidates: readonly (string | null | undefined)[]): Promise<I18n> {
  try {
    const { pickLang } = await import('../../../../shared/checkout/page-lang-choice.ts');
    return await loadI18n(pickLang(candidates));
  } catch {
    return english;
  }
}

/** The document says the page's language and direction (Arabic and Hebrew right to left). */
export function setDocumentLang(lang: Lang, root: HTMLElement = document.documentElement): void {
  root.lang = lang;
  root.dir = dirOf(lang);
}
