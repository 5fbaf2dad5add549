/**
 * The databases storage tests run on (DESIGN.md §4): PGlite always, and PostgreSQL when
 * TEST_DATABASE_URL (or DATABASE_URL) names a server. Each PostgreSQL database opened here lives in
 * its own schema, dropped on close, so test files can run side by side on one server.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { testDatabaseUrl } from '../config.ts';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { openPglite } from '../db/pglite.ts';
import { openPostgres } from '../db/postgres.ts';

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

export function databaseTargets(): DatabaseTarget[] {
  const targets: DatabaseTarget[] = [
    {
      name: 'pglite',
      async open(options = {}) {
        const dir = tempDir();
        const db = await openPglite(dir);
        if (options.migrate !== false) await migrate(db);
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
