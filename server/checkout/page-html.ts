/**
 * The hosted page's HTML with the session state in it (shared/checkout/page-state.ts says what the
 * block holds and why). Pure: the built pay.html in, the page out.
 */
import { dirOf, type PageLang } from '../../shared/checkout/page-lang.ts';
import { SESSION_STATE_ID } from '../../shared/checkout/page-state.ts';
import type { RenderedPage } from '../../shared/checkout/page-render.ts';
import type { WidgetSession } from '../../shared/checkout/pay-schemas.ts';

/**
 * JSON that stays inert inside a `<script>` element: `<`, `>` and `&` become `\u003c`, `\u003e` and
 * `\u0026`, so no `</script>` or `<!--` can end or change the element (HTML's "script data" state),
 * and U+2028/U+2029 become escapes, so the text is also a valid JavaScript literal. Every one of them
 * can occur only inside a JSON string, where the escape means the same character to JSON.parse.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * `html` (dist/widget/pay.html) with `lang` and `dir` on its root element (Arabic and Hebrew are
 * right to left from the first paint) and, unless `state` is undefined
 * (the page could not ask the gateway), the state block before `</head>`: module scripts run after
 * the document is parsed, so the app finds it on start. With `rendered` (the page rendered on the
 * server: page-renderer.ts), its markup inside `<main id="app" data-rendered>`, which the app
 * hydrates, and its branding in a `<style>` carrying the response's CSP nonce.
 */
export function pageWithState(
  html: string,
  state: WidgetSession | null | undefined,
  lang: PageLang,
  rendered?: RenderedPage & {
    nonce: string;
    /** The page's `<link rel="stylesheet">` tags and their files' text, put inline. */
    stylesheets?: ReadonlyMap<string, string>;
  },
): string {
  // Replacer functions throughout: a replacement string would read `$&` or `$'` in the data.
  const brand = rendered?.branded ? ' data-brand=""' : '';
  let page = html.replace(/<html\b[^>]*>/i, () => `<html lang="${lang}" dir="${dirOf(lang)}"${brand}>`);
  if (rendered) {
    page = page.replace(
      /<main id="app"><\/main>/,
      () => `<main id="app" data-rendered>${rendered.html}</main>`,
    );
    // The branding's values were checked where they were read (widget/app/pay/theme.ts): a colour,
    // a radius, a font name; a `<` could not end the element anyway, none can be in them.
    // A stylesheet of the build is inline only if nothing in it can end the element.
    for (const [tag, css] of rendered.stylesheets ?? []) {
      if (!/<\/style/i.test(css))
        page = page.replace(tag, () => `<style nonce="${rendered.nonce}">${css}</style>`);
    }
    if (rendered.css && !rendered.css.includes('<')) {
      const style = `<style nonce="${rendered.nonce}">${rendered.css}</style>\n`;
      page = page.replace(/<\/head>/i, (end) => `${style}${end}`);
    }
  }
  if (state !== undefined) {
    const block = `<script type="application/json" id="${SESSION_STATE_ID}">${jsonForScript(state)}</script>\n`;
    page = page.replace(/<\/head>/i, (end) => `${block}${end}`);
  }
  return page;
}
