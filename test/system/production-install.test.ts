/**
 * The production install, done as README.md's "Production install" says, the way an operator does
 * it: the files that section lists (dist/ whole: the server, the pages and their server rendering;
 * package.json, package-lock.json, bin/) copied to an empty folder, `npm ci --omit=dev` there (from
 * npm's local cache, `--prefer-offline`: the machine may have no registry), then `npm start` —
 * npm's prestart included — with NODE_ENV=production. It answers /readyz, serves the hosted page
 * rendered on the server, starts no demo, says in its log how to create a first merchant, and
 * writes nothing but JSON lines to standard output (npm's own "> script" lines apart).
 *
 * Needs `npm run build` first (the system tier runs it).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../kit/databases.ts';
import { freePort } from '../kit/net.ts';
import { TEST_SERVER_ENV } from '../kit/server-env.ts';
import { ROOT } from '../../scripts/build-server.ts';

const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
/** README.md's production install: its two commands, and the files the second one runs beside. */
const SECTION = /\*\*Production install\.\*\*[\s\S]*?```sh\n([\s\S]*?)```/.exec(README)?.[1] ?? '';
const LISTED =
  /# where it runs: (.+)$/m
    .exec(SECTION)?.[1]
    ?.split(' + ')
    .map((f) => f.trim()) ?? [];

const run = promisify(execFile);

/** This process's environment without npm's own settings (a test run through npm has many). */
function operatorEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  return { ...env, ...extra };
}

describe('the production install, as README.md states it', () => {
  let app: string;
  let dataDir: string;
  let server: ChildProcess | undefined;
  let base: string;
  let demoPort: number;
  let stdout = '';
  let stderr = '';

  it('README.md lists the files and the commands this test runs', () => {
    expect(SECTION).toContain('npm ci && npm run build');
    expect(SECTION).toContain('npm ci --omit=dev && npm start');
    expect(LISTED).toEqual(['dist/', 'package.json', 'package-lock.json', 'bin/']);
    // What npm's prestart runs is among them.
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    for (const script of ['prestart', 'start']) {
      for (const file of pkg.scripts[script]!.split(' ').filter((w) => /\.m?js$/.test(w)))
        expect(
          LISTED.some((l) => file.startsWith(l)),
          `${script} runs ${file}`,
        ).toBe(true);
    }
  });

  beforeAll(async () => {
    for (const built of [
      'dist/server/payframe.js',
      'dist/widget/index.html',
      'dist/widget-ssr/render-page.js',
    ])
      if (!fs.existsSync(path.join(ROOT, built)))
        throw new Error(`${built} is missing: run npm run build first`);
    app = tempDir('payframe-install-');
    dataDir = tempDir('payframe-install-data-');
    for (const listed of LISTED) {
      const name = listed.replace(/\/$/, '');
      fs.cpSync(path.join(ROOT, name), path.join(app, name), { recursive: true });
    }
    await run('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: app,
      env: operatorEnv({}),
      timeout: 240_000,
    });
    const port = await freePort();
    demoPort = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = spawn('npm', ['start'], {
      cwd: app,
      // Its own process group: npm and the node it starts are stopped together.
      detached: true,
      env: operatorEnv({
        ...TEST_SERVER_ENV,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        DEMO_PORT: String(demoPort),
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        LOG_LEVEL: 'info',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    server.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (server.exitCode !== null)
        throw new Error(`npm start exited (${server.exitCode}):\n${stdout}${stderr}`);
      const ready = await fetch(`${base}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`npm start did not answer /readyz:\n${stdout}${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 420_000);

  afterAll(async () => {
    if (!server?.pid || server.exitCode !== null) return;
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    process.kill(-server.pid, 'SIGTERM');
    const timer = setTimeout(() => process.kill(-server!.pid!, 'SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
    server.stdout?.destroy();
    server.stderr?.destroy();
  }, 30_000);

  it('installs no development package', () => {
    expect(fs.existsSync(path.join(app, 'node_modules', 'fastify'))).toBe(true);
    for (const dev of ['tsx', 'vite', 'esbuild', 'typescript', 'vitest'])
      expect(fs.existsSync(path.join(app, 'node_modules', dev)), dev).toBe(false);
  });

  it('npm start answers /readyz, with its migrations applied', async () => {
    const r = await fetch(`${base}/readyz`);
    expect(r.status).toBe(200);
    const wsdl = await fetch(`${base}/TransactionService.asmx?WSDL`);
    expect(await wsdl.text()).toContain('ProcessTransaction');
  });

  it('serves the hosted page rendered on the server (dist/widget-ssr) and the loader (dist/widget)', async () => {
    const page = await fetch(`${base}/pay/cs_${'A'.repeat(43)}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<main id="app" data-rendered>/);
    expect((await fetch(`${base}/checkout.js`)).status).toBe(200);
  });

  it('starts no demo: no demo merchant, no demo store, no developer outbox', async () => {
    expect(fs.existsSync(path.join(dataDir, 'demo-merchant.json'))).toBe(false);
    const store = await fetch(`http://127.0.0.1:${demoPort}/`).then(
      () => 'answered',
      () => 'refused',
    );
    expect(store).toBe('refused');
    expect((await fetch(`${base}/dev/outbox`)).status).toBe(404);
  });

  it('writes JSON lines only to standard output, one of them saying how to create a merchant', () => {
    // npm's own lines: the blank ones and "> payframe@… start", "> node …".
    const lines = stdout.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('> '));
    expect(lines.length).toBeGreaterThan(2);
    const records = lines.map((l) => {
      try {
        return JSON.parse(l) as { level: number; msg: string; command?: string; url?: string };
      } catch {
        throw new Error(`not a JSON line on standard output: ${l}`);
      }
    });
    expect(records).toContainEqual(
      expect.objectContaining({
        msg: expect.stringContaining('no merchant yet'),
        command: expect.stringContaining('payframe merchant create'),
      }),
    );
    expect(records).toContainEqual(expect.objectContaining({ msg: 'Payframe is listening', url: base }));
    expect(stderr).toBe('');
  });
});
