/**
 * `payframe merchant secret` while a checkout-only server (`serve --role checkout`, spec mode) runs
 * on the same PGlite data directory: the command is handed to it over DATA_DIR/cli.sock and runs
 * under the server's CHECKOUT_SECRET; the gateway's commands are refused there (checkout_only), and
 * the secret reaches the command's output but never the server's log.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specMerchantSecret, specSecretBox } from '../../../server/checkout/spec-merchants.ts';
import { freePort, type ServerProcess, startPayframe } from '../crash/servers.ts';
import { openPglite } from '../../../server/db/pglite.ts';
import { tempDir } from '../../kit/databases.ts';
import { runPayframe } from '../../kit/cli/run-payframe.ts';

const CHECKOUT_SECRET = crypto.randomBytes(32).toString('hex');

/** The command with only PATH and DATA_DIR from its environment: no CHECKOUT_SECRET of its own. */
const payframe = (args: string[], dataDir: string, stdin = '') =>
  runPayframe(args, { DATA_DIR: dataDir }, { stdin, baseEnv: { PATH: process.env.PATH ?? '' } });

describe('payframe merchant secret while a checkout-only server runs on PGlite', () => {
  let dataDir: string;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    dataDir = tempDir('handoff-checkout-');
    server = await startPayframe(
      {
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        CHECKOUT_SECRET,
        // Spec mode named, not detected: the server starts without asking the service anything.
        TRANSACTION_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
        TRANSACTION_SERVICE_MODE: 'spec',
        TRANSACTION_SERVICE_AUTH: 'none',
      },
      undefined,
      ['--role', 'checkout'],
    );
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  }, 30_000);

  it(
    'runs merchant secret there, refuses the gateway commands, logs no secret',
    { timeout: 180_000 },
    async () => {
      const socket = path.join(dataDir, 'cli.sock');
      expect(fs.lstatSync(socket).isSocket()).toBe(true);
      expect(fs.lstatSync(socket).mode & 0o777).toBe(0o600);

      const set = await payframe(
      ['merchant', 'secret', 'set', '--merchant', '100001', '--name', 'Spec Shop', '--origin', 'https://shop.example', '--json'],
      dataDir,
    ); // prettier-ignore
      expect(set.stderr).toBe('');
      expect(set.code).toBe(0);
      const { secret } = JSON.parse(set.stdout) as { secret: string };
      expect(secret).toMatch(/^[0-9a-f]{64}$/);

      const own = 'the merchant TransactionKey 0123456789';
      const fromStdin = await payframe(
      ['merchant', 'secret', 'set', '--merchant', '100002', '--name', 'Own Key Shop', '--secret-stdin', '--json'],
      dataDir,
      `${own}\n`,
    ); // prettier-ignore
      expect(fromStdin.code, fromStdin.stderr).toBe(0);

      const listed = await payframe(['merchant', 'secret', 'list', '--json'], dataDir);
      expect(JSON.parse(listed.stdout)).toEqual({
        merchants: [
          { merchantId: '100001', name: 'Spec Shop', origins: ['https://shop.example'] },
          { merchantId: '100002', name: 'Own Key Shop', origins: [] },
        ],
      });

      // The gateway's merchants are not this server's: refused, not run on the checkout's database.
      const gatewayCommand = await payframe(['merchant', 'list', '--json'], dataDir);
      expect(gatewayCommand.code).toBe(1);
      expect(JSON.parse(gatewayCommand.stdout).error.code).toBe('checkout_only');
      const userCommand = await payframe(
        ['user', 'create', '--merchant', '100001', '--username', 'x', '--password-stdin'],
        dataDir,
        'a password of some length\n',
      );
      expect(userCommand.code).toBe(1);
      expect(userCommand.stderr).toMatch(/runs only 'merchant secret'/);

      const removed = await payframe(
        ['merchant', 'secret', 'remove', '--merchant', '100002', '--json'],
        dataDir,
      );
      expect(removed.code).toBe(0);

      expect(server!.output()).toContain('merchant secret');
      expect(server!.output()).not.toContain(secret);
      expect(server!.output()).not.toContain(own);

      // Stopped, the database holds what the commands set, sealed under the server's CHECKOUT_SECRET.
      await server!.stop();
      server = undefined;
      const db = await openPglite(dataDir);
      try {
        const box = specSecretBox(Buffer.from(CHECKOUT_SECRET, 'hex'));
        expect(await specMerchantSecret(db, box, '100001')).toBe(secret);
        expect(await specMerchantSecret(db, box, '100002')).toBeNull();
      } finally {
        await db.close();
      }
    },
  );
});
