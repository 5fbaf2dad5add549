/**
 * The page's language: `?locale=`, else the session's locale, else the browser's languages; English
 * when none is supported (the list and the choice: shared/checkout/page-state.ts, which the page route
 * uses too). English is bundled; the others are dynamic imports (STYLE.md §7).
 */
import { declineMessage } from '../../../../shared/checkout/decline-messages.ts';
import type { PageLang } from '../../../../shared/checkout/page-state.ts';
import { type DeclineMessages, en, type MessageKey, type Messages } from './en.ts';

export type { MessageKey } from './en.ts';
export { pickLang } from '../../../../shared/checkout/page-state.ts';
export type Lang = PageLang;

export interface I18n {
  lang: Lang;
  t: (key: MessageKey, vars?: Record<string, string | number>) => string;
  decline: (code: string, method: 'card' | 'ach') => string;
}

function make(lang: Lang, dict: Messages, declines: DeclineMessages | null): I18n {
  return {
    lang,
    t: (key, vars) =>
      dict[key].replace(/\{(\w+)\}/g, (whole, name: string) =>
        vars && name in vars ? String(vars[name]) : whole,
      ),
    decline: (code, method) =>
      declines
        ? ((method === 'ach' ? declines.ach[code] : declines.card[code]) ?? declines.other)
        : declineMessage(code, method),
  };
}

export const english: I18n = make('en', en, null);

export async function loadI18n(lang: Lang): Promise<I18n> {
  if (lang === 'es') {
    const es = await import('./es.ts');
    return make('es', es.messages, es.declines);
  }
  return english;
}
