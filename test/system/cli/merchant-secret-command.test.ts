/**
 * `payframe merchant secret set|list|remove` through the real command (a child process with its
 * environment), on PGlite and, with TEST_DATABASE_URL, on PostgreSQL: the checkout's spec-mode
 * merchants (server/checkout/spec-merchants.ts).
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specMerchantSecret, specSecretBox } from '../../../server/checkout/spec-merchants.ts';
import { testDatabaseUrl } from '../../../server/config.ts';
import type { Database } from '../../../server/db/database.ts';
import { migrate } from '../../../server/db/migrate.ts';
import { openPglite } from '../../../server/db/pglite.ts';
import { openPostgresSchema, tempDir } from '../../kit/databases.ts';
import { runPayframe } from '../../kit/cli/run-payframe.ts';

const CHECKOUT_SECRET = crypto.randomBytes(32).toString('hex');
const box = specSecretBox(Buffer.from(CHECKOUT_SECRET, 'hex'));

/** A database the CLI can open through its environment, and a way for the test to look inside. */
interface CliDatabase {
  env: Record<string, string>;
  /** Runs `fn` on the database while the CLI is not running (PGlite admits one process). */
  use<T>(fn: (db: Database) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

async function pgliteDatabase(): Promise<CliDatabase> {
  const dir = tempDir('payframe-cli-');
  const use = async <T>(fn: (db: Database) => Promise<T>) => {
    const db = await openPglite(dir);
    try {
      await migrate(db);
      return await fn(db);
    } finally {
      await db.close();
    }
  };
  return { env: { DATA_DIR: dir }, use, close: async () => {} };
}

async function postgresDatabase(url: string): Promise<CliDatabase> {
  const db = await openPostgresSchema(url);
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${db.schema}`);
  return {
    env: { DATABASE_URL: u.href, DATA_DIR: tempDir('payframe-cli-') },
    use: (fn) => fn(db),
    close: () => db.close(),
  };
}

const url = testDatabaseUrl();
const targets: [string, () => Promise<CliDatabase>][] = [['pglite', pgliteDatabase]];
if (url) targets.push(['postgres', () => postgresDatabase(url)]);

/** The stored row's every column as text: where a plaintext secret would show if it were kept. */
async function storedRow(db: Database, merchantId: string): Promise<string> {
  const { rows } = await db.query('select * from checkout_spec_merchants where merchant_id = $1', [
    merchantId,
  ]);
  expect(rows).toHaveLength(1);
  return JSON.stringify(rows[0]);
}

describe.each(targets)('payframe merchant secret on %s', (_name, open) => {
  let cli: CliDatabase;
  let env: Record<string, string>;
  const payframe = (args: string[], stdin = '', extra: Record<string, string> = {}) =>
    runPayframe(['merchant', 'secret', ...args], { ...env, ...extra }, { stdin });

  beforeAll(async () => {
    cli = await open();
    env = { ...cli.env, CHECKOUT_SECRET };
  });
  afterAll(() => cli.close());

  // Each run starts tsx and opens the database: allow for a busy machine.
  it('generates a secret, prints it once, and stores it encrypted', { timeout: 120_000 }, async () => {
    const set = await payframe([
      'set', '--merchant', '100001', '--name', 'Spec Shop',
      '--origin', 'https://shop.example', '--origin', 'http://localhost:4000', '--json',
    ]); // prettier-ignore
    expect(set.stderr).toBe('');
    expect(set.code).toBe(0);
    const answer = JSON.parse(set.stdout);
    expect(answer).toEqual({
      merchantId: '100001',
      name: 'Spec Shop',
      origins: ['https://shop.example', 'http://localhost:4000'],
      replaced: false,
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const secret: string = answer.secret;
    expect(set.stdout.split(secret)).toHaveLength(2); // once

    await cli.use(async (db) => {
      expect(await storedRow(db, '100001')).not.toContain(secret);
      expect(await specMerchantSecret(db, box, '100001')).toBe(secret);
    });

    // In text, the same: the secret once, and what to do with it.
    const text = await payframe(['set', '--merchant', '100002', '--name', 'Text Shop']);
    expect(text.code).toBe(0);
    const [, shown] = /Redirect secret: ([0-9a-f]{64})/.exec(text.stdout) ?? [];
    expect(shown).toBeDefined();
    expect(text.stdout.split(shown!)).toHaveLength(2);
    expect(text.stdout).toMatch(/Shown once\. Give it to the merchant/);
    await cli.use(async (db) => expect(await specMerchantSecret(db, box, '100002')).toBe(shown));
  });

  it(
    'takes the secret from standard input, replaces the entry, and lists without secrets',
    { timeout: 120_000 },
    async () => {
      const mine = 'the merchant TransactionKey 0123456789';
      const set = await payframe(
        ['set', '--merchant', '100001', '--name', 'Spec Shop Renamed', '--secret-stdin', '--json'],
        `  ${mine}\n`,
      );
      expect(set.stderr).toBe('');
      expect(set.code).toBe(0);
      expect(JSON.parse(set.stdout)).toEqual({
        merchantId: '100001',
        name: 'Spec Shop Renamed',
        origins: [],
        replaced: true,
      });
      expect(set.stdout).not.toContain(mine);
      await cli.use(async (db) => {
        expect(await storedRow(db, '100001')).not.toContain(mine);
        expect(await specMerchantSecret(db, box, '100001')).toBe(mine); // trimmed
      });

      const taken = await payframe(['set', '--merchant', '100003', '--name', 'Spec Shop Renamed', '--json']);
      expect(taken.code).toBe(1);
      expect(JSON.parse(taken.stdout).error).toMatchObject({ code: 'name_taken' });
      expect(taken.stdout).not.toMatch(/[0-9a-f]{64}/); // a refused set prints no secret

      const listed = await payframe(['list', '--json']);
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual({
        merchants: [
          { merchantId: '100001', name: 'Spec Shop Renamed', origins: [] },
          { merchantId: '100002', name: 'Text Shop', origins: [] },
        ],
      });
      const listedText = await payframe(['list']);
      expect(listedText.stdout).toContain('100001  Spec Shop Renamed  origins: (none)');
      for (const out of [listed.stdout, listedText.stdout]) {
        expect(out).not.toContain(mine);
        expect(out).not.toMatch(/[0-9a-f]{64}|secret/i);
      }
    },
  );

  it('removes an entry, and says when there is none', { timeout: 120_000 }, async () => {
    const removed = await payframe(['remove', '--merchant', '100002', '--json']);
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout)).toEqual({ merchantId: '100002', removed: true });
    await cli.use(async (db) => expect(await specMerchantSecret(db, box, '100002')).toBeNull());

    const again = await payframe(['remove', '--merchant', '100002', '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout).error).toEqual({
      code: 'not_found',
      message: 'No spec-mode entry for merchant 100002.',
    });
  });

  it('refuses a bad origin naming it, and a set without CHECKOUT_SECRET', { timeout: 120_000 }, async () => {
    const bad = await payframe([
      'set', '--merchant', '100004', '--name', 'Bad Origin', '--origin', 'https://shop.example/pay', '--json',
    ]); // prettier-ignore
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).error).toMatchObject({
      code: 'validation_failed',
      message: expect.stringContaining('https://shop.example/pay is not an origin'),
    });
    expect(bad.stdout).not.toMatch(/[0-9a-f]{64}/);

    // Empty counts as unset (config.ts), whatever this process's environment holds.
    const noKey = await payframe(['set', '--merchant', '100004', '--name', 'No Key', '--json'], '', {
      CHECKOUT_SECRET: '',
    });
    expect(noKey.code).toBe(2);
    expect(JSON.parse(noKey.stdout).error).toMatchObject({
      code: 'invalid_arguments',
      message: expect.stringContaining('CHECKOUT_SECRET is not set'),
    });
    expect(noKey.stdout).not.toMatch(/[0-9a-f]{64}/);

    const usage = await payframe(['set', '--name', 'No Id', '--json']);
    expect(usage.code).toBe(2);
    await cli.use(async (db) => {
      const { rows } = await db.query("select 1 from checkout_spec_merchants where merchant_id = '100004'");
      expect(rows).toEqual([]);
    });
  });
});
