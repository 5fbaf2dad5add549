/**
 * A Payframe server of a spec's own (the compiled one, as `npm start` runs it), for specs that need
 * merchants set up their way or a clock they move (e2e/helpers/shift-clock.mjs). Its data directory
 * starts as a copy of the migrated one e2e/helpers/global-setup.ts makes once per run, so a start
 * neither runs initdb nor the migrations. `payframe` commands run while it runs: the command finds
 * DATA_DIR in use and hands itself to the server over DATA_DIR/cli.sock (README, "The `payframe`
 * command"), which skips opening the database once per command.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from '@playwright/test';
import { COMPILED_SERVER } from './compiled-server.ts';
import { DEMO_SERVER_ENV } from '../../test/kit/server-env.ts';

const run = promisify(execFile);

/** The environment variable global-setup.ts names its migrated data directory in. */
export const TEMPLATE_DATA_DIR = 'PAYFRAME_E2E_TEMPLATE_DATA_DIR';

/** A new data directory: a copy of the run's migrated template when there is one, else empty. */
export function freshDataDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const template = process.env[TEMPLATE_DATA_DIR];
  if (template && fs.existsSync(template)) fs.cpSync(template, dir, { recursive: true });
  return dir;
}

export interface PayframeServer {
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** Its demo store, `http://127.0.0.1:<port + 1>`: a second origin. */
  store: string;
  dataDir: string;
  /** `payframe <args> --json` against this server (handed to it), its JSON answer. */
  payframe(args: readonly string[], input?: string): Promise<Record<string, unknown>>;
  /** Moves its clock two hours ahead (only with `shiftClock`). */
  shiftClock(): void;
  stop(): Promise<void>;
}

export async function startPayframeServer(options: {
  port: number;
  prefix: string;
  /** Preload shift-clock.mjs, so that shiftClock() works. */
  shiftClock?: boolean;
}): Promise<PayframeServer> {
  const { port } = options;
  const dataDir = freshDataDir(options.prefix);
  const base = `http://127.0.0.1:${port}`;
  const store = `http://127.0.0.1:${port + 1}`;
  const env = {
    ...process.env,
    PORT: String(port),
    DEMO_PORT: String(port + 1),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    // The specs pay as the demo merchant and sign in as its user (demo-merchant.json).
    ...DEMO_SERVER_ENV,
  };
  const preload = options.shiftClock ? ['--import', './e2e/helpers/shift-clock.mjs'] : [];
  const child: ChildProcess = spawn(process.execPath, [...preload, ...COMPILED_SERVER, 'serve'], {
    env,
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // The demo store starts after Payframe listens, and the command channel opens after the store.
  await expect
    .poll(
      () =>
        fetch(`${store}/static/demo.css`).then(
          (r) => r.ok,
          () => false,
        ),
      { timeout: 60_000, intervals: [50, 100, 250] },
    )
    .toBe(true);
  await expect
    .poll(() => fs.existsSync(path.join(dataDir, 'cli.sock')), { timeout: 10_000, intervals: [50] })
    .toBe(true);
  return {
    base,
    store,
    dataDir,
    async payframe(args, input) {
      const command = run(process.execPath, [...COMPILED_SERVER, ...args, '--json'], { env });
      if (input !== undefined) command.child.stdin?.end(input);
      const { stdout } = await command;
      return JSON.parse(stdout) as Record<string, unknown>;
    },
    shiftClock() {
      if (!options.shiftClock) throw new Error('started without shiftClock');
      child.kill('SIGUSR2');
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
