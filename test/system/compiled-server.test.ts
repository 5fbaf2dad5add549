/**
 * The compiled server is self-contained: what `npm run build` writes (scripts/build-server.ts), with
 * only what `npm ci --omit=dev` installs, starts and serves. Built here into a temporary copy of the
 * production layout — package.json, bin/, dist/ and a node_modules holding only the packages the
 * lockfile does not mark dev (links into this checkout's node_modules, resolved with
 * --preserve-symlinks so a dev package cannot be reached through them) — no TypeScript, no tsx.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../kit/net.ts';
import { tempDir } from '../kit/databases.ts';
import { DEMO_SERVER_ENV, TEST_SERVER_ENV } from '../kit/server-env.ts';
import { BUNDLE, buildServer, ROOT } from '../../scripts/build-server.ts';
import { isBuiltin, packageName, productionPackages, scanImports } from '../../scripts/compiled-imports.ts';

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const widgetBuilt = fs.existsSync(path.join(ROOT, 'dist', 'widget', 'index.html'));
/** The hosted page's server rendering, loaded by path (server/checkout/page-renderer.ts). */
const RENDERER = path.join(ROOT, 'dist', 'widget-ssr', 'render-page.js');
const rendererBuilt = fs.existsSync(RENDERER);

/** The production layout: this checkout's package files and the build, without development packages. */
function productionCopy(app: string): void {
  for (const f of ['package.json', 'package-lock.json'])
    fs.copyFileSync(path.join(ROOT, f), path.join(app, f));
  fs.cpSync(path.join(ROOT, 'bin'), path.join(app, 'bin'), { recursive: true });
  if (widgetBuilt) fs.symlinkSync(path.join(ROOT, 'dist', 'widget'), path.join(app, 'dist', 'widget'));
  if (rendererBuilt)
    fs.cpSync(path.dirname(RENDERER), path.join(app, 'dist', 'widget-ssr'), { recursive: true });
  for (const name of productionPackages(path.join(ROOT, 'package-lock.json'))) {
    const real = path.join(ROOT, 'node_modules', name);
    if (!fs.existsSync(real)) continue; // an optional package for another platform
    fs.mkdirSync(path.dirname(path.join(app, 'node_modules', name)), { recursive: true });
    fs.symlinkSync(real, path.join(app, 'node_modules', name), 'dir');
  }
}

