/**
 * What a merchant configures, and the pages that show it (security-requirements.md XSS-1, XSS-2,
 * EMB-1, EMB-5, PCI-643-2; attack rows 6, 7, 8, 9, 12 and 33).
 *
 * - Row 6: a merchant whose name is markup — the widget's session data carries it as a JSON string,
 *   in the API's answer and in the hosted page's JSON data block (escaped: no `<`, `>` or `&` in it,
 *   so it cannot end the block), and nowhere else in any HTML page Payframe serves for the session
 *   (Preact renders the name as text). The browser code never turns a string into markup: no
 *   `dangerouslySetInnerHTML`, `innerHTML`, `outerHTML`, `insertAdjacentHTML`, `document.write`,
 *   `DOMParser` or `createContextualFragment` in the hosted page or the loader (read with the
 *   TypeScript parser, comments excluded).
 * - Rows 7–9: a logo URL is checked when the merchant is configured (https only, no credentials);
 *   Payframe has no server-side logo fetcher, so no logo address — the cloud metadata service, the
 *   database port, a rebinding host — is ever contacted by the server; and the hosted page loads
 *   images from its own origin and the merchant's one https logo origin only, always as an image
 *   (`<img>`: an SVG loaded so runs no script), never inlined.
 * - Row 12: the payment iframe has no `message` listener at all, so a `{type:'submit'}` or
 *   `{type:'setAmount'}` posted into it from any origin has nothing to act on; the amount is the
 *   server session's (state-transitions.test.ts row 13). The loader's own listener on the merchant
 *   page checks origin, window, instance and shape (e2e/22-embed-isolation.spec.ts).
 * - Row 33: every HTML page Payframe serves has a CSP whose scripts come from its own origin only
 *   (no inline, eval, wildcard or scheme sources) and which allows no plug-ins, so a script injected
 *   into the page — or served by a compromised third party — does not run.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMerchant,
  basicAuth,
  cardBody,
  type CheckoutWorld,
  createSession,
  openCheckoutWorld,
  pay,
  SHOP_ORIGIN,
} from '../../test/kit/checkout/checkout-world.ts';
import { PayframeError } from '../errors.ts';
import { TEST_CARDS } from '../gateway/processor/simulator.ts';
import { databaseTargets } from '../../test/kit/databases.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const NAMES = [
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  "</script><script>alert('x')</script>",
];

function sources(dir: string): string[] {
  return readdirSync(join(REPO, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(REPO, path)).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

interface Finding {
  file: string;
  line: number;
  what: string;
}

const HTML_SINKS = new Set(['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'createContextualFragment']);

/** Every place a file turns text into markup, or listens for messages. */
function scan(
  file: string,
  text = readFileSync(join(REPO, file), 'utf8'),
): { sinks: Finding[]; messageListeners: Finding[] } {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const sinks: Finding[] = [];
  const messageListeners: Finding[] = [];
  const at = (node: ts.Node, what: string) => ({
    file,
    line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
    what,
  });
  const visit = (node: ts.Node): void => {
    if (ts.isJsxAttribute(node) && node.name.getText(source) === 'dangerouslySetInnerHTML') {
      sinks.push(at(node, 'dangerouslySetInnerHTML'));
    }
    if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
      const name = ts.isPropertyAccessExpression(node)
        ? node.name.text
        : ts.isStringLiteral(node.argumentExpression)
          ? node.argumentExpression.text
          : '';
      if (HTML_SINKS.has(name)) sinks.push(at(node, name));
      if ((name === 'write' || name === 'writeln') && node.expression.getText(source) === 'document') {
        sinks.push(at(node, `document.${name}`));
      }
      if (name === 'onmessage') messageListeners.push(at(node, 'onmessage'));
    }
    if (ts.isNewExpression(node) && node.expression.getText(source) === 'DOMParser')
      sinks.push(at(node, 'DOMParser'));
    if (ts.isCallExpression(node)) {
      const callee = node.expression.getText(source);
      const first = node.arguments[0];
      if (
        /(^|\.)addEventListener$/.test(callee) &&
        first &&
        ts.isStringLiteralLike(first) &&
        first.text === 'message'
      ) {
        messageListeners.push(at(node, callee));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { sinks, messageListeners };
}

/** A TCP listener that only counts who connects: any fetch of the logo would show here. */
async function connectionCounter() {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    count: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values] as const),
  );
}

