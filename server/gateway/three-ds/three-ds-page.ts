/**
 * The sandbox ACS's pages: the challenge ("Payframe test bank — verify this payment"), its result,
 * and the errors. Server-rendered strings; the one `<style>` element and the one small `<script>`
 * carry the response's CSP nonce. The script tells the page that frames this one (the checkout)
 * how tall the bank's page is, so the frame takes that height and no more: a message with the
 * height only, posted to the origins allowed to frame the page (never to any origin). Everything interpolated is escaped. The words are the shopper's language's
 * (server/i18n: the session's locale, else the browser's); Arabic and Hebrew pages are right to left.
 */
import {
  dirOfShopperLang,
  fill,
  type ShopperLang,
  type ShopperTexts,
  shopperTexts,
} from '../../i18n/index.ts';
import type { ChallengeStatus } from './three-ds-service.ts';

const HTML_SPECIAL = /[&<>"']/g;
const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(HTML_SPECIAL, (ch) => HTML_ENTITIES[ch] ?? ch);
}

/** "EUR 1,234.56" from "1234.56" and "EUR": the ISO 4217 code, then the amount, as banks print it. */
export function formatAmount(amount: string, currency: string): string {
  const [whole = '0', frac = '00'] = amount.split('.');
  return `${currency} ${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`;
}

const STYLE = `
  :root { color-scheme: light dark; --bg: #f4f5f7; --card: #fff; --text: #1b1f24; --muted: #4a5360;
    --line: #d5d9e0; --accent: #1d4ed8; --accent-text: #fff; --ok: #166534; --bad: #b91c1c; --focus: #b45309; }
  @media (prefers-color-scheme: dark) {
    :root { --bg: #111418; --card: #1b2027; --text: #eef1f5; --muted: #b4bcc8; --line: #3a424e;
      --accent: #93b4ff; --accent-text: #0b1020; --ok: #86efac; --bad: #fca5a5; --focus: #fbbf24; }
  }
  * { box-sizing: border-box; }
  body { margin: 0; background: var(--bg); color: var(--text);
    font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  main { max-width: 28rem; margin: 0 auto; padding: 1.5rem 1rem; }
  .card { background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: 1.25rem; }
  .bank { margin: 0 0 .25rem; font-weight: 600; color: var(--muted); }
  .badge { display: inline-block; margin-inline-start: .5rem; padding: 0 .4rem; border: 1px solid currentColor;
    border-radius: .25rem; font-size: .8rem; font-weight: 600; }
  h1 { margin: 0 0 .75rem; font-size: 1.35rem; line-height: 1.3; }
  h2 { margin: 1.5rem 0 .25rem; font-size: 1.05rem; }
  p { margin: 0 0 1rem; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0 0 1.25rem; }
  dt { color: var(--muted); }
  dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
  code { font: .9rem/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
  fieldset { border: 0; margin: 0; padding: 0; display: grid; gap: .75rem; }
  legend { padding: 0; margin-bottom: .75rem; }
  button { font: inherit; font-weight: 600; min-height: 2.75rem; width: 100%; padding: .5rem 1rem;
    border-radius: .375rem; border: 2px solid var(--accent); background: var(--accent); color: var(--accent-text);
    cursor: pointer; }
  button.secondary { background: transparent; color: var(--text); border-color: var(--line); }
  button:focus-visible, a:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
  a { color: var(--accent); }
  .ok { color: var(--ok); }
  .bad { color: var(--bad); }
  .note { color: var(--muted); font-size: .9rem; }
  @media (max-width: 22rem) { dl { grid-template-columns: 1fr; } dd { margin-bottom: .5rem; } }
  /* A phone's challenge frame (issue 14 §8): the buttons in view without scrolling. */
  @media (max-height: 34rem) { main { padding: .5rem; } .card { padding: .75rem; } h1 { font-size: 1.15rem;
    margin-bottom: .5rem; } p, dl { margin-bottom: .5rem; } legend { margin-bottom: .5rem; } fieldset { gap: .5rem; } }
  @media (prefers-reduced-motion: reduce) { * { transition: none !important; } }`;

/** Where the bank's pages load SIZE_SCRIPT from (a script of the page's own origin, no inline code). */
export const SIZE_SCRIPT_PATH = '/3ds/size.js';

/**
 * Posts `{source: 'payframe-3ds', height}` to the framing page whenever the page's height changes,
 * to the origins its tag's `data-targets` names (the frame ancestors; 'self' is this page's origin).
 */
export const SIZE_SCRIPT = `(function(){var c=document.currentScript;if(!c||parent===window)return;var t=JSON.parse(c.getAttribute("data-targets")||"[]").map(function(o){return o==="'self'"?location.origin:o}),h=-1;function s(){var n=Math.ceil(document.documentElement.getBoundingClientRect().height);if(n===h)return;h=n;t.forEach(function(o){parent.postMessage({source:"payframe-3ds",height:n},o)})}if(window.ResizeObserver)new ResizeObserver(s).observe(document.documentElement);s()})();\n`;

