import { describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../config.ts';
import { openPostgresSchema, tempDir } from '../../test/kit/databases.ts';
import {
  type AppliedMigration,
  listMigrations,
  type Migration,
  migrate,
  MigrationHistoryError,
  newerMigrations,
  planMigrations,
} from './migrate.ts';
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

  it(
    'leave a database a newer release migrated as it is, and say so; refuse one with another history',
    {
      timeout: 90_000,
    },
    async () => {
      const all = listMigrations();
      const db = await openPglite(tempDir());
      try {
        await migrate(db);
        // The previous release (without the newest two) starts on it, as in a rolling upgrade.
        expect(await migrate(db, all.slice(0, -2))).toEqual([]);
        expect(await newerMigrations(db, all.slice(0, -2))).toEqual(
          all.slice(-2).map(({ version, name }) => ({ version, name })),
        );
        expect(await newerMigrations(db, all)).toEqual([]);
        // A build whose migration 0002 has another name, or that lacks one among its own.
        const renamed = all.map((m, i) => (i === 1 ? { ...m, name: 'other' } : m));
        await expect(migrate(db, renamed)).rejects.toThrow(MigrationHistoryError);
        await expect(
          migrate(
            db,
            all.filter((_, i) => i !== 2),
          ),
        ).rejects.toThrow(/does not have it/);
        const { rows } = await db.query('select version from schema_migrations');
        expect(rows).toHaveLength(all.length);
      } finally {
        await db.close();
      }
    },
  );
});

describe('planMigrations', () => {
  const m = (version: string, name = `m${version}`): Migration => ({ version, name, sql: '' });
  const a = (version: string, name = `m${version}`): AppliedMigration => ({ version, name });
  const known = [m('0001'), m('0002'), m('0004')];

  it('applies what is missing after the recorded ones', () => {
    expect(planMigrations(known, [])).toEqual({ pending: known, newer: [] });
    expect(planMigrations(known, [a('0001'), a('0002')])).toEqual({ pending: [m('0004')], newer: [] });
    expect(
      planMigrations(
        known,
        known.map((k) => a(k.version)),
      ),
    ).toEqual({ pending: [], newer: [] });
  });

  it('serves on with migrations recorded after its own newest (a newer release)', () => {
    const applied = [a('0001'), a('0002'), a('0004'), a('0006'), a('0005')];
    expect(planMigrations(known, applied)).toEqual({ pending: [], newer: [a('0005'), a('0006')] });
  });

  it('refuses a history that disagrees with its own list', () => {
    // Its own version under another name.
    expect(() => planMigrations(known, [a('0001'), a('0002', 'other')])).toThrow(/recorded as 'other'/);
    // An unknown version among its own.
    expect(() => planMigrations(known, [a('0001'), a('0003')])).toThrow(/does not have it/);
    // One of its own unapplied before a newer one: recorded by a build without it.
    expect(() => planMigrations(known, [a('0001'), a('0004')])).toThrow(/out of order/);
    expect(() => planMigrations(known, [a('0001'), a('0002'), a('0005')])).toThrow(/out of order/);
  });
});
