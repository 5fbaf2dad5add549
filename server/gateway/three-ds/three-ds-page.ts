/**
 * The sandbox ACS's pages: the challenge ("Payframe test bank — verify this payment"), its result,
 * and the errors. Server-rendered strings, no script at all; the one `<style>` element carries the
 * response's CSP nonce. Everything interpolated is escaped.
 */
import type { ChallengeStatus } from './three-ds-service.ts';

const TITLE = 'Payframe test bank — verify this payment';
const CHALLENGE_HEADING = 'Verify this payment';

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

/** "USD 1,234.56" from "1234.56" (the gateway's amounts are US dollars). */
export function formatAmount(amount: string): string {
  const [whole = '0', frac = '00'] = amount.split('.');
  return `USD ${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`;
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
  .badge { display: inline-block; margin-left: .5rem; padding: 0 .4rem; border: 1px solid currentColor;
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

function layout(nonce: string, heading: string, body: string, headingClass = ''): string {
  const cls = headingClass ? ` class="${headingClass}"` : '';
  const title = heading === CHALLENGE_HEADING ? TITLE : `${heading} — Payframe test bank`;
  return `<!doctype html>
<html lang="en">
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
<p class="bank">Payframe test bank<span class="badge">Sandbox</span></p>
<h1${cls}>${escapeHtml(heading)}</h1>
${body}
</div>
</main>
</body>
</html>
`;
}

function summary(challenge: ChallengeStatus): string {
  const merchant = challenge.merchantName
    ? `<dt>Merchant</dt><dd>${escapeHtml(challenge.merchantName)}</dd>\n`
    : '';
  return `<dl>
${merchant}<dt>Amount</dt><dd>${escapeHtml(formatAmount(challenge.amount))}</dd>
</dl>`;
}

export function renderChallengePage(nonce: string, challenge: ChallengeStatus): string {
  const expires = challenge.expiresAt.toISOString();
  const body = `<p>This is a test 3-D Secure check. No real bank is involved and no money moves.</p>
${summary(challenge)}
<form method="post" action="/3ds/challenge/${escapeHtml(challenge.id)}">
<fieldset>
<legend>Choose the result of this test verification. It expires at
<time datetime="${expires}">${escapeHtml(expires.slice(11, 16))} UTC</time>.</legend>
<button type="submit" name="outcome" value="authenticate">Authenticate</button>
<button type="submit" name="outcome" value="fail" class="secondary">Fail authentication</button>
</fieldset>
</form>`;
  return layout(nonce, CHALLENGE_HEADING, body);
}

export function renderResultPage(nonce: string, challenge: ChallengeStatus): string {
  const result = challenge.result;
  if (!result) {
    const body = `<p>You chose to fail the verification. The payment will not go through with this check;
you can return to the checkout and try again.</p>
${summary(challenge)}`;
    return layout(nonce, 'Verification failed', body, 'bad');
  }
  const used =
    challenge.status === 'used'
      ? '<p class="note">This result has already been used for a payment.</p>\n'
      : '';
  const body = `<p>The payment was verified. You can return to the checkout to finish paying.</p>
${used}${summary(challenge)}
<h2>Values for developers</h2>
<p class="note">Send these with ProcessTransaction (CAVV, ECI, XID, DirectoryServerTransactionId).</p>
<dl>
<dt>CAVV</dt><dd><code>${escapeHtml(result.cavv)}</code></dd>
<dt>ECI</dt><dd><code>${escapeHtml(result.eci)}</code></dd>
<dt>XID</dt><dd><code>${escapeHtml(result.xid)}</code></dd>
<dt>DS transaction id</dt><dd><code>${escapeHtml(result.dsTransactionId)}</code></dd>
</dl>`;
  return layout(nonce, 'Payment verified', body, 'ok');
}

const ERROR_PAGES = {
  400: ['Choose a result', 'Choose “Authenticate” or “Fail authentication” to continue.'],
  403: ['Request refused', 'This verification can only be answered from its own page.'],
  404: ['Verification not found', 'This verification does not exist. Return to the checkout and try again.'],
  410: [
    'This verification has expired',
    'The time to answer this verification has run out. Return to the checkout and start the payment again.',
  ],
} as const;

export type ErrorPageStatus = keyof typeof ERROR_PAGES;

export function renderErrorPage(nonce: string, status: ErrorPageStatus): string {
  const [heading, text] = ERROR_PAGES[status];
  return layout(nonce, heading, `<p>${escapeHtml(text)}</p>`, 'bad');
}
