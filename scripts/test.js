// The two test tiers, each one command with a timed summary whose last line counts the tests that
// passed, failed and were skipped. Every part runs even when an earlier one fails.
//
//   node scripts/test.js            `npm test`: typecheck, lint, unit and storage tests (PGlite always;
//                                   PostgreSQL too when TEST_DATABASE_URL is set), route and SOAP tests
//                                   through the app in process, and the browser tests of each flow's
//                                   main path (vitest.config.ts; Playwright without @system).
//   node scripts/test.js --system   `npm run test:system`: real processes and long runs — crash and
//                                   fault suites, the CLI against running servers, the compiled server,
//                                   nginx, third-party SOAP stacks (test/system/vitest.config.ts) and the
//                                   browser's language and viewport matrix (Playwright's @system tests).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureSystemDeps } from './system-deps.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payframe-test-report-'));
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

const system = process.argv.includes('--system');
const tier = system ? 'system' : 'test';

/**
 * Runs a command to its end. `quiet`: its output is held and written when it ends, so that the
 * checks run side by side (typecheck, lint) do not interleave theirs.
 */
function run(command, args, env = {}, { quiet = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...env },
    });
    const held = [];
    if (quiet) {
      child.stdout.on('data', (d) => held.push(d));
      child.stderr.on('data', (d) => held.push(d));
    }
    const done = (code) => {
      if (held.length)
        process.stdout.write(`--- ${path.basename(command)} ${args.join(' ')}\n${Buffer.concat(held)}`);
      resolve(code);
    };
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
    child.on('error', () => done(127));
  });
}

/** Runs the commands two at a time (the machine this is sized for has two cores); 0 when all pass. */
async function runAll(commands) {
  const queue = [...commands];
  let failed = 0;
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      failed ||= await run(next[0], next[1], {}, { quiet: true });
    }
  };
  await Promise.all([worker(), worker()]);
  return failed;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

// The names of the failed tests, or none when a report has another shape than expected (the counts
// still say how many).
function namesOr(names) {
  try {
    return names();
  } catch {
    return [];
  }
}

// The titles of the tests that failed or were flaky, from Playwright's JSON report (suites nest).
function playwrightFailures(report) {
  const out = [];
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === 'unexpected' || test.status === 'flaky') {
          out.push(
            `${suite.file ?? ''}:${spec.line} › ${[...titles, spec.title].join(' › ')} (${test.status})`,
          );
        }
      }
    }
    for (const child of suite.suites ?? [])
      walk({ ...child, file: child.file ?? suite.file }, [...titles, child.title].filter(Boolean));
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  return out;
}

const vitestReport = path.join(reportDir, 'vitest.json');
const playwrightReport = path.join(reportDir, 'playwright.json');
const dbUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;

