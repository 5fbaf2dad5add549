/**
 * The languages the hosted page and widget speak (issue 17); how one is chosen is
 * page-lang-choice.ts. Zod-free and pure, in the first paint of the hosted page.
 *
 * A language joins PAGE_LANGS once its dictionary, widget/app/pay/i18n/<lang>.ts, exists: the
 * app's table of lazy chunks is typed by this list, so the two cannot drift apart.
 */

/** The languages the hosted page speaks; English is bundled, the others load lazily. */
export const PAGE_LANGS = [
  'en',
  'es',
  'fr',
  'de',
  'it',
  'pt-BR',
  'nl',
  'pl',
  'sv',
  'ja',
  'zh-CN',
  'ar',
  'he',
] as const;
export type PageLang = (typeof PAGE_LANGS)[number];

/** Arabic and Hebrew are written right to left: the document's `dir` follows the language. */
export const dirOf = (lang: string): 'rtl' | 'ltr' => (lang === 'ar' || lang === 'he' ? 'rtl' : 'ltr');
