/**
 * `npm run screenshots [-- --out DIR]`: every state of the hosted payment page, for a person to look
 * at beside what the best checkouts do — the form, typing, each error, a decline at its field and
 * one beside Pay, the 3-D Secure step, ACH and its receipt, a card receipt, saved cards, the cancel
 * question, a session that is not there — at 1280×800, 375×740 and 320×640, in English (left to
 * right) and Arabic (right to left), light (and dark at 375 px). The compiled server (`npm run
 * build` first) runs on free ports with its demo merchant; Debian's Chromium draws. Written to
 * `screenshots/` (git-ignored) with an index.html; the names say state, language, width, scheme.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from '@playwright/test';
import { freePort } from '../test/kit/net.ts';
import { DEMO_SERVER_ENV } from '../test/kit/server-env.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outArg = process.argv.indexOf('--out');
const OUT = path.resolve(outArg > 0 ? process.argv[outArg + 1]! : path.join(ROOT, 'screenshots'));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SIZES = [
  [1280, 800],
  [375, 740],
  [320, 640],
] as const;
const LANGS = ['en', 'ar'] as const;
/** `--only NAME`: one state (to look at it again after a change). */
const onlyArg = process.argv.indexOf('--only');
const ONLY = onlyArg > 0 ? process.argv[onlyArg + 1] : undefined;
const EXPIRY = '12/34';

interface Server {
  base: string;
  store: string;
  auth: string;
  stop(): Promise<void>;
}

