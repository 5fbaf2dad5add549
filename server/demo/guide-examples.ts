/**
 * "Guide examples": every embed example of docs/merchant-guide.md, live on the demo store, as the
 * guide prints it. An example NAME is the code block after `<!-- snippet: NAME-html -->` (the page
 * body) and, when present, the one after `<!-- snippet: NAME-js -->` (the page's
 * /checkout-page.js). Only the guide's two placeholders are replaced: `https://pay.example` and
 * `{{SESSION_TOKEN}}`. e2e/24-merchant-guide.spec.ts pays through each of them.
 */
import fs from 'node:fs';
import { runtimePath } from '../runtime-files.ts';
import { esc } from './pages.ts';

const GUIDE = runtimePath('merchantGuide');
const NAME = /^[a-z][a-z0-9-]{0,40}$/;

/** The code block after `<!-- snippet: name -->` (the rule of test/kit/checkout/doc-snippets.ts). */
export function guideSnippet(name: string): string | null {
  if (!NAME.test(name.replace(/-(?:html|js)$/, ''))) return null;
  const text = fs.readFileSync(GUIDE, 'utf8');
  const at = text.indexOf(`<!-- snippet: ${name} -->`);
  if (at < 0) return null;
  return /```[a-z]*\n([\s\S]*?)```/.exec(text.slice(at))?.[1] ?? null;
}

export function fillPlaceholders(code: string, payframeUrl: string, token: string): string {
  return code.replaceAll('https://pay.example', payframeUrl).replaceAll('{{SESSION_TOKEN}}', token);
}

/** The example page: only the guide's markup (no demo script), so it shows what the example does alone. */
export function examplePage(name: string, body: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <link rel="icon" href="data:," />
    <title>Guide example ${esc(name)} · Payframe Demo Store</title>
    <link rel="stylesheet" href="/static/demo.css" />
  </head>
  <body>
    <main>
      <h1>Guide example: ${esc(name)}</h1>
${body}
    </main>
  </body>
</html>
`;
}

/** The example a /checkout-page.js request belongs to, from the page that asked (its Referer). */
export function exampleOfReferer(referer: string | undefined): string | null {
  if (!referer) return null;
  try {
    const m = /^\/guide\/([a-z][a-z0-9-]{0,40})$/.exec(new URL(referer).pathname);
    return m ? m[1]! : null;
  } catch {
    return null;
  }
}
