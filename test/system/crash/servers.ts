/**
 * Real Payframe servers for the crash tests and benchmarks: `node bin/payframe.js serve` in a child
 * process, ready once /readyz answers, stopped gracefully or killed with SIGKILL; the demo merchant
 * it created; the vault key instances on one database share.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../kit/net.ts';
import { DEMO_SERVER_ENV } from '../../kit/server-env.ts';

export { freePort };

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'payframe.js');

/**
 * Short enough that an attempt cut short by a kill is recovered within a test, long enough that no
 * live payment on this loaded machine is ever taken for a dead one (the gateway's claim: half).
 */
export const STALE_PAYMENT_SECONDS = 10;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Merchant {
  merchantId: string;
  transactionKey: string;
  /** On one of the merchant's registered origins. */
  returnUrl: string;
}

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Its stdout and stderr so far, for a failure's message. */
  output(): string;
  kill9(): Promise<void>;
  /** SIGTERM and wait (graceful shutdown); SIGKILL after 10 s. */
  stop(): Promise<void>;
}

/** Which Payframe to run: a checkout's root and the script there that runs the `payframe` command. */
export interface Build {
  root: string;
  /** From `root`: bin/payframe.js (this checkout's source), or a compiled dist/server/payframe.js. */
  entry: string;
}

/** The code being tested, as every other suite runs it. */
export const THIS_BUILD: Build = { root: ROOT, entry: BIN };

/**
 * Starts `payframe serve` (with `args`, e.g. a role) and resolves once /readyz answers 200; `build`
 * names another release's build (test/system/crash/previous-release.ts).
 */
export async function startPayframe(
  env: Record<string, string>,
  port?: number,
  args: readonly string[] = [],
  build: Build = THIS_BUILD,
): Promise<ServerProcess> {
  const p = port ?? (await freePort());
  const child = spawn(process.execPath, [path.resolve(build.root, build.entry), 'serve', ...args], {
    cwd: build.root,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(p),
      // Not the default 3001: the demo store beside each server must not take another test's port.
      DEMO_PORT: String(await freePort()),
      // Each simulated shopper has an address of its own (X-Forwarded-For), as behind a load
      // balancer, so the per-address rate limits apply per shopper rather than to all of them.
      TRUST_PROXY: 'true',
      STALE_PAYMENT_SECONDS: String(STALE_PAYMENT_SECONDS),
      // The suites pay as the demo merchant (readDemoMerchant).
      ...DEMO_SERVER_ENV,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (d: Buffer) => {
    out = (out + d.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const url = `http://127.0.0.1:${p}`;
  const server: ServerProcess = {
    url,
    port: p,
    child,
    output: () => out,
    async kill9() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    },
  };
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`payframe serve exited before it was ready:\n${out}`);
    }
    try {
      const r = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
      if (r.status === 200) return server;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  await server.kill9();
  throw new Error(`payframe serve was not ready within 45 s:\n${out}`);
}

export function readDemoMerchant(dataDir: string): Merchant {
  const m = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-merchant.json'), 'utf8')) as {
    merchantId: string;
    transactionKey: string;
    origins: string[];
  };
  return { merchantId: m.merchantId, transactionKey: m.transactionKey, returnUrl: `${m.origins[0]}/return` };
}

/** 32 random bytes as hex: the vault key every instance on one database shares. */
export function randomKey(): string {
  return crypto.randomBytes(32).toString('hex');
}
