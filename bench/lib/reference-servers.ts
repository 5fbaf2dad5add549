/**
 * The real Payframe server and its references for bench/server.bench.ts, each in a child process of
 * its own so its CPU time can be read from /proc apart from the load generator's:
 *
 *   startPayframeServe  `payframe serve` configured as `npm start` runs it (NODE_ENV=production,
 *                       default log level, its log to a file as a service manager would take it), on
 *                       a new DATA_DIR and, for PostgreSQL, a database URL; ready when /readyz
 *                       answers. Entry `bin`: `node bin/payframe.js serve` (the source as it is now);
 *                       `dist`: `node --enable-source-maps dist/server/payframe.js serve`, the compiled
 *                       server `npm start` runs after `npm run build`;
 *   startReference      a script of bench/servers/ (node-soap, bare node:http) that prints its port.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../test/kit/net.ts';
import { DEMO_SERVER_ENV } from '../../test/kit/server-env.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVERS = path.join(ROOT, 'bench', 'servers');
const children: ChildProcess[] = [];

export interface ChildServer {
  /** Base URL (scheme, host, port). */
  url: string;
  pid: number;
  stop(): Promise<void>;
}

const running = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;

// Last resort, if this process exits some other way: no server outlives the benchmark.
process.on('exit', () => {
  for (const c of children.filter(running)) c.kill('SIGKILL');
});

async function stopChild(child: ChildProcess, signal: 'SIGTERM' | 'stdin'): Promise<void> {
  if (!running(child)) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (signal === 'stdin') child.stdin?.end();
  else child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

export async function startPayframeServe(options: {
  dataDir: string;
  databaseUrl: string | null;
  /** Node's own options for the server (`--cpu-prof`, `--cpu-prof-dir=…`). */
  nodeArgs?: string[];
  entry?: 'bin' | 'dist';
  /** More of the server's environment (LOG_LEVEL, TRUST_PROXY, …), over the defaults above. */
  env?: Record<string, string>;
  /** The checkout whose server runs (default: this one). */
  root?: string;
}): Promise<ChildServer> {
  const root = options.root ?? ROOT;
  const entry =
    options.entry === 'dist'
      ? ['--enable-source-maps', path.join(root, 'dist', 'server', 'payframe.js')]
      : [path.join(root, 'bin', 'payframe.js')];
  if (!fs.existsSync(entry.at(-1)!)) throw new Error(`${entry.at(-1)} is missing (npm run build)`);
  const port = await freePort();
  const log = fs.openSync(path.join(options.dataDir, 'server.log'), 'a');
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...entry, 'serve'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DEMO_PORT: String(await freePort()),
      DATA_DIR: options.dataDir,
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      // The benchmarks call it as the demo merchant (DATA_DIR/demo-merchant.json).
      ...DEMO_SERVER_ENV,
      ...options.env,
    },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (!running(child)) {
      const tail = fs.readFileSync(path.join(options.dataDir, 'server.log'), 'utf8').slice(-4000);
      throw new Error(`payframe serve exited before it was ready:\n${tail}`);
    }
    try {
      const r = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
      if (r.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('payframe serve was not ready within 90 s');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, pid: child.pid!, stop: () => stopChild(child, 'SIGTERM') };
}

export function startReference(
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(SERVERS, script), ...args], {
    // stdin stays open: the server exits when it closes, so it cannot outlive this process.
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${script} did not start within 60 s`)), 60_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited (${code ?? signal}) before listening`));
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      const { port } = JSON.parse(out.slice(0, nl)) as { port: number };
      child.stdout?.removeAllListeners('data');
      child.stdout?.resume();
      resolve({ url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => stopChild(child, 'stdin') });
    });
  });
}
