import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { lastStorageRefusal, noteStorageRefusal } from '../db/storage-refusals.ts';
import { buildTestApp, type TestApp } from '../../test/kit/app.ts';
import { databaseTargets } from '../../test/kit/databases.ts';

for (const target of databaseTargets()) {
  describe(`health on ${target.name}`, () => {
    let db: Database;
    let t: TestApp;
    beforeAll(async () => {
      db = await target.open();
      t = await buildTestApp(db);
    });
    afterAll(async () => {
      await t.close();
      await db.close();
    });

    it('answers 200 with the database status', async () => {
      const res = await t.app.inject('/healthz');
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toMatchObject({ status: 'ok', database: { kind: target.name, status: 'ok' } });
    });

    it('answers 503 while shutting down, and /livez stays 200', async () => {
      t.health.shuttingDown = true;
      try {
        const res = await t.app.inject('/readyz');
        expect(res.statusCode).toBe(503);
        expect(res.json()).toMatchObject({ status: 'shutting_down' });
        expect((await t.app.inject('/livez')).statusCode).toBe(200);
      } finally {
        t.health.shuttingDown = false;
      }
    });

    it('sends the security headers and a catalogue error for unknown paths', async () => {
      const res = await t.app.inject('/no/such/page');
      expect(res.statusCode).toBe(404);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.json()).toMatchObject({ error: { code: 'not_found' } });
      expect(res.json().error.requestId).toBe(res.headers['x-request-id']);
    });
  });
}

describe('health when the database is down', () => {
  it('answers 503 with a retry hint', async () => {
    const db = await databaseTargets()[0]!.open();
    const t = await buildTestApp(db);
    await db.close();
    const res = await t.app.inject('/healthz');
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('2');
    expect(res.json()).toMatchObject({ status: 'unavailable', database: { status: 'unavailable' } });
    await t.app.close();
  });
});

describe('health after a write was refused (a full disk)', () => {
  it('says so until a write goes through again', async () => {
    const db = await databaseTargets()[0]!.open();
    const t = await buildTestApp(db);
    // The database answers reads; its writes fail as a full disk makes them fail.
    let diskFull = true;
    const query = db.query.bind(db);
    db.query = (async (sql: string, params?: readonly unknown[]) => {
      if (diskFull && /txid_current/.test(sql)) {
        throw Object.assign(new Error('could not extend file: No space left on device'), { code: '53100' });
      }
      return query(sql, params);
    }) as typeof db.query;
    try {
      noteStorageRefusal({ code: '53100' });
      const full = await t.app.inject('/readyz');
      expect(full.statusCode).toBe(503);
      expect(full.json().database).toMatchObject({
        status: 'disk_full',
        reason: "the database's disk is full",
      });
      diskFull = false;
      const back = await t.app.inject('/readyz');
      expect(back.statusCode).toBe(200);
      expect(lastStorageRefusal()).toBeNull();
    } finally {
      await t.close();
    }
  });
});