/** The tag that loads SIZE_SCRIPT, telling it the frame ancestors to post the height to. */
export function sizeScriptTag(origins: readonly string[]): string {
  return `<script src="${SIZE_SCRIPT_PATH}" data-targets="${escapeHtml(JSON.stringify(origins))}"></script>`;
}

function layout(
  nonce: string,
  lang: ShopperLang,
  heading: string,
  body: string,
  headingClass = '',
  title = `${heading} — ${shopperTexts(lang).tdsBank}`,
): string {
  const t = shopperTexts(lang);
  const cls = headingClass ? ` class="${headingClass}"` : '';
  return `<!doctype html>
<html lang="${lang}" dir="${dirOfShopperLang(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style nonce="${escapeHtml(nonce)}">${STYLE}</style>
</head>
<body>
<main>
<div class="card">
<p class="bank">${escapeHtml(t.tdsBank)}<span class="badge">${escapeHtml(t.tdsSandbox)}</span></p>
<h1${cls}>${escapeHtml(heading)}</h1>
${body}
</div>
</main>
</body>
</html>
`;
}

function summary(t: ShopperTexts, challenge: ChallengeStatus): string {
  const merchant = challenge.merchantName
    ? `<dt>${escapeHtml(t.tdsMerchant)}</dt><dd>${escapeHtml(challenge.merchantName)}</dd>\n`
    : '';
  // The amount stays left to right in a right-to-left page, as banks print it.
  return `<dl>
${merchant}<dt>${escapeHtml(t.tdsAmount)}</dt><dd dir="ltr">${escapeHtml(formatAmount(challenge.amount, challenge.currency))}</dd>
</dl>`;
}

export function renderChallengePage(
  nonce: string,
  challenge: ChallengeStatus,
  lang: ShopperLang,
  /** The page was asked for in a language (`?lang=`): the form's answer asks for it too. */
  keepLang = false,
): string {
  const t = shopperTexts(lang);
  const expires = challenge.expiresAt.toISOString();
  const time = `<time datetime="${expires}">${escapeHtml(expires.slice(11, 16))} UTC</time>`;
  const body = `<p>${escapeHtml(t.tdsIntro)}</p>
${summary(t, challenge)}
<form method="post" action="/3ds/challenge/${escapeHtml(challenge.id)}${keepLang ? `?lang=${lang}` : ''}">
<fieldset>
<legend>${fill(escapeHtml(t.tdsChoose), { time })}</legend>
<button type="submit" name="outcome" value="authenticate">${escapeHtml(t.tdsAuthenticate)}</button>
<button type="submit" name="outcome" value="fail" class="secondary">${escapeHtml(t.tdsFail)}</button>
</fieldset>
</form>`;
  return layout(nonce, lang, t.tdsChallengeHeading, body, '', t.tdsChallengeTitle);
}

export function renderResultPage(nonce: string, challenge: ChallengeStatus, lang: ShopperLang): string {
  const t = shopperTexts(lang);
  const result = challenge.result;
  if (!result) {
    const body = `<p>${escapeHtml(t.tdsFailedBody)}</p>
${summary(t, challenge)}`;
    return layout(nonce, lang, t.tdsFailedHeading, body, 'bad');
  }
  const used = challenge.status === 'used' ? `<p class="note">${escapeHtml(t.tdsUsed)}</p>\n` : '';
  const body = `<p>${escapeHtml(t.tdsVerifiedBody)}</p>
${used}${summary(t, challenge)}
<h2>${escapeHtml(t.tdsDevHeading)}</h2>
<p class="note">${escapeHtml(t.tdsDevNote)}</p>
<dl dir="ltr">
<dt>CAVV</dt><dd><code>${escapeHtml(result.cavv)}</code></dd>
<dt>ECI</dt><dd><code>${escapeHtml(result.eci)}</code></dd>
<dt>XID</dt><dd><code>${escapeHtml(result.xid)}</code></dd>
<dt>${escapeHtml(t.tdsDsTransactionId)}</dt><dd><code>${escapeHtml(result.dsTransactionId)}</code></dd>
</dl>`;
  return layout(nonce, lang, t.tdsVerifiedHeading, body, 'ok');
}

const ERROR_PAGES = {
  400: ['tds400Heading', 'tds400Body'],
  403: ['tds403Heading', 'tds403Body'],
  404: ['tds404Heading', 'tds404Body'],
  410: ['tds410Heading', 'tds410Body'],
} as const satisfies Record<number, readonly [keyof ShopperTexts, keyof ShopperTexts]>;

export type ErrorPageStatus = keyof typeof ERROR_PAGES;

export function renderErrorPage(nonce: string, status: ErrorPageStatus, lang: ShopperLang): string {
  const t = shopperTexts(lang);
  const [heading, text] = ERROR_PAGES[status];
  return layout(nonce, lang, t[heading], `<p>${escapeHtml(t[text])}</p>`, 'bad');
}
