import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../../../server/config.ts';
import type { Database } from '../../../server/db/database.ts';
import { migrate } from '../../../server/db/migrate.ts';
import { openPglite } from '../../../server/db/pglite.ts';
import { verifyPassword } from '../../../server/gateway/users/password-hash.ts';
import { findUserByName } from '../../../server/gateway/users/user-store.ts';
import { openPostgresSchema, tempDir } from '../../kit/databases.ts';
import { runPayframe } from '../../kit/cli/run-payframe.ts';

const PASSWORD = 'operator chose 2030 this';

const payframe = (args: string[], env: Record<string, string>, stdin = '') =>
  runPayframe(args, env, { stdin });

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

describe.each(targets)('payframe user create on %s', (_name, open) => {
  let cli: CliDatabase;
  let merchantId: string;
  const args = (username: string) => ['user', 'create', '--merchant', merchantId, '--username', username];
  beforeAll(async () => {
    cli = await open();
    merchantId = await cli.use(async (db) => {
      const { rows } = await db.query<{ id: string }>(
        `insert into merchants (public_code, name, transaction_key_enc, reader_key_enc)
         values ('pm_cli', 'Cli Crafts', 'x', 'x') returning id`,
      );
      return rows[0]!.id;
    });
  });
  afterAll(() => cli.close());

  // Each run starts tsx and opens the database: allow for a busy machine.
  it('creates a merchant user with the password from standard input', { timeout: 90_000 }, async () => {
    const made = await payframe(
      [...args('Olga.Operator'), '--password-stdin', '--email', 'olga@cli.example', '--json'],
      cli.env,
      `${PASSWORD}\n`,
    );
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(JSON.parse(made.stdout)).toEqual({
      userId: expect.any(String),
      merchantId,
      username: 'Olga.Operator',
      email: 'olga@cli.example',
      role: 'owner',
    });
    expect(made.stdout).not.toContain(PASSWORD);

    const taken = await payframe([...args('olga.operator'), '--password-stdin', '--json'], cli.env, PASSWORD);
    expect(taken.code).toBe(1);
    expect(JSON.parse(taken.stdout).error).toMatchObject({
      code: 'validation_failed',
      message: expect.stringMatching(/taken/),
    });

    await cli.use(async (db) => {
      const user = await findUserByName(db, 'olga.operator');
      expect(user).toMatchObject({ merchantId, email: 'olga@cli.example', merchantName: 'Cli Crafts' });
      expect(await verifyPassword(PASSWORD, user!.passwordHash)).toBe(true);
      const { rows } = await db.query<{ actor: string }>(
        "select actor from audit_events where action = 'user.created'",
      );
      expect(rows).toEqual([{ actor: 'cli' }]);
    });
  });

  it('creates a user with a role, and refuses a role there is not', { timeout: 90_000 }, async () => {
    const made = await payframe(
      [...args('Vera.Viewer'), '--password-stdin', '--role', 'viewer', '--json'],
      cli.env,
      `${PASSWORD}\n`,
    );
    expect(made.code).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({ username: 'Vera.Viewer', role: 'viewer' });
    const unknown = await payframe(
      [...args('Max.Manager'), '--password-stdin', '--role', 'manager', '--json'],
      cli.env,
      PASSWORD,
    );
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stdout).error.message).toMatch(
      /--role must be one of owner, admin, staff, viewer/,
    );
    await cli.use(async (db) => {
      expect((await findUserByName(db, 'vera.viewer'))?.role).toBe('viewer');
      expect(await findUserByName(db, 'max.manager')).toBeNull();
    });
  });

  it('refuses a weak password, and a password not given on standard input', { timeout: 60_000 }, async () => {
    const weak = await payframe([...args('weak.user'), '--password-stdin'], cli.env, 'short1\n');
    expect(weak.code).toBe(1);
    expect(weak.stderr).toMatch(/at least 12 characters/);
    const noStdin = await payframe([...args('other.user'), '--json'], cli.env);
    expect(noStdin.code).toBe(2);
    expect(JSON.parse(noStdin.stdout).error.code).toBe('invalid_arguments');
    await cli.use(async (db) => expect(await findUserByName(db, 'weak.user')).toBeNull());
  });
});
