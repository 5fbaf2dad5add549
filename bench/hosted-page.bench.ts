/**
 * Time to interactive of the hosted payment page (bench/README.md records the result): a real
 * Payframe server, Debian's Chromium driven by Playwright, each load in a fresh browser context
 * (empty cache), from navigation to the moment the shopper can use the form — the card number
 * field focusable and the "Pay …" button enabled, i.e. the session loaded and the app rendered.
 *
 * Two profiles: loopback as is, and a throttled phone (CPU 4× slower, 1.6 Mbit/s down, 750 kbit/s
 * up, 150 ms round trip: Lighthouse's "slow 4G" mobile numbers) through the Chrome DevTools
 * Protocol. First contentful paint is read from the page's own Performance API.
 *
 *   node --import tsx bench/hosted-page.bench.ts              measure, print, record in bench/README.md
 *   node --import tsx bench/hosted-page.bench.ts --no-record  measure and print only
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { freePort } from '../test/kit/net.ts';
import { recordSection } from './lib/readme.ts';
import { DEMO_SERVER_ENV } from '../test/kit/server-env.ts';

const DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(DIR, '..');
const README = path.join(DIR, 'README.md');
const SECTION = '## Hosted page: time to interactive';
const LOADS = 15;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const record = !process.argv.includes('--no-record');

interface Profile {
  name: string;
  cpu: number;
  network?: { latency: number; downloadThroughput: number; uploadThroughput: number };
}

const PROFILES: Profile[] = [
  { name: 'loopback, no throttling', cpu: 1 },
  {
    name: 'phone: CPU 4× slower, slow 4G (1.6 Mbit/s, 150 ms RTT)',
    cpu: 4,
    network: {
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    },
  },
];

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i += 1) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function measure(page: Page, url: string): Promise<{ tti: number; fcp: number }> {
  const started = Date.now();
  await page.goto(url, { waitUntil: 'commit' });
  await page.getByRole('button', { name: /^Pay / }).and(page.locator(':enabled')).waitFor();
  await page.getByLabel('Card number').waitFor();
  const tti = Date.now() - started;
  const fcp = await page.evaluate(
    () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
  );
  return { tti, fcp };
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(ROOT, 'dist/widget/pay.html'))) {
    throw new Error('Build the pages first: npm run build');
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payframe-tti-'));
  const port = await freePort();
  const demoPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['bin/payframe.js', 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_PORT: String(demoPort),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      // Its sessions are the demo merchant's (demo-merchant.json).
      ...DEMO_SERVER_ENV,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const lines: string[] = [];
  try {
    await waitFor(`${base}/healthz`, server);
    const demo = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-merchant.json'), 'utf8')) as {
      merchantId: string;
      transactionKey: string;
    };
    const auth = `Basic ${Buffer.from(`${demo.merchantId}:${demo.transactionKey}`).toString('base64')}`;
    const newSession = async (n: number): Promise<string> => {
      const res = await fetch(`${base}/v1/checkout-sessions`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          amount: '25.00',
          currency: 'USD',
          orderNumber: `TTI-${n}`,
          shopper: { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' },
          returnUrl: `http://localhost:${demoPort}/return`,
        }),
      });
      if (res.status !== 201) throw new Error(`create session: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { url: string }).url.replace(/^https?:\/\/[^/]+/, base);
    };

    lines.push(`| Profile | TTI p50 | TTI p90 | FCP p50 | loads |`, `| --- | --- | --- | --- | --- |`);
    for (const profile of PROFILES) {
      const tti: number[] = [];
      const fcp: number[] = [];
      // One warm-up load so the server's first-request costs do not count.
      for (let i = -1; i < LOADS; i += 1) {
        const url = await newSession(i + 1000 * PROFILES.indexOf(profile));
        const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpu });
        if (profile.network) {
          await cdp.send('Network.enable');
          await cdp.send('Network.emulateNetworkConditions', { offline: false, ...profile.network });
        }
        const m = await measure(page, url);
        await context.close();
        if (i >= 0) {
          tti.push(m.tti);
          fcp.push(m.fcp);
        }
      }
      tti.sort((a, b) => a - b);
      fcp.sort((a, b) => a - b);
      const line = `| ${profile.name} | ${quantile(tti, 0.5)} ms | ${quantile(tti, 0.9)} ms | ${Math.round(quantile(fcp, 0.5))} ms | ${LOADS} |`;
      lines.push(line);
      process.stdout.write(`${line}\n`);
    }
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  if (record) {
    const body = [
      SECTION,
      '',
      `Measured ${new Date().toISOString().slice(0, 10)} on this 2-core machine with`,
      '`npm run build && node --import tsx bench/hosted-page.bench.ts` (Debian Chromium, one fresh',
      'context per load so nothing is cached, 390×844 viewport). TTI = navigation start until the',
      'card number field is there and the "Pay …" button is enabled (session loaded, app rendered);',
      "FCP = the page's own first-contentful-paint entry.",
      '',
      ...lines,
      '',
    ].join('\n');
    recordSection(README, SECTION, body);
  }
}

await main();
