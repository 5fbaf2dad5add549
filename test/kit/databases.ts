/**
 * The databases storage tests run on (DESIGN.md §4): PGlite always, and PostgreSQL when
 * TEST_DATABASE_URL (or DATABASE_URL) names a server. Each PostgreSQL database opened here lives in
 * its own schema, dropped on close, so test files can run side by side on one server.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { testDatabaseUrl } from '../../server/config.ts';
import type { Database } from '../../server/db/database.ts';
import { migrate } from '../../server/db/migrate.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { openPostgres } from '../../server/db/postgres.ts';

export interface DatabaseTarget {
  name: 'pglite' | 'postgres';
  /** Opens a fresh, migrated, empty database. */
  open(options?: { migrate?: boolean }): Promise<Database>;
}

/**
 * A fresh directory under the test run's own temporary directory (scripts/vitest-global-setup.ts
 * removes it when the run ends: test databases take ~40 MB each), or under the system's.
 */
export function tempDir(prefix = 'payframe-test-'): string {
  const base = process.env.PAYFRAME_TEST_TMP ?? os.tmpdir();
  return fs.mkdtempSync(path.join(base, prefix));
}

async function withAdmin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Runs one statement on the PostgreSQL server at `url` on a connection of its own. */
export async function adminQuery(url: string, sql: string): Promise<void> {
  await withAdmin(url, (c) => c.query(sql));
}

/** A new, empty PostgreSQL database on the server at `adminUrl`; `drop()` removes it. */
export async function freshDatabase(adminUrl: string, prefix: string) {
  const name = `${prefix}_${crypto.randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name}`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return {
    name,
    url: u.toString(),
    drop: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`),
  };
}

/** A fresh schema on the test PostgreSQL server; `close()` drops it. */
export async function openPostgresSchema(
  url: string,
  options: { migrate?: boolean } = {},
): Promise<Database & { schema: string }> {
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  await withAdmin(url, (c) => c.query(`create schema ${schema}`));
  const db = await openPostgres({ url, poolSize: 8, schema });
  if (options.migrate !== false) await migrate(db);
  return {
    ...db,
    schema,
    async close() {
      await db.close();
      await withAdmin(url, (c) => c.query(`drop schema if exists ${schema} cascade`));
    },
  };
}

/**
 * A PGlite data directory made once per test run and copied for each test database: creating one
 * (initdb inside the WASM module) takes seconds, copying a closed one a fraction of that, and the
 * copy is the same database. `migrated`: with every migration run, else as created. Under the run's
 * own temporary directory (scripts/vitest-global-setup.ts); null outside a vitest run. Made by
 * whichever test process first needs it, in a directory of its own renamed into place when whole,
 * so another process sees all of it or none.
 */
const templates = new Map<boolean, Promise<string | null>>();
function pgliteTemplate(migrated: boolean): Promise<string | null> {
  let made = templates.get(migrated);
  if (!made) {
    made = (async () => {
      const runDir = process.env.PAYFRAME_TEST_TMP;
      if (!runDir) return null;
      // Named by the migrations too: a watch-mode run that meets a new one makes a new template.
      const migrations = fileURLToPath(new URL('../../server/db/migrations/', import.meta.url));
      const hash = crypto.createHash('sha256');
      for (const name of fs.readdirSync(migrations).sort()) {
        hash.update(name).update(fs.readFileSync(path.join(migrations, name)));
      }
      const version = hash.digest('hex').slice(0, 12);
      const dir = path.join(runDir, `pglite-template-${migrated ? `migrated-${version}` : 'empty'}`);
      if (fs.existsSync(dir)) return dir;
      const building = fs.mkdtempSync(path.join(runDir, 'pglite-template-building-'));
      const db = await openPglite(building);
      if (migrated) await migrate(db);
      await db.close();
      try {
        fs.renameSync(building, dir);
      } catch (err) {
        // Another test process put its own in place first: the same database.
        fs.rmSync(building, { recursive: true, force: true });
        if (!fs.existsSync(dir)) throw err;
      }
      return dir;
    })();
    templates.set(migrated, made);
  }
  return made;
}

export function databaseTargets(): DatabaseTarget[] {
  const targets: DatabaseTarget[] = [
    {
      name: 'pglite',
      async open(options = {}) {
        const dir = tempDir();
        const template = await pgliteTemplate(options.migrate !== false);
        if (template) fs.cpSync(template, dir, { recursive: true });
        const db = await openPglite(dir);
        if (options.migrate !== false && !template) await migrate(db);
        return {
          ...db,
          async close() {
            await db.close();
            fs.rmSync(dir, { recursive: true, force: true });
          },
        };
      },
    },
  ];
  const url = testDatabaseUrl();
  if (url) targets.push({ name: 'postgres', open: (options) => openPostgresSchema(url, options) });
  return targets;
}