describe('browser code', () => {
  const app = sources('widget/app');
  const loader = sources('widget/loader');

  it('the scanner finds what it looks for, and not in comments (the control)', () => {
    const found = scan(
      'x.tsx',
      [
        '// el.innerHTML = s;',
        'el.innerHTML = s;',
        'const v = <div dangerouslySetInnerHTML={{ __html: s }} />;',
        'document.write(s);',
        'new DOMParser();',
        "window.addEventListener('message', f);",
        'self.onmessage = f;',
      ].join('\n'),
    );
    expect(found.sinks.map((f) => `${f.line} ${f.what}`)).toEqual([
      '2 innerHTML',
      '3 dangerouslySetInnerHTML',
      '4 document.write',
      '5 DOMParser',
    ]);
    expect(found.messageListeners.map((f) => `${f.line} ${f.what}`)).toEqual([
      '6 window.addEventListener',
      '7 onmessage',
    ]);
  });

  it('row 6: the hosted page and the loader never parse strings as HTML', () => {
    expect(app.length).toBeGreaterThan(10);
    expect(loader.length).toBeGreaterThan(2);
    const found = [...app, ...loader].flatMap((f) => scan(f).sinks);
    expect(found).toEqual([]);
  });

  it('row 12: the payment iframe listens to no message but its 3-D Secure frame height; the loader does, on the merchant page, and the dashboard and its preview, on their own pages', () => {
    // The dashboard's Settings page hears its preview frame say it is ready; the preview (its own
    // lazily loaded chunk, /pay/preview only, same origin and parent checked) hears the drafts.
    // The payment page hears one thing more: the height of the 3-D Secure frame it made, from that
    // frame's window and the bank page's origin only, as a number.
    const own = [
      'widget/app/dashboard/components/settings-preview.tsx',
      'widget/app/pay/components/challenge.tsx',
      'widget/app/pay/preview-frame.ts',
    ];
    const challenge = readFileSync(join(REPO, 'widget/app/pay/components/challenge.tsx'), 'utf8');
    expect(challenge).toContain('e.origin !== origin || e.source !== frame.current?.contentWindow');
    expect(challenge).toMatch(/typeof d\.height === 'number' && Number\.isFinite\(d\.height\)/);
    const listening = app.flatMap((f) => scan(f).messageListeners);
    expect(listening.filter((l) => !own.includes(l.file))).toEqual([]);
    expect(listening.map((l) => l.file).sort()).toEqual(own);
    // The payment page's entry reaches the preview's chunk only by a dynamic import.
    const main = readFileSync(join(REPO, 'widget/app/pay/main.tsx'), 'utf8');
    expect(main).not.toMatch(/^import .*preview-frame/m);
    expect(main).toMatch(/import\('\.\/preview-frame\.ts'\)/);
    // The loader's listener exists (and is the one e2e/22 attacks with forged messages).
    expect(loader.flatMap((f) => scan(f).messageListeners).length).toBeGreaterThan(0);
  });
});