async function startServer(): Promise<Server> {
  if (!fs.existsSync(path.join(ROOT, 'dist/server/payframe.js')))
    throw new Error('Build first: npm run build');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payframe-screenshots-'));
  const [port, demoPort] = [await freePort(), await freePort()];
  const child: ChildProcess = spawn(process.execPath, ['dist/server/payframe.js', 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DEMO_PORT: String(demoPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      CHECKOUT_PAYS_PER_MINUTE_PER_IP: '1000',
      // Its sessions are the demo merchant's.
      ...DEMO_SERVER_ENV,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 300) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const demo = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-merchant.json'), 'utf8')) as {
    merchantId: string;
    transactionKey: string;
  };
  return {
    base,
    store: `http://127.0.0.1:${demoPort}`,
    auth: `Basic ${Buffer.from(`${demo.merchantId}:${demo.transactionKey}`).toString('base64')}`,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let orders = 0;
async function session(
  s: Server,
  locale: string,
  email = `shopper-${Date.now()}-${orders}@example.com`,
): Promise<string> {
  const res = await fetch(`${s.base}/v1/checkout-sessions`, {
    method: 'POST',
    headers: { authorization: s.auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      amount: '49.99',
      currency: 'USD',
      orderNumber: `SHOT-${++orders}`,
      locale,
      lineItems: [
        { name: 'Merino wool sweater', quantity: 1, unitAmount: '39.99' },
        { name: 'Wool socks', quantity: 2, unitAmount: '5.00' },
      ],
      shopper: { email, firstName: 'Ada', lastName: 'Lovelace' },
      returnUrl: `${s.store}/return`,
    }),
  });
  if (res.status !== 201) throw new Error(`create session: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** The form's inputs by id: the same in every language. */
async function card(page: Page, number: string, cvc = '123'): Promise<void> {
  await page.locator('#cc-number').fill(number);
  await page.locator('#cc-exp').fill(EXPIRY);
  await page.locator('#cc-csc').fill(cvc);
}
const pay = (page: Page) => page.locator('button.pf-pay').first().click();

async function latestCode(s: Server, to: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${s.base}/dev/outbox?to=${encodeURIComponent(to)}`);
    const { messages } = (await res.json()) as { messages: { text: string }[] };
    const code = messages[0] ? /\b(\d{6})\b/.exec(messages[0].text)?.[1] : undefined;
    if (code) return code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no code for ${to}`);
}

type State = { name: string; run: (page: Page, s: Server, lang: string) => Promise<void> };

/** Each state: how to reach it from a fresh page. */
const STATES: State[] = [
  {
    name: 'form',
    run: async (page, s, lang) => void (await page.goto(`${s.base}/pay/${await session(s, lang)}`)),
  },
  {
    name: 'typing',
    run: async (page, s, lang) => {
      await page.goto(`${s.base}/pay/${await session(s, lang)}`);
      await page.locator('#cc-number').fill('4242 4242 42');
    },
  },
  {
    name: 'errors',
    run: async (page, s, lang) => {
      await page.goto(`${s.base}/pay/${await session(s, lang)}`);
      await page.locator('#cc-number').fill('4242 4242 4242 4241');
      await pay(page);
      await page.locator('[data-testid=form-summary]').waitFor();
    },
  },
  {
    name: 'decline-cvc',
    run: async (page, s, lang) => {
      await page.goto(`${s.base}/pay/${await session(s, lang)}`);
      await card(page, '4000000000000127');
      await pay(page);
      await page.locator('#cc-csc[aria-invalid=true]').waitFor();
    },
  },
  {
    name: 'decline',
    run: async (page, s, lang) => {
      await page.goto(`${s.base}/pay/${await session(s, lang)}`);
      await card(page, '4000000000000002');
      await pay(page);
      await page.locator('.pf-alert').waitFor();
    },
  },
  {
    name: '3ds',
    run: async (page, s, lang) => {
      await page.goto(`${s.base}/pay/${await session(s, lang)}`);
      await card(page, '4000000000003220');
      await pay(page);
      await page.frameLocator('iframe.pf-tds-frame').locator('button').first().waitFor();
      await page.waitForTimeout(300); // the frame takes the bank page's height
    },
  },
  {
    name: 'ach',
    run: async (page, s, lang) => {
      await page.goto(`${s.base}/pay/${await session(s, lang)}`);
      await page.locator('#method-ach').check();
      await page.locator('#ach-routing').fill('011000015');
      await page.locator('#ach-account').fill('000123456789');
    },
  },
  {
    name: 'ach-receipt',
    run: async (page, s, lang) => {
      await page.goto(`${s.base}/pay/${await session(s, lang)}`);
      await page.locator('#method-ach').check();
      await page.locator('#ach-routing').fill('011000015');
      await page.locator('#ach-account').fill('000123456789');
      await page.locator('#ach-confirm').fill('000123456789');
      await page.locator('#ach-authorize').check();
      await pay(page);
      await page.locator('[data-testid=receipt]').waitFor();
    },
  },
  {
    name: 'receipt',
    run: async (page, s, lang) => {
      await page.goto(`${s.base}/pay/${await session(s, lang)}`);
      await card(page, '5555555555554444');
      await page.locator('#save-card').check();
      await pay(page);
      await page.locator('[data-testid=receipt]').waitFor();
    },
  },
  {
    name: 'saved-cards',
    run: async (page, s, lang) => {
      const email = `saved-${Date.now()}-${orders}@example.com`;
      await page.goto(`${s.base}/pay/${await session(s, lang, email)}`);
      await card(page, '4242424242424242');
      await page.locator('#save-card').check();
      await pay(page);
      await page.locator('[data-testid=receipt]').waitFor();
      await page.goto(`${s.base}/pay/${await session(s, lang, email)}`);
      await page.locator('.pf-use-saved').click();
      await page.locator('#otp-code').fill(await latestCode(s, email));
      await page.locator('.pf-wallet form button[type=submit]').click();
      await page.locator('input[name=saved-card]').first().waitFor();
    },
  },
  {
    name: 'cancel-question',
    run: async (page, s, lang) => {
      await page.goto(`${s.base}/pay/${await session(s, lang)}`);
      await page.locator('.pf-cancel-link').click();
      await page.locator('.pf-cancel-no').waitFor();
    },
  },
  {
    name: 'not-found',
    run: async (page, s, lang) => void (await page.goto(`${s.base}/pay/cs_${'x'.repeat(43)}?locale=${lang}`)),
  },
];

async function shoot(browser: Browser, s: Server): Promise<string[]> {
  fs.mkdirSync(OUT, { recursive: true });
  const files: string[] = [];
  for (const state of STATES.filter((st) => !ONLY || st.name === ONLY)) {
    for (const lang of LANGS) {
      for (const [width, height] of SIZES) {
        const schemes = width === 375 ? (['light', 'dark'] as const) : (['light'] as const);
        for (const scheme of schemes) {
          const context = await browser.newContext({
            viewport: { width, height },
            colorScheme: scheme,
            reducedMotion: 'reduce',
          });
          const page = await context.newPage();
          const file = `${state.name}-${lang}-${width}${scheme === 'dark' ? '-dark' : ''}.png`;
          try {
            await state.run(page, s, lang);
            await page.screenshot({ path: path.join(OUT, file) });
            files.push(file);
            process.stdout.write(`${file}\n`);
          } catch (err) {
            // The page as it was when the state was not reached: worth a look too.
            const failed = file.replace(/\.png$/, '-NOT-REACHED.png');
            await page.screenshot({ path: path.join(OUT, failed) }).catch(() => undefined);
            files.push(failed);
            process.exitCode = 1;
            process.stdout.write(`${failed}: ${(err as Error).message.split('\n')[0]}\n`);
          } finally {
            await context.close();
          }
        }
      }
    }
  }
  return files;
}

const server = await startServer();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const files = await shoot(browser, server);
  const cells = files.map(
    (f) => `<figure><img src="${f}" loading="lazy" alt=""><figcaption>${f}</figcaption></figure>`,
  );
  fs.writeFileSync(
    path.join(OUT, 'index.html'),
    `<!doctype html><meta charset="utf-8"><title>Payframe: every state of the payment page</title>` +
      `<style>body{font:14px system-ui;margin:1rem}figure{display:inline-block;margin:.5rem;vertical-align:top}img{max-width:420px;border:1px solid #ccc}</style>` +
      `<h1>Every state of the payment page</h1>${cells.join('\n')}\n`,
  );
  process.stdout.write(`${files.length} screenshots in ${OUT} (index.html)\n`);
} finally {
  await browser.close();
  await server.stop();
}
