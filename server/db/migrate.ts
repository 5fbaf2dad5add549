/**
 * Plain SQL migrations (DESIGN.md §4): `migrations/NNNN_name.sql`, applied in order at start, each
 * recorded in `schema_migrations`. Safe when several instances start at once: everything runs in one
 * transaction under a transaction-scoped advisory lock, so the second instance waits, then finds
 * the work done.
 *
 * During a rolling upgrade (server/db/README.md) the previous release keeps running on a database
 * the new one has migrated, and may restart there: migrations recorded after this build's newest
 * are a newer release's, written to be harmless to this one (expand only), so it reports them and
 * serves. A history that disagrees with this build's own list — a version it knows recorded under
 * another name, an unknown version among its own, one of its own left unapplied before a newer
 * one — is not a newer release's: it refuses to start rather than guess.
 */
import fs from 'node:fs';
import path from 'node:path';
import { runtimePath } from '../runtime-files.ts';
import type { Database, Queryable } from './database.ts';

const MIGRATIONS_DIR = runtimePath('migrations');
/** An arbitrary constant naming Payframe's migration lock among the database's advisory locks. */
const MIGRATION_LOCK_KEY = 7_311_542_001;

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

/** A row of `schema_migrations`. */
export interface AppliedMigration {
  version: string;
  name: string;
}

export class MigrationHistoryError extends Error {
  override readonly name = 'MigrationHistoryError';
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

/**
 * What to do with a database whose recorded history is `applied`, for a build whose migrations are
 * `known` (in order): the ones to apply, and the recorded ones newer than all of `known`. Throws
 * MigrationHistoryError when the two histories disagree.
 */
export function planMigrations(
  known: readonly Migration[],
  applied: readonly AppliedMigration[],
): { pending: Migration[]; newer: AppliedMigration[] } {
  const byVersion = new Map(known.map((m) => [m.version, m]));
  const newest = known.at(-1)?.version ?? '';
  const newer: AppliedMigration[] = [];
  for (const a of [...applied].sort((x, y) => x.version.localeCompare(y.version))) {
    const mine = byVersion.get(a.version);
    if (mine && mine.name !== a.name) {
      throw new MigrationHistoryError(
        `migration ${a.version} is recorded as '${a.name}' but this build's is '${mine.name}': the database was migrated by a build with another history`,
      );
    }
    if (mine) continue;
    if (a.version < newest) {
      throw new MigrationHistoryError(
        `migration ${a.version}_${a.name} is recorded but this build, whose newest is ${newest}, does not have it: the database was migrated by a build with another history`,
      );
    }
    newer.push(a);
  }
  const done = new Set(applied.map((a) => a.version));
  const pending = known.filter((m) => !done.has(m.version));
  const newestApplied = applied.reduce((max, a) => (a.version > max ? a.version : max), '');
  const early = pending.find((m) => m.version < newestApplied);
  if (early) {
    throw new MigrationHistoryError(
      `this build's migration ${early.version}_${early.name} is not applied, yet ${newestApplied} is: applying it out of order is refused`,
    );
  }
  return { pending, newer };
}

/**
 * Applies the migrations not yet recorded; returns the versions it applied. A database ahead of this
 * build (a newer release migrated it) is left as it is: `newerMigrations` says what it holds.
 */
export async function migrate(db: Database, migrations = listMigrations()): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.query(`create table if not exists schema_migrations (
      version text primary key,
      name text not null,
      applied_at timestamptz not null default now()
    )`);
    const recorded = (await tx.query<AppliedMigration>('select version, name from schema_migrations')).rows;
    const applied: string[] = [];
    for (const m of planMigrations(migrations, recorded).pending) {
      await tx.exec(m.sql);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}

/** The migrations a migrated database holds that are newer than this build's (a newer release's). */
export async function newerMigrations(
  db: Queryable,
  migrations = listMigrations(),
): Promise<AppliedMigration[]> {
  const recorded = (await db.query<AppliedMigration>('select version, name from schema_migrations')).rows;
  return planMigrations(migrations, recorded).newer;
}
