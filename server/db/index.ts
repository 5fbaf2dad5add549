import path from 'node:path';
import type { Config } from '../config.ts';
import type { Database } from './database.ts';
import { migrate } from './migrate.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';
import { describePostgresUrl } from './postgres-hosts.ts';

export type { Database, Queryable, QueryResult } from './database.ts';
export { DatabaseUnavailableError, isUnavailableError } from './database.ts';

/**
 * Opens the configured database (PostgreSQL when DATABASE_URL is set, else PGlite) and migrates it;
 * `onMigrated` hears the versions this opening applied (none when it was up to date).
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'databasePoolSize'>,
  onMigrated?: (applied: string[]) => void,
): Promise<Database> {
  const db = config.databaseUrl
    ? await openPostgres({ url: config.databaseUrl, poolSize: config.databasePoolSize })
    : await openPglite(config.dataDir);
  try {
    const applied = await migrate(db);
    onMigrated?.(applied);
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}

export function describeDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): string {
  if (!config.databaseUrl) return `PGlite in ${path.join(config.dataDir, 'pglite')}`;
  return `PostgreSQL at ${describePostgresUrl(config.databaseUrl)}`;
}
