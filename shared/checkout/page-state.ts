/**
 * The session state the hosted page's HTML carries, so the form is interactive without a round trip
 * to the API (issue 12 §4): server/checkout/page-html.ts writes it, widget/app/pay/page-state.ts
 * reads it. Zod-free, so the widget bundle can import it.
 *
 * The block is `<script type="application/json" id="payframe-session">`: a data block, which the
 * browser never runs, so the page CSP (`script-src 'self'`) needs neither 'unsafe-inline' nor a hash.
 * Its content is the `WidgetSession` of GET /api/checkout/sessions/:token, or `null` when there is
 * no such session. No block at all means the page could not ask (the gateway did not answer): the
 * app then asks the API itself, as it always did.
 */
export const SESSION_STATE_ID = 'payframe-session';

/** The languages the hosted page speaks; English is bundled, the others load lazily. */
export const PAGE_LANGS = ['en', 'es'] as const;
export type PageLang = (typeof PAGE_LANGS)[number];

/**
 * The first supported language among the candidates (primary subtag), or English. The page route
 * and the app use it with the same candidates (`?locale=`, the session's locale, the browser's
 * languages), so the HTML's `lang` is the one the app renders in.
 */
export function pickLang(candidates: readonly (string | null | undefined)[]): PageLang {
  for (const c of candidates) {
    const primary = (c ?? '').trim().toLowerCase().split(/[-_]/)[0];
    const found = PAGE_LANGS.find((l) => l === primary);
    if (found) return found;
  }
  return 'en';
}
