import { describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../config.ts';
import { openPostgresSchema, tempDir } from '../testing/databases.ts';
import { listMigrations, migrate } from './migrate.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';

describe('migrations', () => {
  it('are numbered, named and in order', () => {
    const ms = listMigrations();
    expect(ms.length).toBeGreaterThan(0);
    expect(ms.map((m) => m.version)).toEqual([...ms.map((m) => m.version)].sort());
    expect(new Set(ms.map((m) => m.version)).size).toBe(ms.length);
  });

  it('survive a reopen of the PGlite directory without re-applying', { timeout: 90_000 }, async () => {
    const dir = tempDir();
    const first = await openPglite(dir);
    expect(await migrate(first)).toEqual(listMigrations().map((m) => m.version));
    await first.close();
    const second = await openPglite(dir);
    expect(await migrate(second)).toEqual([]);
    await second.close();
  });

  const url = testDatabaseUrl();
  it.skipIf(!url)('are safe when two instances start at once on PostgreSQL', async () => {
    // Two pools on one fresh schema stand in for two instances starting together.
    const base = await openPostgresSchema(url!, { migrate: false });
    const a = await openPostgres({ url: url!, poolSize: 2, schema: base.schema });
    const b = await openPostgres({ url: url!, poolSize: 2, schema: base.schema });
    try {
      const [ra, rb] = await Promise.all([migrate(a), migrate(b)]);
      const all = listMigrations().map((m) => m.version);
      // One instance applied everything, the other found it done.
      expect([ra, rb].sort((x, y) => x.length - y.length)).toEqual([[], all]);
      const { rows } = await a.query('select version from schema_migrations');
      expect(rows).toHaveLength(all.length);
    } finally {
      await a.close();
      await b.close();
      await base.close();
    }
  });
});
