/**
 * What `payframe serve` starts and prints, by environment: development (the default) starts the
 * demo and prints a banner for people, ending with the addresses to open — Payframe, the demo
 * store and the outbox where the demo's one-time codes and e-mails arrive; test starts no demo
 * unless PAYFRAME_DEMO=1 asks for it, and says how to create a merchant. (Production, JSON lines
 * only: test/system/production-install.test.ts and compiled-server.test.ts.)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../kit/databases.ts';
import { PAYFRAME_BIN } from '../../kit/cli/run-payframe.ts';
import { freePort } from '../../kit/net.ts';
import { TEST_SERVER_ENV } from '../../kit/server-env.ts';

let child: ChildProcess | undefined;

/** `payframe serve` (the source, through tsx); resolves with its standard output once `until` is in it. */
async function serve(env: Record<string, string>, until: RegExp) {
  const [port, demoPort] = [await freePort(), await freePort()];
  const dataDir = tempDir('payframe-serve-');
  child = spawn(process.execPath, [PAYFRAME_BIN, 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      ...TEST_SERVER_ENV,
      HOST: '127.0.0.1',
      PORT: String(port),
      DEMO_PORT: String(demoPort),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not print ${until}:\n${out}`)), 60_000);
    child!.once('exit', (code) => reject(new Error(`serve exited (${code}):\n${out}`)));
    const check = () => {
      if (!until.test(out)) return;
      clearTimeout(timer);
      resolve();
    };
    child!.stdout!.on('data', check);
  });
  return { out: () => out, base: `http://127.0.0.1:${port}`, demoPort, dataDir };
}

afterEach(async () => {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child!.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
});

describe('payframe serve, by environment', { timeout: 90_000 }, () => {
  it('development (the default): the demo, and a banner that ends with Payframe, the demo store and the outbox', async () => {
    // NODE_ENV empty counts as unset: development.
    const s = await serve({ NODE_ENV: '' }, /Outbox:.*\n/);
    const demo = JSON.parse(fs.readFileSync(path.join(s.dataDir, 'demo-merchant.json'), 'utf8')) as {
      merchantId: string;
      transactionKey: string;
    };
    const lines = s.out().trimEnd().split('\n');
    expect(lines).toContain(
      `Demo merchant created: id ${demo.merchantId}, TransactionKey ${demo.transactionKey}`,
    );
    expect(lines.slice(-3)).toEqual([
      `Payframe:   ${s.base}`,
      `Demo store: http://localhost:${s.demoPort}`,
      `Outbox:     ${s.base}/dev/outbox  (one-time codes and e-mails: saved cards, sign-in)`,
    ]);
    expect((await fetch(`${s.base}/dev/outbox`)).status).toBe(200);
    // The demo store's pages say where the codes are.
    const store = await fetch(`http://127.0.0.1:${s.demoPort}/`);
    expect(await store.text()).toContain(`${s.base}/dev/outbox`);
  });

  it('test: no demo merchant and no demo store, and the banner says how to create a merchant', async () => {
    const s = await serve({ NODE_ENV: 'test' }, /payframe merchant create.*\n/);
    expect(s.out()).toContain('No merchant yet: create one with');
    expect(s.out()).not.toContain('Demo');
    expect(fs.existsSync(path.join(s.dataDir, 'demo-merchant.json'))).toBe(false);
    const store = await fetch(`http://127.0.0.1:${s.demoPort}/`).then(
      () => 'answered',
      () => 'refused',
    );
    expect(store).toBe('refused');
  });

  it('test with PAYFRAME_DEMO=1: the demo', async () => {
    const s = await serve({ NODE_ENV: 'test', PAYFRAME_DEMO: '1' }, /Outbox:.*\n/);
    expect(fs.existsSync(path.join(s.dataDir, 'demo-merchant.json'))).toBe(true);
    expect(s.out()).not.toContain('No merchant yet');
  });
});