describe.each(databaseTargets())('merchant content and pages ($name)', (target) => {
  let w: CheckoutWorld;
  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open());
  });
  afterAll(() => w?.close());

  async function createWithLogo(logoUrl: string) {
    return w.t.gateway.deps.merchants.create(w.db, {
      name: 'Logo Shop',
      origins: ['https://shop.example'],
      logoUrl,
    });
  }

  async function refusal(logoUrl: string): Promise<unknown> {
    try {
      await createWithLogo(logoUrl);
    } catch (err) {
      return err;
    }
    return null;
  }

  it.each(NAMES)('row 6: a merchant name made of markup (%s) is data, never page markup', async (name) => {
    const { merchant, transactionKey } = await w.t.gateway.deps.merchants.create(w.db, {
      name,
      origins: [SHOP_ORIGIN],
    });
    const token = await createSession(
      w,
      {},
      { id: merchant.id, key: transactionKey, authorization: basicAuth(merchant.id, transactionKey) },
    );

    const load = await w.app.inject({ method: 'GET', url: `/api/checkout/sessions/${token}` });
    expect(load.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.stringify(load.json())).toContain(JSON.stringify(name).slice(1, -1)); // as a JSON string

    for (const url of [`/pay/${token}`, `/pay/${token}?embed=1`]) {
      const page = await w.app.inject({ method: 'GET', url });
      expect(page.body).not.toContain(name);
      // The session state (shared/checkout/page-state.ts) holds the name as an escaped JSON string;
      // the page rendered on the server shows it as escaped text; the rest has no trace of it.
      const block = /<script type="application\/json" id="payframe-session">([^<]*)<\/script>/.exec(
        page.body,
      );
      if (page.statusCode === 200) {
        expect(block && (JSON.parse(block[1]!) as { merchant: { name: string } }).merchant.name).toBe(name);
      }
      const rest = htmlTextVariants(name)
        .reduce((body, asText) => body.split(asText).join(''), page.body.replace(block?.[0] ?? '', ''))
        .replace(/<style nonce="[^"]+">[^<]*<\/style>/g, ''); // Payframe's own stylesheet
      expect(rest).not.toMatch(/onerror|onload=|alert\(|<img src=x|<svg onload/i);
      const csp = String(page.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    }
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(document.domain)',
    'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
    'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+',
    'data:image/png;base64,iVBORw0KGgo=',
    'http://shop.example/logo.png',
    'vbscript:msgbox(1)',
    '//shop.example/logo.png',
    '/logo.png',
  ])(
    'row 7: a javascript:, data: or http: logo URL is refused when the merchant is configured (%s)',
    async (url) => {
      const err = await refusal(url);
      expect(err).toBeInstanceOf(PayframeError);
      expect((err as PayframeError).code).toBe('validation_failed');
      expect(JSON.stringify((err as PayframeError).fields)).toContain('logoUrl');
    },
  );

  it.each([
    'file:///etc/passwd',
    'http://169.254.169.254/latest/meta-data',
    'http://127.0.0.1:5432',
    'https://user:secret@shop.example/logo.png',
  ])('row 8: file:, plain http to internal addresses and credentials are refused (%s)', async (url) => {
    const err = await refusal(url);
    expect((err as PayframeError).code).toBe('validation_failed');
  });

  it('the control: an https logo is accepted and kept as given', async () => {
    const { merchant } = await createWithLogo('https://cdn.shop.example/logo.png');
    expect(merchant.logoUrl).toBe('https://cdn.shop.example/logo.png');
  });

  it('row 8: Payframe never fetches a logo, whatever address it names (no SSRF surface)', async () => {
    const listener = await connectionCounter();
    try {
      // As if a host had rebound to a loopback address after the check: the row is written as is.
      const logo = `https://127.0.0.1:${listener.port}/latest/meta-data/logo.svg`;
      await w.db.query('update merchants set logo_url = $1 where id = $2', [logo, w.merchant.id]);
      const token = await createSession(w);

      const load = await w.app.inject({ method: 'GET', url: `/api/checkout/sessions/${token}` });
      expect(load.statusCode).toBe(200);
      expect(JSON.stringify(load.json())).toContain(logo); // the logo did reach the page's data
      await w.app.inject({ method: 'GET', url: `/pay/${token}` });
      await w.app.inject({ method: 'GET', url: `/pay/${token}?embed=1` });
      await w.app.inject({
        method: 'GET',
        url: `/v1/checkout-sessions/${token}`,
        headers: { authorization: w.merchant.authorization },
      });
      expect((await pay(w.app, token, cardBody())).json().status).toBe('succeeded');
      await w.checkout.deliverWebhooks();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(listener.count()).toBe(0);

      // The control: the listener does count a connection.
      await new Promise<void>((resolve, reject) => {
        const s = net.connect(listener.port, '127.0.0.1', () => {
          s.end();
          resolve();
        });
        s.on('error', reject);
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(listener.count()).toBe(1);
    } finally {
      await w.db.query('update merchants set logo_url = null where id = $1', [w.merchant.id]);
      await listener.close();
    }
  });

  it('row 9: the hosted page loads images from its own origin and the merchant logo origin only, never inlined', async () => {
    const token = await createSession(w);
    for (const url of [`/pay/${token}`, `/pay/${token}?embed=1`]) {
      const res = await w.app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      const d = directives(csp);
      // This merchant has no logo: nothing beyond the page's own origin.
      expect(d.get('img-src')).toEqual(["'self'", 'data:']);
      expect(d.get('default-src')).toEqual(["'none'"]);
      expect(d.get('object-src')).toEqual(["'none'"]);
    }
  });

  it('row 33: every page Payframe serves has a script-src of its own origin only, and no plug-ins', async () => {
    const token = await createSession(w);
    const enrolled = await addMerchant(w.t, w.db, 'Policy Shop', { threeDsEnrolled: true });
    const secure = await createSession(w, {}, enrolled);
    const challenge = (await pay(w.app, secure, cardBody(TEST_CARDS.threeDSecure))).json()
      .challengeUrl as string;
    const pages = [
      '/',
      `/pay/${token}`,
      `/pay/${token}?embed=1`,
      '/pay/cs_unknown0000000000000000000000',
      new URL(challenge).pathname,
      '/TransactionService.asmx',
      '/TransactionService.asmx?op=ProcessTransaction',
    ];
    let html = 0;
    for (const url of pages) {
      const res = await w.app.inject({ method: 'GET', url });
      const type = String(res.headers['content-type'] ?? '');
      if (!type.startsWith('text/html')) continue;
      html += 1;
      const csp = String(res.headers['content-security-policy'] ?? '');
      const d = directives(csp);
      const scripts = d.get('script-src') ?? d.get('default-src');
      expect(scripts, `${url}: ${csp}`).toBeDefined();
      for (const source of scripts!) {
        expect(["'self'", "'none'"], `${url} script source ${source}`).toContain(source);
      }
      const objects = d.get('object-src') ?? d.get('default-src');
      expect(objects, `${url}: ${csp}`).toEqual(["'none'"]);
      // base-uri does not fall back to default-src: it must be said.
      expect(d.get('base-uri'), `${url}: ${csp}`).toEqual(["'none'"]);
    }
    // The 3-D Secure and help pages always; the others once the widget is built (npm run build).
    expect(html).toBeGreaterThanOrEqual(3);
  });
});

/** The name as HTML text, as an escaping renderer writes it ('>' and '"' need no escape in text). */
function htmlTextVariants(text: string): string[] {
  const amp = text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return [amp.replace(/>/g, '&gt;').replace(/"/g, '&quot;'), amp.replace(/"/g, '&quot;'), amp];
}
