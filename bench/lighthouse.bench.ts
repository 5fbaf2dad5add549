/**
 * Lighthouse on the hosted payment page (bench/README.md records the result): the compiled server
 * as `npm start` runs it, a checkout session made through the merchant API as a merchant makes one,
 * and Lighthouse 12.2.3 (pinned: 13 needs Node 22) driving Debian's Chromium, mobile (its default
 * preset: a mid-range phone, slow 4G, simulated throttling) and desktop, 5 runs each; the median run
 * of each is recorded (by performance score, as Lighthouse's own guidance picks a run).
 *
 *   npm run build && node --import tsx bench/lighthouse.bench.ts              measure, print, record
 *   npm run build && node --import tsx bench/lighthouse.bench.ts --no-record  measure and print only
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { freePort } from '../test/kit/net.ts';
import { markdownTable, recordSection } from './lib/readme.ts';
import { DEMO_SERVER_ENV } from '../test/kit/server-env.ts';

const DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(DIR, '..');
const README = path.join(DIR, 'README.md');
const SECTION = '## Hosted page: Lighthouse';
const RUNS = 5;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const record = !process.argv.includes('--no-record');

interface Run {
  performance: number;
  accessibility: number;
  bestPractices: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
}

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

const median = <T>(runs: T[], key: (r: T) => number): T =>
  [...runs].sort((a, b) => key(a) - key(b))[runs.length >> 1]!;

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(ROOT, 'dist/widget-ssr/render-page.js'))) {
    throw new Error('Build first: npm run build');
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payframe-lighthouse-'));
  const [port, demoPort] = [await freePort(), await freePort()];
  const base = `http://127.0.0.1:${port}`;
  // What `npm start` runs: the compiled server.
  const server = spawn(process.execPath, ['--enable-source-maps', 'dist/server/payframe.js', 'serve'], {
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
      // Its session is the demo merchant's (demo-merchant.json).
      ...DEMO_SERVER_ENV,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const results: Record<'mobile' | 'desktop', Run[]> = { mobile: [], desktop: [] };
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
          amount: '49.99',
          currency: 'USD',
          orderNumber: `LH-${n}`,
          lineItems: [
            { name: 'Merino wool sweater', quantity: 1, unitAmount: '39.99' },
            { name: 'Wool socks', quantity: 2, unitAmount: '5.00' },
          ],
          shopper: { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' },
          returnUrl: `http://localhost:${demoPort}/return`,
        }),
      });
      if (res.status !== 201) throw new Error(`create session: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { url: string }).url.replace(/^https?:\/\/[^/]+/, base);
    };
    let n = 0;
    let retried = 0;
    for (const form of ['mobile', 'desktop'] as const) {
      // One run first, not counted: the server's first requests (its caches) and Chromium's.
      for (let i = -1; i < RUNS; i += 1) {
        const url = await newSession(n++);
        const flags = {
          port: chrome.port,
          output: 'json' as const,
          logLevel: 'error' as const,
          onlyCategories: ['performance', 'accessibility', 'best-practices'],
        };
        const result = await lighthouse(url, flags, form === 'desktop' ? desktopConfig : undefined);
        if (!result || i < 0) continue;
        // A run Lighthouse itself could not complete measured nothing: said, and run again.
        const error = result.lhr.runtimeError;
        if (error) {
          process.stdout.write(
            `${form}: Lighthouse could not complete a run (${error.code}: ${error.message}); again\n`,
          );
          retried += 1;
          if (retried > RUNS) throw new Error('Lighthouse failed too often: nothing recorded');
          i -= 1;
          continue;
        }
        const { categories, audits } = result.lhr;
        const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
        const value = (id: string) => audits[id]?.numericValue ?? Number.NaN;
        const run: Run = {
          performance: score('performance'),
          accessibility: score('accessibility'),
          bestPractices: score('best-practices'),
          fcp: value('first-contentful-paint'),
          lcp: value('largest-contentful-paint'),
          tbt: value('total-blocking-time'),
          cls: value('cumulative-layout-shift'),
        };
        results[form].push(run);
        process.stdout.write(`${form} ${i + 1}/${RUNS}: ${JSON.stringify(run)}\n`);
        const failed = Object.values(audits).filter(
          (a) =>
            a.score !== null &&
            a.score < 1 &&
            ['accessibility', 'best-practices'].some((c) =>
              categories[c]?.auditRefs.some((r) => r.id === a.id && r.weight > 0),
            ),
        );
        for (const a of failed) process.stdout.write(`  not passed: ${a.id} (${a.title})\n`);
      }
    }
  } finally {
    await chrome.kill();
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const rows = (['mobile', 'desktop'] as const).map((form) => {
    const runs = results[form];
    const m = median(runs, (r) => r.performance);
    const fcps = runs.map((r) => r.fcp).sort((a, b) => a - b);
    return [
      form,
      String(m.performance),
      String(m.accessibility),
      String(m.bestPractices),
      `${(fcps[fcps.length >> 1]! / 1000).toFixed(2)} s`,
      `${(m.lcp / 1000).toFixed(2)} s`,
      `${Math.round(m.tbt)} ms`,
      m.cls.toFixed(3),
      `${runs.map((r) => r.performance).join(', ')}`,
    ];
  });
  const table = markdownTable(
    [
      'preset',
      'performance',
      'accessibility',
      'best practices',
      'FCP (median)',
      'LCP',
      'TBT',
      'CLS',
      'performance, each run',
    ],
    [false, true, true, true, true, true, true, true, false],
    rows,
  );
  process.stdout.write(`${table}\n`);
  if (record) {
    recordSection(
      README,
      SECTION,
      [
        SECTION,
        '',
        `Measured ${new Date().toISOString().slice(0, 10)} on this 2-core machine with`,
        '`npm run build && node --import tsx bench/lighthouse.bench.ts`: the compiled server (`npm start`),',
        'a session with an e-mail and two line items, Lighthouse 12.2.3 on Debian Chromium (headless),',
        `its mobile preset (simulated slow 4G, 4× CPU) and desktop preset, ${RUNS} runs each after one`,
        'not counted; the median run by performance score, and the median first contentful paint.',
        '',
        table,
        '',
      ].join('\n'),
    );
  }
}

await main();
