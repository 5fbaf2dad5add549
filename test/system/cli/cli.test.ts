import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openPglite } from '../../../server/db/pglite.ts';
import { tempDir } from '../../kit/databases.ts';
import { runPayframe } from '../../kit/cli/run-payframe.ts';

// The split wiring's variables, unset whatever the environment running the tests holds.
const UNSET_SPLIT = { GATEWAY_SERVICE_KEY: '', TRANSACTION_SERVICE_URL: '', CHECKOUT_SECRET: '' };

const payframe = (args: string[], env: Record<string, string> = {}) => runPayframe(args, env);

// Each test starts the command (TypeScript through tsx, PGlite's WASM) once or more: 10–15 s each on
// a quiet two-core machine, so the default 30 s is not enough when other suites run beside it.
describe('payframe command', { timeout: 90_000 }, () => {
  it('prints help', async () => {
    const r = await payframe(['help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: payframe <command>');
    expect(r.stdout).toContain('serve');
  });

  it('rejects an unknown command with exit code 2 and a JSON error under --json', async () => {
    const r = await payframe(['frobnicate', '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({
      error: { code: 'unknown_command', message: expect.stringContaining("unknown command 'frobnicate'") },
    });
  });

  it('migrates a new data directory and says so in JSON', async () => {
    const r = await payframe(['migrate', '--json'], { DATA_DIR: tempDir() });
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as { applied: { version: string; name: string }[]; version: string };
    expect(json).toMatchObject({ status: 'up to date', database: expect.stringContaining('PGlite') });
    expect(json.applied[0]).toEqual({ version: '0001', name: expect.any(String) });
    expect(json.version).toBe(json.applied.at(-1)!.version);
  });

  it('names each migration it applies and the version it leaves, and says when there was none', async () => {
    const dir = tempDir();
    const first = await payframe(['migrate'], { DATA_DIR: dir });
    expect(first.code).toBe(0);
    const names = fs
      .readdirSync(new URL('../../../server/db/migrations/', import.meta.url))
      .filter((f) => f.endsWith('.sql'))
      .map((f) => f.slice(0, -4))
      .sort();
    const newest = names.at(-1)!.slice(0, 4);
    expect(first.stdout).toContain(`Applied ${names.length} migrations to PGlite`);
    for (const name of names) expect(first.stdout).toContain(`  ${name}\n`);
    expect(first.stdout).toContain(`Database version: ${newest}.`);
    const again = await payframe(['migrate'], { DATA_DIR: dir });
    expect(again.stdout).toContain('No migration to apply');
    expect(again.stdout).toContain(`Database version: ${newest}.`);
  });

  it('reads .env from its working directory, under the environment; PAYFRAME_ENV_FILE names another or none', async () => {
    const cwd = tempDir();
    fs.writeFileSync(
      `${cwd}/.env`,
      '# the gateway, and a checkout secret too short\nTRANSACTION_SERVICE_URL=http://gateway.from-file:3000\nCHECKOUT_SECRET=too-short\n',
    );
    fs.writeFileSync(`${cwd}/other.env`, 'TRANSACTION_SERVICE_URL="ftp://other.from-file"\n');
    // A checkout without its variables refuses before it opens anything: what it names is what it read.
    const serve = async (env: Record<string, string>) => {
      const r = await runPayframe(['serve', '--role', 'checkout', '--json'], env, {
        cwd,
        baseEnv: { PATH: process.env.PATH ?? '' },
      });
      expect(r.code).toBe(1);
      return (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error;
    };
    // The test kit turns env files off (PAYFRAME_ENV_FILE=none); empty is unset: the default .env.
    const fromFile = await serve({ PAYFRAME_ENV_FILE: '' });
    expect(fromFile.code).toBe('invalid_config');
    expect(fromFile.message).toContain('CHECKOUT_SECRET: must be 32 bytes');
    // The environment wins over the file's line; the file's other lines still count.
    const both = await serve({ PAYFRAME_ENV_FILE: '', CHECKOUT_SECRET: 'ab'.repeat(32) });
    expect(both.message).toContain('GATEWAY_SERVICE_KEY: required');
    expect(both.message).not.toContain('CHECKOUT_SECRET');
    expect(both.message).not.toContain('TRANSACTION_SERVICE_URL');
    const none = await serve({ PAYFRAME_ENV_FILE: 'none' });
    expect(none.message).toContain('TRANSACTION_SERVICE_URL: required');
    const other = await serve({ PAYFRAME_ENV_FILE: 'other.env' });
    expect(other.message).toContain('TRANSACTION_SERVICE_URL: must be an http:// or https:// URL');
    const missing = await serve({ PAYFRAME_ENV_FILE: 'missing.env' });
    expect(missing).toMatchObject({
      code: 'invalid_config',
      message: expect.stringContaining(`${cwd}/missing.env`),
    });
  });

  it('explains a bad configuration', async () => {
    const r = await payframe(['serve', '--json'], { PORT: 'eighty' });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error.code).toBe('invalid_config');
    expect(r.stderr).toContain('PORT');
  });

  it('refuses a data directory another process holds', async () => {
    const dir = tempDir();
    const holder = await openPglite(dir); // this test process holds the lock
    try {
      const r = await payframe(['migrate', '--json'], { DATA_DIR: dir });
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'data_dir_locked' });
    } finally {
      await holder.close();
    }
  });

  it('validates serve --role, and names what a role is missing before opening anything', async () => {
    const help = await payframe(['help']);
    expect(help.stdout).toContain('serve [--role all|gateway|checkout]');
    const bad = await payframe(['serve', '--role', 'both', '--json']);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout).error).toEqual({
      code: 'invalid_arguments',
      message: "--role must be one of all, gateway, checkout (got 'both').",
    });
    const dir = tempDir();
    const checkout = await payframe(['serve', '--role', 'checkout', '--json'], {
      DATA_DIR: dir,
      ...UNSET_SPLIT,
    });
    expect(checkout.code).toBe(1);
    const { error } = JSON.parse(checkout.stdout);
    expect(error.code).toBe('invalid_config');
    for (const name of ['TRANSACTION_SERVICE_URL', 'GATEWAY_SERVICE_KEY', 'CHECKOUT_SECRET']) {
      expect(error.message).toContain(name);
    }
    // Refused before the database was opened: the data directory is still empty.
    expect(fs.readdirSync(dir)).toEqual([]);
    const gateway = await payframe(['serve', '--role', 'gateway', '--json'], {
      DATA_DIR: dir,
      ...UNSET_SPLIT,
    });
    expect(JSON.parse(gateway.stdout).error.message).toContain(
      'GATEWAY_SERVICE_KEY: required with --role gateway',
    );
  });

  it('rejects unknown options', async () => {
    const r = await payframe(['migrate', '--bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bogus');
  });

  it('creates a merchant and a checkout session for it, as JSON', { timeout: 120_000 }, async () => {
    const env = { DATA_DIR: tempDir(), PUBLIC_URL: 'https://pay.example' };
    const m = await payframe(
      ['merchant', 'create', '--name', 'Tea Shop', '--origin', 'https://tea.example', '--3ds', '--json'],
      env,
    );
    expect(m.code).toBe(0);
    const merchant = JSON.parse(m.stdout);
    expect(merchant).toMatchObject({
      name: 'Tea Shop',
      origins: ['https://tea.example'],
      threeDsEnrolled: true,
    });
    expect(merchant.merchantId).toMatch(/^\d+$/);
    expect(merchant.transactionKey).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const s = await payframe(
      [
        'session',
        'create',
        '--merchant',
        merchant.merchantId,
        '--amount',
        '10.50',
        '--return-url',
        'https://tea.example/done',
        '--json',
      ],
      env,
    );
    expect(s.code).toBe(0);
    const session = JSON.parse(s.stdout);
    expect(session.url).toBe(`https://pay.example/pay/${session.token}`);
    expect(session.token).toMatch(/^cs_/);

    const bad = await payframe(
      [
        'session',
        'create',
        '--merchant',
        merchant.merchantId,
        '--amount',
        '10.50',
        '--return-url',
        'https://evil.example/',
        '--json',
      ],
      env,
    );
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).error).toMatchObject({
      code: 'validation_failed',
      message: expect.stringContaining('returnUrl'),
    });
  });

  it('explains a missing option of merchant create', async () => {
    const r = await payframe(['merchant', 'create', '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.message).toContain('--name is required');
  });
});
