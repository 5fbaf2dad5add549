import { describe, expect, it } from 'vitest';
import { assertRoleConfig, ConfigError, isRole, loadConfig, roleProblems } from './config.ts';

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
});
