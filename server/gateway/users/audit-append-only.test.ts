/**
 * The audit log is append-only (issue 16; PCI-10-5): no code under server/ updates, deletes or
 * truncates audit_events, and the database refuses to (migration 0030's triggers), on every
 * database target — so a mistake in a later change, or an operator's session, cannot rewrite it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { databaseTargets } from '../../../test/kit/databases.ts';
import { recordAudit } from './audit.ts';

const SERVER = join(import.meta.dirname, '../..');
/**
 * This file: it holds the refused statements on purpose, to send them to the database. And
 * migration 0030: its one backfill of the column it adds runs before it creates the triggers.
 */
const ALLOWED = [relative(SERVER, import.meta.filename), join('db', 'migrations', '0030_audit_log.sql')];
/** A statement that changes or removes audit rows, in any case and spacing. */
const CHANGES_AUDIT =
  /\b(?:update\s+(?:only\s+)?audit_events|delete\s+from\s+(?:only\s+)?audit_events|truncate\s+(?:table\s+)?(?:only\s+)?audit_events)\b/i;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('audit_events in the code', () => {
  it('the pattern finds the statements it is for, in any case and spacing', () => {
    for (const sql of [
      'UPDATE audit_events SET',
      'delete  from\naudit_events',
      'Truncate TABLE audit_events',
    ])
      expect(CHANGES_AUDIT.test(sql)).toBe(true);
    expect(CHANGES_AUDIT.test('insert into audit_events')).toBe(false);
  });

  it('is never updated, deleted from or truncated by anything under server/', () => {
    const files = filesUnder(SERVER).filter((f) => !ALLOWED.includes(relative(SERVER, f)));
    expect(files.length).toBeGreaterThan(100);
    const found = files.filter((f) => CHANGES_AUDIT.test(readFileSync(f, 'latin1')));
    expect(found.map((f) => relative(SERVER, f))).toEqual([]);
  });
});

describe.each(databaseTargets())('audit_events in the database ($name)', (target) => {
  let db: Database;
  beforeAll(async () => {
    db = await target.open();
    await recordAudit(db, { actor: 'cli', action: 'user.created', outcome: 'success', at: new Date() });
  });
  afterAll(() => db?.close());
  const count = async () =>
    Number((await db.query<{ n: string }>('select count(*) as n from audit_events')).rows[0]!.n);

  it('refuses an update, a delete and a truncate; the row stays as written', async () => {
    const before = await count();
    expect(before).toBeGreaterThan(0);
    await expect(db.query(`update audit_events set outcome = 'failure'`)).rejects.toThrow(/append-only/);
    await expect(db.query('delete from audit_events')).rejects.toThrow(/append-only/);
    await expect(db.query('truncate audit_events')).rejects.toThrow(/append-only/);
    expect(await count()).toBe(before);
    const { rows } = await db.query<{ outcome: string }>(
      `select outcome from audit_events where actor = 'cli'`,
    );
    expect(rows.map((r) => r.outcome)).toEqual(['success']);
  });

  it('still takes new rows', async () => {
    const before = await count();
    await recordAudit(db, { actor: 'anonymous', action: 'user.login', outcome: 'failure', at: new Date() });
    expect(await count()).toBe(before + 1);
  });
});
