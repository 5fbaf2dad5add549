/**
 * The password reset page: a plain form (no script at all), its confirmation, and the "this link
 * cannot be used" page. One `<style>` with the response's CSP nonce; everything interpolated is
 * escaped. Labels, hints tied with aria-describedby, errors announced with role="alert".
 */
import { escapeHtml } from '../three-ds/three-ds-page.ts';
import { PASSWORD_MIN_LENGTH } from './user-store.ts';

const STYLE = `
  :root { color-scheme: light dark; --bg: #f4f5f7; --card: #fff; --text: #1b1f24; --muted: #4a5360;
    --line: #8a93a0; --accent: #1d4ed8; --accent-text: #fff; --bad: #b91c1c; --focus: #b45309; }
  @media (prefers-color-scheme: dark) {
    :root { --bg: #111418; --card: #1b2027; --text: #eef1f5; --muted: #b4bcc8; --line: #6b7480;
      --accent: #93b4ff; --accent-text: #0b1020; --bad: #fca5a5; --focus: #fbbf24; }
  }
  * { box-sizing: border-box; }
  body { margin: 0; background: var(--bg); color: var(--text);
    font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  main { max-width: 28rem; margin: 0 auto; padding: 1.5rem 1rem; }
  .card { background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: 1.25rem; }
  h1 { margin: 0 0 .75rem; font-size: 1.35rem; line-height: 1.3; }
  p { margin: 0 0 1rem; }
  label { display: block; font-weight: 600; margin-bottom: .25rem; }
  input { font: inherit; width: 100%; min-height: 2.75rem; padding: .5rem; margin-bottom: .25rem;
    border: 1px solid var(--line); border-radius: .375rem; background: var(--card); color: var(--text); }
  .hint { color: var(--muted); font-size: .9rem; margin-bottom: 1rem; }
  .error { color: var(--bad); font-weight: 600; }
  button { font: inherit; font-weight: 600; min-height: 2.75rem; width: 100%; padding: .5rem 1rem;
    border-radius: .375rem; border: 2px solid var(--accent); background: var(--accent); color: var(--accent-text);
    cursor: pointer; }
  a { color: var(--accent); }
  input:focus-visible, button:focus-visible, a:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }`;

function layout(nonce: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} — Payframe</title>
<style nonce="${escapeHtml(nonce)}">${STYLE}</style>
</head>
<body>
<main>
<div class="card">
<h1>${escapeHtml(title)}</h1>
${body}
</div>
</main>
</body>
</html>
`;
}

export function renderResetForm(nonce: string, token: string, error?: string): string {
  const invalid = error ? ' aria-invalid="true"' : '';
  const described = error ? 'password-error password-hint' : 'password-hint';
  const errorLine = error
    ? `<p class="error" id="password-error" role="alert">${escapeHtml(error)}</p>\n`
    : '';
  return layout(
    nonce,
    'Choose a new password',
    `${errorLine}<form method="post" action="/reset-password">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN_LENGTH}" aria-describedby="${described}"${invalid}>
<p class="hint" id="password-hint">At least ${PASSWORD_MIN_LENGTH} characters, with letters and digits.</p>
<label for="confirm">New password, again</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN_LENGTH}">
<p class="hint">The link works once.</p>
<button type="submit">Set the new password</button>
</form>`,
  );
}

/** A link to the dashboard's sign-in page, when the server has one. */
function signInLink(signInUrl: string | undefined, text: string): string {
  return signInUrl ? `\n<p><a href="${escapeHtml(signInUrl)}">${escapeHtml(text)}</a></p>` : '';
}

export function renderResetDone(nonce: string, signInUrl?: string): string {
  return layout(
    nonce,
    'Your password has been changed',
    '<p role="status">You can now sign in with your new password. Other sign-ins of this user have been ended.</p>' +
      signInLink(signInUrl, 'Sign in'),
  );
}

export function renderResetUnusable(nonce: string, message: string, signInUrl?: string): string {
  return layout(
    nonce,
    'This link cannot be used',
    `<p role="alert">${escapeHtml(message)}</p>` + signInLink(signInUrl, 'Back to sign in'),
  );
}
