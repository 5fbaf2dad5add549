import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test/kit/databases.ts';
import { assertRoleConfig, ConfigError, isRole, loadConfig, loadEnvFile, roleProblems } from './config.ts';

describe('config', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      logLevel: 'info',
      databaseUrl: undefined,
      env: 'development',
    });
    expect(c.dataDir.endsWith('/data')).toBe(true);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).port).toBe(3000);
  });

  it('rejects bad values with a message naming each variable', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const message = (err as Error).message;
      expect(message).toContain('PORT');
      expect(message).toContain('DATABASE_URL');
      expect(message).toContain('LOG_LEVEL');
    }
  });

  it('reads the split wiring: the gateway URL, the checkout secret (hex or base64) and the checkout URL', () => {
    const hex = 'ab'.repeat(32);
    const c = loadConfig({
      TRANSACTION_SERVICE_URL: 'http://gateway.internal:3000/',
      CHECKOUT_SECRET: hex,
      CHECKOUT_PUBLIC_URL: 'https://pay.example.com/',
      PUBLIC_URL: 'https://gateway.example.com',
    });
    expect(c.transactionServiceUrl).toBe('http://gateway.internal:3000');
    expect(c.checkoutSecret).toEqual(Buffer.from(hex, 'hex'));
    expect(c.checkoutPublicUrl).toBe('https://pay.example.com');
    expect(c.publicUrl).toBe('https://gateway.example.com');
    const b64 = Buffer.alloc(32, 9).toString('base64');
    expect(loadConfig({ CHECKOUT_SECRET: b64 }).checkoutSecret).toEqual(Buffer.alloc(32, 9));
    // One process serves both: session URLs are on PUBLIC_URL.
    expect(loadConfig({ PUBLIC_URL: 'https://pay.example' }).checkoutPublicUrl).toBe('https://pay.example');
  });

  it('rejects a short checkout secret and a gateway URL that is not http(s), without echoing the secret', () => {
    try {
      loadConfig({ CHECKOUT_SECRET: 'too-short-secret', TRANSACTION_SERVICE_URL: 'ftp://gw.example' });
      expect.unreachable();
    } catch (err) {
      const message = (err as Error).message;
      expect(message).toContain('CHECKOUT_SECRET');
      expect(message).toContain('TRANSACTION_SERVICE_URL');
      expect(message).not.toContain('too-short-secret');
    }
  });

  it('names what each role is missing', () => {
    expect(isRole('checkout')).toBe(true);
    expect(isRole('both')).toBe(false);
    expect(roleProblems(loadConfig({}), 'all')).toEqual([]);
    expect(roleProblems(loadConfig({}), 'gateway')).toEqual([
      expect.stringMatching(/^GATEWAY_SERVICE_KEY: required with --role gateway/),
    ]);
    const checkout = roleProblems(loadConfig({}), 'checkout');
    expect(checkout.map((p) => p.split(':')[0])).toEqual([
      'TRANSACTION_SERVICE_URL',
      'GATEWAY_SERVICE_KEY',
      'CHECKOUT_SECRET',
    ]);
    expect(() => assertRoleConfig(loadConfig({}), 'checkout')).toThrow(ConfigError);
    const ready = loadConfig({
      TRANSACTION_SERVICE_URL: 'http://127.0.0.1:3000',
      GATEWAY_SERVICE_KEY: 'k'.repeat(24),
      CHECKOUT_SECRET: 'cd'.repeat(32),
    });
    expect(roleProblems(ready, 'checkout')).toEqual([]);
    expect(roleProblems(ready, 'gateway')).toEqual([]);
  });

  it("keeps the checkout's call limit below the stale time, or refuses the checkout role", () => {
    const split = {
      TRANSACTION_SERVICE_URL: 'http://127.0.0.1:3000',
      GATEWAY_SERVICE_KEY: 'k'.repeat(24),
      CHECKOUT_SECRET: 'cd'.repeat(32),
    };
    expect(loadConfig(split).transactionServiceTimeoutMs).toBe(15_000);
    expect(loadConfig({ ...split, STALE_PAYMENT_SECONDS: '10' }).transactionServiceTimeoutMs).toBe(5_000);
    expect(
      loadConfig({ ...split, TRANSACTION_SERVICE_TIMEOUT_SECONDS: '3' }).transactionServiceTimeoutMs,
    ).toBe(3_000);
    const tooLong = loadConfig({
      ...split,
      STALE_PAYMENT_SECONDS: '10',
      TRANSACTION_SERVICE_TIMEOUT_SECONDS: '10',
    });
    expect(roleProblems(tooLong, 'checkout')).toEqual([
      expect.stringMatching(/^TRANSACTION_SERVICE_TIMEOUT_SECONDS: must be less than STALE_PAYMENT_SECONDS/),
    ]);
    expect(roleProblems(tooLong, 'gateway')).toEqual([]);
  });

  it('starts the demo in development only, unless PAYFRAME_DEMO says otherwise', () => {
    expect(loadConfig({}).demo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).demo).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).demo).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', PAYFRAME_DEMO: '1' }).demo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test', PAYFRAME_DEMO: 'true' }).demo).toBe(true);
    expect(loadConfig({ PAYFRAME_DEMO: '0' }).demo).toBe(false);
    expect(() => loadConfig({ PAYFRAME_DEMO: 'yes' })).toThrow(/PAYFRAME_DEMO/);
  });
});

describe('loadEnvFile', () => {
  const folder = (files: Record<string, string>) => {
    const dir = tempDir();
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    return dir;
  };

  it("reads .env from the working directory under the environment's own variables", () => {
    const dir = folder({
      '.env': 'PORT=4000\nHOST=0.0.0.0\n# a comment\nSMTP_FROM="Shop <a@b.example>"\nEMPTY=\n',
    });
    const env: Record<string, string | undefined> = { PORT: '5000', HOST: '' };
    expect(loadEnvFile(env, dir)).toEqual({ kind: 'loaded', file: path.join(dir, '.env') });
    // Set in the environment, even to nothing: the environment's.
    expect(env).toEqual({ PORT: '5000', HOST: '', SMTP_FROM: 'Shop <a@b.example>', EMPTY: '' });
    expect(loadConfig(env)).toMatchObject({ port: 5000, host: '127.0.0.1', smtpFrom: 'Shop <a@b.example>' });
  });

  it('reads the file PAYFRAME_ENV_FILE names, none with none, and refuses a named file that is missing', () => {
    const dir = folder({ '.env': 'PORT=4000\n', 'prod.env': 'PORT=4100\n' });
    const named: Record<string, string | undefined> = { PAYFRAME_ENV_FILE: 'prod.env' };
    expect(loadEnvFile(named, dir)).toMatchObject({ kind: 'loaded' });
    expect(named['PORT']).toBe('4100');
    const off: Record<string, string | undefined> = { PAYFRAME_ENV_FILE: 'none' };
    expect(loadEnvFile(off, dir)).toEqual({ kind: 'off' });
    expect(off['PORT']).toBeUndefined();
    expect(() => loadEnvFile({ PAYFRAME_ENV_FILE: 'gone.env' }, dir)).toThrow(ConfigError);
    // No .env where none is named: nothing to read, and no error.
    expect(loadEnvFile({}, tempDir())).toMatchObject({ kind: 'absent' });
  });
});
