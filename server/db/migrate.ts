/**
 * Plain SQL migrations (DESIGN.md §4): `migrations/NNNN_name.sql`, applied in order at start, each
 * recorded in `schema_migrations`. Safe when several instances start at once: everything runs in one
 * transaction under a transaction-scoped advisory lock, so the second instance waits, then finds
 * the work done.
 */
import fs from 'node:fs';
import path from 'node:path';
import { runtimePath } from '../runtime-files.ts';
import type { Database } from './database.ts';

const MIGRATIONS_DIR = runtimePath('migrations');
/** An arbitrary constant naming Payframe's migration lock among the database's advisory locks. */
const MIGRATION_LOCK_KEY = 7_311_542_001;

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({
      version: f.slice(0, 4),
      name: f.slice(5, -4),
      sql: fs.readFileSync(path.join(dir, f), 'utf8'),
    }));
}

/** Applies the migrations not yet recorded; returns the versions it applied. */
export async function migrate(db: Database, migrations = listMigrations()): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.query(`create table if not exists schema_migrations (
      version text primary key,
      name text not null,
      applied_at timestamptz not null default now()
    )`);
    const done = new Set(
      (await tx.query<{ version: string }>('select version from schema_migrations')).rows.map(
        (r) => r.version,
      ),
    );
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await tx.exec(m.sql);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}
