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
    expect(JSON.parse(r.stdout)).toMatchObject({
      status: 'up to date',
      database: expect.stringContaining('PGlite'),
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
