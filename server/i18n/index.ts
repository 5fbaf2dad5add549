/**
 * The server's own words to a shopper, in the page's languages (issue 17): the one-time code's
 * e-mail and SMS and the sandbox bank's 3-D Secure pages. English is the default; the language is
 * chosen as the hosted page chooses it (shared/checkout/page-lang-choice.ts `pickLang`): the session's
 * locale, then the browser's. One file per language beside this one; README in
 * widget/app/pay/i18n/ for the register and terms each language uses.
 */
import { acceptedLanguages, pickLang } from '../../shared/checkout/page-lang-choice.ts';
import { dirOf, type PageLang } from '../../shared/checkout/page-lang.ts';
import { ar } from './ar.ts';
import { de } from './de.ts';
import { en, type ShopperTexts } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { he } from './he.ts';
import { it } from './it.ts';
import { ja } from './ja.ts';
import { nl } from './nl.ts';
import { pl } from './pl.ts';
import { ptBR } from './pt-BR.ts';
import { sv } from './sv.ts';
import { zhCN } from './zh-CN.ts';

export type { ShopperTextKey, ShopperTexts } from './en.ts';

/** Every page language has its texts here (one missing is a compile error). */
const TEXTS: Record<PageLang, ShopperTexts> = {
  en,
  es,
  fr,
  de,
  it,
  'pt-BR': ptBR,
  nl,
  pl,
  sv,
  ja,
  'zh-CN': zhCN,
  ar,
  he,
};

export type ShopperLang = PageLang;

/**
 * The shopper's language: the page's own (`page`, when the form says which it shows: it already
 * holds the session's locale, the widget's and the shopper's pick), else the session's locale,
 * else the browser's languages by q-value, else English.
 */
export function shopperLang(from: {
  page?: unknown;
  locale?: string | null;
  acceptLanguage?: string | null;
}): ShopperLang {
  const page = typeof from.page === 'string' ? from.page : null;
  return pickLang([page, from.locale, ...acceptedLanguages(from.acceptLanguage)]);
}

export const shopperTexts = (lang: ShopperLang): ShopperTexts => TEXTS[lang];

/** `template` with each `{name}` replaced by `vars[name]`; a placeholder without a value stays. */
export function fill(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(vars, name) ? String(vars[name]) : whole,
  );
}

/** Arabic and Hebrew are written right to left (the page's own rule). */
export const dirOfShopperLang = (lang: ShopperLang): 'rtl' | 'ltr' => dirOf(lang);
