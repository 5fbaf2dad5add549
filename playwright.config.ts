/**
 * Browser tests: the real server, in Debian's Chromium (Playwright's own browser download is not
 * available on these machines; scripts/system-deps.js installs chromium when it is missing). Two
 * workers, each with a server of its own (e2e/helpers/lanes.ts). `npm test` runs the tests not
 * tagged @system (each flow's main path), `npm run test:system` those tagged @system (languages,
 * viewports and colour schemes across a flow, long waits, spec mode's own processes).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { LANE, LANES, lanePorts } from './e2e/helpers/lanes.ts';
import { DEMO_SERVER_ENV, TEST_SERVER_ENV } from './test/kit/server-env.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Made once by the runner; the test workers load this file too and find it in their environment
// (e2e/helpers/lanes.ts reads each lane's data directory, and so the demo merchant's credentials,
// from it). Only its maker removes it.
const madeHere = !process.env.PAYFRAME_E2E_DATA_DIR;
const dataRoot = (process.env.PAYFRAME_E2E_DATA_DIR ??= fs.mkdtempSync(
  path.join(os.tmpdir(), 'payframe-e2e-'),
));
if (madeHere) process.once('exit', () => fs.rmSync(dataRoot, { recursive: true, force: true }));
// The servers the specs start (and the workers' commands) read no .env of the clone.
Object.assign(process.env, TEST_SERVER_ENV);

export default defineConfig({
  testDir: './e2e',
  testMatch: /\.spec\.ts$/,
  // A migrated data directory the specs' own servers start from (e2e/helpers/payframe-server.ts).
  globalSetup: './e2e/helpers/global-setup.ts',
  outputDir: './test-results',
  // A spec's tests run in order in one worker; specs are spread over the two.
  fullyParallel: false,
  workers: LANES,
  retries: 0,
  timeout: 30_000,
  // A pay waits on the server's work (several transactions, the simulated processor); on a shared
  // two-core machine that sometimes takes more than Playwright's default 5 s to show.
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${lanePorts(LANE).port}`,
    // Recording a trace of every test costs a seventh of the run; to look into a failure run it
    // again with `npx playwright test <file> --trace on`.
    trace: 'off',
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
  webServer: Array.from({ length: LANES }, (_, lane) => {
    const { port, demoPort } = lanePorts(lane);
    return {
      // What production runs: the compiled server (`npm run build`, which `npm test` runs first).
      command: 'npm start',
      // The demo store starts after Payframe listens: once it answers, both do.
      url: `http://127.0.0.1:${demoPort}/static/demo.css`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
      env: {
        PORT: String(port),
        DEMO_PORT: String(demoPort),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(dataRoot, `lane-${lane}`),
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        // Every test pays from 127.0.0.1: a fast run makes more than a shopper's 30 pays a minute.
        CHECKOUT_PAYS_PER_MINUTE_PER_IP: '1000',
        // The specs pay as the demo merchant, on the demo store, and sign in as its user.
        ...DEMO_SERVER_ENV,
      },
    };
  }),
});