describe('the compiled server', () => {
  let app: string;
  let bundle: string;

  beforeAll(async () => {
    app = tempDir('compiled-');
    ({ bundle } = await buildServer(path.join(app, 'dist', 'server')));
    productionCopy(app);
  }, 60_000);

  it('imports only Node built-ins and packages of `dependencies`', () => {
    // The page renderer is the one import by path; the scan follows it into that build's graph.
    const scan = scanImports(bundle, { rendererModuleUrl: RENDERER });
    if (!rendererBuilt) {
      expect(scan.unresolved).toEqual(['payframe.js: computed import(rendererModuleUrl…)']);
      scan.unresolved.length = 0;
    }
    expect(scan.unresolved).toEqual([]);
    const names = [...scan.packages.keys()];
    // The scan sees the graph: the server's own packages are in it, and the renderer's.
    expect(names).toEqual(expect.arrayContaining(['fastify', '@electric-sql/pglite', 'pg', 'zod', 'pino']));
    if (rendererBuilt) expect(names).toEqual(expect.arrayContaining(['preact', 'preact-render-to-string']));
    const outside = names.filter((n) => !(n in pkg.dependencies));
    expect(outside, 'imported by dist/server but not in package.json dependencies').toEqual([]);
    expect(Object.keys(pkg.dependencies)).not.toContain('tsx');
    expect(Object.keys(pkg.devDependencies)).toContain('tsx');
  });

  it('the scan catches a development package and a computed import', () => {
    const dir = tempDir('scan-');
    fs.writeFileSync(path.join(dir, 'a.js'), `import './b.js';\nimport fs from 'node:fs';\n`);
    fs.writeFileSync(
      path.join(dir, 'b.js'),
      `export { register } from 'tsx/esm/api';\nawait import(name);\n`,
    );
    const scan = scanImports(path.join(dir, 'a.js'));
    expect([...scan.packages.keys()]).toEqual(['tsx']);
    expect(scan.unresolved).toEqual(['b.js: computed import(name…)']);
    expect(packageName('@fastify/static/x')).toBe('@fastify/static');
    expect(isBuiltin('fs/promises')).toBe(true);
  });

  it('has a source map that names the TypeScript files', () => {
    expect(fs.readFileSync(bundle, 'utf8')).toMatch(/\/\/# sourceMappingURL=payframe\.js\.map\s*$/);
    const map = JSON.parse(fs.readFileSync(`${bundle}.map`, 'utf8')) as { sources: string[] };
    expect(map.sources.map((s) => path.relative(ROOT, path.resolve(path.dirname(bundle), s)))).toContain(
      'server/cli/main.ts',
    );
  });

  describe('with only the production packages', () => {
    let server: ChildProcess;
    let base: string;
    let demo: string;
    let dataDir: string;
    let stdout = '';
    let stderr = '';
    const run = promisify(execFile);
    const env = () => ({
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      ...TEST_SERVER_ENV,
    });

    beforeAll(async () => {
      expect(fs.existsSync(path.join(app, 'node_modules', 'tsx'))).toBe(false);
      expect(fs.existsSync(path.join(app, 'node_modules', 'fastify'))).toBe(true);
      dataDir = tempDir('compiled-data-');
      const [port, demoPort] = [await freePort(), await freePort()];
      base = `http://127.0.0.1:${port}`;
      demo = `http://127.0.0.1:${demoPort}`;
      // As package.json's start script runs it, in the production copy.
      server = spawn(
        process.execPath,
        ['--preserve-symlinks', '--enable-source-maps', `dist/server/${BUNDLE}`, 'serve'],
        {
          cwd: app,
          env: {
            ...env(),
            HOST: '127.0.0.1',
            PORT: String(port),
            DEMO_PORT: String(demoPort),
            LOG_LEVEL: 'info',
            // Production starts no demo by itself: asked for, as a staging box might.
            ...DEMO_SERVER_ENV,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      server.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
      server.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      const deadline = Date.now() + 150_000;
      for (;;) {
        if (server.exitCode !== null) throw new Error(`the compiled server exited: ${stderr}`);
        const ok = await fetch(`${demo}/static/demo.css`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) break;
        if (Date.now() > deadline) throw new Error(`the compiled server did not start: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }, 180_000);

    afterAll(async () => {
      if (!server || server.exitCode !== null) return;
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }, 30_000);

    it('answers /readyz after running the migrations it carries', async () => {
      const r = await fetch(`${base}/readyz`);
      expect(r.status).toBe(200);
      expect(fs.existsSync(path.join(dataDir, 'demo-merchant.json'))).toBe(true);
      const wsdl = await fetch(`${base}/TransactionService.asmx?WSDL`);
      expect(wsdl.status).toBe(200);
      expect(await wsdl.text()).toContain('ProcessTransaction');
    });

    it('writes JSON lines only to standard output, and no credential of the demo (production)', async () => {
      // Until the last start line (the demo store starts after Payframe listens) has been written.
      await expect.poll(() => stdout, { timeout: 10_000 }).toContain('Payframe is listening');
      const lines = stdout.split('\n').filter((l) => l !== '');
      for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
      const demo = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-merchant.json'), 'utf8')) as {
        merchantId: string;
        transactionKey: string;
        dashboardPassword: string;
      };
      expect(stdout).toContain(demo.merchantId);
      for (const secret of [demo.transactionKey, demo.dashboardPassword]) {
        expect(stdout).not.toContain(secret);
        expect(stderr).not.toContain(secret);
      }
    });

    it('serves the demo store files it carries', async () => {
      const css = await fetch(`${demo}/static/demo.css`);
      expect(css.status).toBe(200);
      expect(css.headers.get('content-type')).toMatch(/text\/css/);
    });

    it.skipIf(!widgetBuilt)('serves the widget build (dist/widget)', async () => {
      expect((await fetch(`${base}/checkout.js`)).status).toBe(200);
      expect((await fetch(`${base}/`)).status).toBe(200);
    });

    it.skipIf(!widgetBuilt || !rendererBuilt)(
      'renders the hosted page on the server (dist/widget-ssr)',
      async () => {
        const page = await fetch(`${base}/pay/cs_${'A'.repeat(43)}`);
        expect(page.status).toBe(200);
        expect(await page.text()).toMatch(/<main id="app" data-rendered>/);
      },
    );

    it('takes the compiled `payframe` command’s merchant update over DATA_DIR/cli.sock while it runs', async () => {
      expect(fs.lstatSync(path.join(dataDir, 'cli.sock')).mode & 0o777).toBe(0o600);
      const { merchantId } = JSON.parse(
        fs.readFileSync(path.join(dataDir, 'demo-merchant.json'), 'utf8'),
      ) as {
        merchantId: string;
      };
      const payframe = (...args: string[]) =>
        run(process.execPath, ['--preserve-symlinks', 'bin/payframe.js', ...args], { cwd: app, env: env() });
      const updated = await payframe(
        'merchant',
        'update',
        '--merchant',
        merchantId,
        '--origin',
        'https://shop.example',
        '--json',
      );
      expect(JSON.parse(updated.stdout)).toMatchObject({ merchantId, origins: ['https://shop.example'] });
      const listed = JSON.parse((await payframe('merchant', 'list', '--json')).stdout) as {
        merchants: { merchantId: string; origins: string[] }[];
      };
      expect(listed.merchants).toEqual([
        expect.objectContaining({ merchantId, origins: ['https://shop.example'] }),
      ]);
    }, 60_000);

    // Last: it stops the server, whose data directory the command then opens.
    it('runs the `payframe` command compiled when tsx is not installed', async () => {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
      const payframe = (...args: string[]) =>
        run(process.execPath, ['--preserve-symlinks', 'bin/payframe.js', ...args], { cwd: app, env: env() });
      expect((await payframe('help')).stdout).toContain('Usage: payframe <command>');
      const { stdout } = await payframe('migrate', '--json');
      expect(JSON.parse(stdout)).toMatchObject({ status: 'up to date' });
      const failed = await payframe('nonsense', '--json').catch((err: { code: number }) => err);
      expect('code' in failed && failed.code).toBe(2);
    }, 60_000);
  });
});
