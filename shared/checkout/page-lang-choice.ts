/**
 * How the page's language is chosen (issue 17). Zod-free and pure: the page route
 * (server/checkout/pages.ts) chooses with it and writes its choice on `<html lang dir>`, which the
 * app renders in; the app asks it itself only when the page came without the session's state (a
 * lazy chunk then, so the first paint does not carry it).
 */
import { PAGE_LANGS, type PageLang } from './page-lang.ts';

/**
 * Fallbacks by primary subtag, for tags that do not name a page language themselves: Portuguese of
 * any region reads the Brazilian text; `iw` is Hebrew's old code. Norwegian (`nb`, `nn`, `no`) has no
 * entry: it falls through to the next candidate, and so to English, until Norwegian is added.
 */
const BY_PRIMARY: Record<string, string> = { pt: 'pt-BR', iw: 'he' };

/** Chinese tags written in Traditional characters by default: Taiwan, Hong Kong, Macao. */
const TRADITIONAL_REGIONS = new Set(['tw', 'hk', 'mo']);

/**
 * The page language a language tag asks for (BCP 47, any case, `_` read as `-`), or null when no
 * page language fits it: an exact match (`pt-BR`), else by primary subtag (`fr-CA` → `fr`), with
 * Simplified Chinese (`zh`, `zh-Hans`, `zh-Hans-CN`, `zh-CN`, `zh-SG` → `zh-CN`) kept apart from
 * Traditional (`zh-Hant`, `zh-TW`, `zh-HK`: none, so far).
 */
export function matchLang(tag: string | null | undefined): PageLang | null {
  const t = (tag ?? '').trim().toLowerCase().replace(/_/g, '-');
  if (!/^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$/.test(t)) return null;
  const exact = PAGE_LANGS.find((l) => l.toLowerCase() === t);
  if (exact) return exact;
  const [primary = '', ...rest] = t.split('-');
  let wanted = BY_PRIMARY[primary] ?? primary;
  if (primary === 'zh') {
    const script = rest.find((s) => s === 'hans' || s === 'hant');
    const traditional = script ? script === 'hant' : rest.some((s) => TRADITIONAL_REGIONS.has(s));
    wanted = traditional ? 'zh-Hant' : 'zh-CN';
  }
  const lower = wanted.toLowerCase();
  return PAGE_LANGS.find((l) => l.toLowerCase() === lower) ?? null;
}

/**
 * The languages of an `Accept-Language` header (RFC 9110 §12.5.4), most wanted first: by q-value,
 * ties in the header's order; `q=0` (not acceptable), `*` and malformed entries left out.
 */
export function acceptedLanguages(header: string | null | undefined): string[] {
  const entries: { tag: string; q: number; at: number }[] = [];
  (header ?? '').split(',').forEach((part, at) => {
    const [tag = '', ...params] = part.split(';').map((s) => s.trim());
    if (!tag || tag === '*') return;
    let q = 1;
    for (const p of params) {
      const m = /^q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i.exec(p);
      if (m) q = Number(m[1]);
      else if (/^q\s*=/i.test(p)) q = 0; // a q-value that is not one: not taken as a wish
    }
    if (q > 0) entries.push({ tag, q, at });
  });
  return entries.sort((a, b) => b.q - a.q || a.at - b.at).map((e) => e.tag);
}

/**
 * The page's language: the first candidate a page language fits, else English. Callers pass, in
 * order, the session's `locale`, the widget's `data-payframe-locale` (the frame's `?locale=`), then
 * the browser's languages (navigator.languages, or acceptedLanguages of its header).
 */
export function pickLang(candidates: readonly (string | null | undefined)[]): PageLang {
  for (const c of candidates) {
    const found = matchLang(c);
    if (found) return found;
  }
  return 'en';
}
