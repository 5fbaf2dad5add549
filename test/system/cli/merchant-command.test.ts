/** `payframe merchant roll-key|disable|enable` through the real command, on a PGlite data directory. */
import { describe, expect, it } from 'vitest';
import { openPglite } from '../../../server/db/pglite.ts';
import { tempDir } from '../../kit/databases.ts';
import { runPayframe } from '../../kit/cli/run-payframe.ts';

const payframe = (args: string[], env: Record<string, string>) => runPayframe(args, env);

describe('payframe merchant roll-key, disable, enable', () => {
  it('replaces the key and sets and clears disabled_at', { timeout: 120_000 }, async () => {
    const env = { DATA_DIR: tempDir() };
    const created = JSON.parse(
      (await payframe(['merchant', 'create', '--name', 'Key Shop', '--json'], env)).stdout,
    );
    const rolled = await payframe(['merchant', 'roll-key', '--merchant', created.merchantId, '--json'], env);
    expect(rolled.code).toBe(0);
    const { transactionKey } = JSON.parse(rolled.stdout);
    expect(transactionKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(transactionKey).not.toBe(created.transactionKey);

    expect((await payframe(['merchant', 'disable', '--merchant', created.merchantId], env)).code).toBe(0);
    const disabledAt = async () => {
      const db = await openPglite(env.DATA_DIR);
      try {
        const { rows } = await db.query<{ d: Date | null }>(
          'select disabled_at as d from merchants where id = $1',
          [created.merchantId],
        );
        return rows[0]?.d ?? null;
      } finally {
        await db.close();
      }
    };
    expect(await disabledAt()).toBeInstanceOf(Date);
    expect((await payframe(['merchant', 'enable', '--merchant', created.merchantId], env)).code).toBe(0);
    expect(await disabledAt()).toBeNull();

    const missing = await payframe(['merchant', 'disable', '--merchant', '999999', '--json'], env);
    expect(missing.code).not.toBe(0);
    expect(JSON.parse(missing.stdout).error.code).toBe('not_found');
  });
});

describe('payframe merchant update', () => {
  it(
    'replaces the origins, sets and clears website and logo, refuses bad values',
    { timeout: 300_000 },
    async () => {
      const env = { DATA_DIR: tempDir() };
      const created = JSON.parse(
        (
          await payframe(
            ['merchant', 'create', '--name', 'Origin Shop', '--origin', 'https://old.example', '--json'],
            env,
          )
        ).stdout,
      );
      const updated = await payframe(
      [
        'merchant', 'update', '--merchant', created.merchantId,
        '--origin', 'https://shop.example', '--origin', 'http://localhost:4000',
        '--website', 'https://shop.example/', '--logo-url', 'https://shop.example/logo.png', '--json',
      ],
      env,
    ); // prettier-ignore
      expect(updated.code, updated.stdout + updated.stderr).toBe(0);
      expect(JSON.parse(updated.stdout)).toMatchObject({
        merchantId: created.merchantId,
        origins: ['https://shop.example', 'http://localhost:4000'],
        website: 'https://shop.example/',
        logoUrl: 'https://shop.example/logo.png',
      });

      // A value the store refuses changes nothing; an empty value clears; no option is a usage error.
      const bad = await payframe(
        ['merchant', 'update', '--merchant', created.merchantId, '--origin', 'ftp://x', '--json'],
        env,
      );
      expect(bad.code).toBe(1);
      expect(JSON.parse(bad.stdout).error.code).toBe('validation_failed');
      const cleared = await payframe(
        ['merchant', 'update', '--merchant', created.merchantId, '--website', '', '--json'],
        env,
      );
      expect(JSON.parse(cleared.stdout)).toMatchObject({
        origins: ['https://shop.example', 'http://localhost:4000'],
        website: null,
      });
      const nothing = await payframe(['merchant', 'update', '--merchant', created.merchantId, '--json'], env);
      expect(nothing.code).toBe(2);
      const missing = await payframe(
        ['merchant', 'update', '--merchant', '999999', '--website', '', '--json'],
        env,
      );
      expect(JSON.parse(missing.stdout).error.code).toBe('not_found');
    },
  );
});
