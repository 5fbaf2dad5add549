/**
 * Browser tests: the real server, in Debian's Chromium (Playwright's own browser download is not
 * available on these machines; scripts/system-deps.js installs chromium when it is missing).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PORT = Number(process.env.E2E_PORT ?? 3100);
/** The demo store `payframe serve` starts beside Payframe: the merchant origin of the embed tests. */
export const DEMO_PORT = Number(process.env.E2E_DEMO_PORT ?? 3101);
// Made once by the runner; the test workers load this file too and find it in their environment
// (e2e/helpers/checkout.ts reads the demo merchant's credentials from it). Only its maker removes it.
const madeHere = !process.env.PAYFRAME_E2E_DATA_DIR;
export const DATA_DIR = (process.env.PAYFRAME_E2E_DATA_DIR ??= fs.mkdtempSync(
  path.join(os.tmpdir(), 'payframe-e2e-'),
));
const dataDir = DATA_DIR;
if (madeHere) process.once('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));

export default defineConfig({
  testDir: './e2e',
  testMatch: /\.spec\.ts$/,
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  // A pay waits on the server's work (several transactions, the simulated processor); on a shared
  // two-core machine that sometimes takes more than Playwright's default 5 s to show.
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    browserName: 'chromium',
    launchOptions: {
      executablePath: CHROMIUM,
      // The machine has no network beyond loopback: keep Chromium from trying to reach out.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    // What production runs: the compiled server (`npm run build`, which `npm test` runs first).
    command: 'npm start',
    // The demo store starts after Payframe listens: once it answers, both do.
    url: `http://127.0.0.1:${DEMO_PORT}/static/demo.css`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      DEMO_PORT: String(DEMO_PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      // Every test pays from 127.0.0.1: a fast run makes more than a shopper's 30 pays a minute.
      CHECKOUT_PAYS_PER_MINUTE_PER_IP: '1000',
    },
  },
});
