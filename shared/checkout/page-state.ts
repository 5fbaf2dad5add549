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

/** The page's languages live in page-lang.ts (their choice in page-lang-choice.ts). */
export { PAGE_LANGS, type PageLang } from './page-lang.ts';