const vitestStep = (name, config) => ({
  name,
  counts: () => {
    const r = readJson(vitestReport);
    return (
      r && {
        passed: r.numPassedTests,
        failed: r.numFailedTests,
        skipped: r.numPendingTests + r.numTodoTests,
        failures: namesOr(() =>
          (r.testResults ?? []).flatMap((file) => {
            const where = path.relative(root, file.name);
            const tests = (file.assertionResults ?? [])
              .filter((t) => t.status === 'failed')
              .map((t) => `${where} › ${t.fullName}`);
            // A file that failed to load (or in a hook) has no failed test of its own to name.
            return tests.length || file.status !== 'failed'
              ? tests
              : [`${where} › ${file.message || 'failed'}`];
          }),
        ),
      }
    );
  },
  run: () =>
    run(bin('vitest'), [
      'run',
      ...(config ? ['--config', config] : []),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${vitestReport}`,
    ]),
});

const playwrightStep = (name, grep) => ({
  name,
  counts: () => {
    const r = readJson(playwrightReport);
    return (
      r && {
        passed: r.stats.expected,
        failed: r.stats.unexpected + r.stats.flaky,
        skipped: r.stats.skipped,
        failures: namesOr(() => playwrightFailures(r)),
      }
    );
  },
  run: () => run(bin('playwright'), ['test', ...grep], { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport }),
});

const steps = [
  {
    name: 'system packages',
    run: async () => {
      ensureSystemDeps(tier);
      return 0;
    },
  },
  {
    // What `npm run build` does: the browser tests run the compiled server, as `npm start` does.
    name: 'build (vite: pages, their server rendering, loader; esbuild: server)',
    run: async () =>
      (await run(bin('vite'), ['build', '--logLevel', 'warn'])) ||
      (await run(bin('vite'), ['build', '--ssr', 'pay/render-page.tsx', '--logLevel', 'warn'])) ||
      (await run(bin('vite'), ['build', '-c', 'vite.loader.config.ts', '--logLevel', 'warn'])) ||
      run(process.execPath, ['--import', 'tsx', 'scripts/build-server.ts']),
  },
  ...(system
    ? [
        vitestStep('system (vitest: processes, crashes, third-party stacks)', 'test/system/vitest.config.ts'),
        playwrightStep('browser matrix (playwright @system, chromium)', ['--grep', '@system']),
      ]
    : [
        {
          // Side by side: each is one single-threaded process. Caches under node_modules/.cache make
          // a second run on the same clone faster (a fresh clone has none).
          name: 'typecheck and lint (tsc, eslint, prettier)',
          run: () =>
            runAll([
              ...['server', 'widget', 'e2e', 'shared'].map((p) => [
                bin('tsc'),
                ['-p', p, '--incremental', '--tsBuildInfoFile', `node_modules/.cache/tsc/${p}.tsbuildinfo`],
              ]),
              [bin('eslint'), ['.', '--cache', '--cache-location', 'node_modules/.cache/eslint/']],
              [bin('prettier'), ['--check', '.', '--cache', '--log-level', 'warn']],
            ]),
        },
        vitestStep(`unit + storage (vitest; ${dbUrl ? 'PGlite + PostgreSQL' : 'PGlite'})`),
        playwrightStep('browser main paths (playwright, chromium)', ['--grep-invert', '@system']),
      ]),
];

const results = [];
for (const step of steps) {
  process.stdout.write(`\n=== ${step.name} ===\n`);
  const started = Date.now();
  let code;
  try {
    code = await step.run();
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    code = 1;
  }
  results.push({ step, code, seconds: (Date.now() - started) / 1000 });
  if (step.name === 'system packages' && code !== 0) break; // nothing else can run
}

let passed = 0;
let failed = 0;
let skipped = 0;
// What failed, by name, just above the summary: CI keeps only the tail of the output.
const failures = results.flatMap(({ step }) => step.counts?.()?.failures ?? []);
if (failures.length) {
  process.stdout.write(`\n=== failed tests (${failures.length}) ===\n`);
  for (const name of failures.slice(0, 40)) process.stdout.write(`${name.slice(0, 300)}\n`);
  if (failures.length > 40) process.stdout.write(`… and ${failures.length - 40} more\n`);
}
process.stdout.write(`\n=== summary: ${system ? 'npm run test:system' : 'npm test'} ===\n`);
for (const { step, code, seconds } of results) {
  const c = step.counts?.();
  if (c) {
    passed += c.passed;
    failed += c.failed;
    skipped += c.skipped;
  } else if (step.counts && code !== 0) {
    failed += 1; // the runner failed before it could report
  } else if (!step.counts) {
    if (code === 0) passed += 1;
    else failed += 1;
  }
  const detail = c ? ` (${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped)` : '';
  process.stdout.write(
    `${code === 0 ? 'ok  ' : 'FAIL'} ${step.name.padEnd(48)} ${seconds.toFixed(1).padStart(6)} s${detail}\n`,
  );
}
process.stdout.write(
  `storage tests ran on: ${dbUrl ? `PGlite and PostgreSQL (${new URL(dbUrl).host})` : 'PGlite only (set TEST_DATABASE_URL to add PostgreSQL)'}\n`,
);
fs.rmSync(reportDir, { recursive: true, force: true });
const anyFailed = results.some((r) => r.code !== 0);
process.stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(anyFailed ? 1 : 0);
