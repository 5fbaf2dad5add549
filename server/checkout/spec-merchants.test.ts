/**
 * The spec-mode merchants' store (spec-merchants.ts): the redirect secret's encryption under
 * CHECKOUT_SECRET (sealed and opened, bound to the merchant id, unreadable under another key) and
 * the entries' rules, on each test database.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  listSpecMerchants,
  removeSpecMerchant,
  setSpecMerchant,
  specMerchantByName,
  specMerchantProblem,
  specMerchantSecret,
  specSecretBox,
} from './spec-merchants.ts';

const SECRET = 'a redirect secret of the merchant, 0123456789';

describe('specSecretBox', () => {
  const box = specSecretBox(crypto.randomBytes(32));

  it('opens what it sealed, and never seals the same way twice', () => {
    const sealed = box.seal('100001', SECRET);
    expect(sealed).toMatch(/^v1:[A-Za-z0-9+/]+=*$/);
    expect(sealed).not.toContain(SECRET);
    expect(box.open('100001', sealed)).toBe(SECRET);
    expect(box.seal('100001', SECRET)).not.toBe(sealed); // a fresh IV each time
  });

  it('cannot open under another CHECKOUT_SECRET', () => {
    const sealed = box.seal('100001', SECRET);
    expect(() => specSecretBox(crypto.randomBytes(32)).open('100001', sealed)).toThrow();
  });

  it("binds the merchant id: one merchant's sealed secret does not open as another's", () => {
    const sealed = box.seal('100001', SECRET);
    expect(() => box.open('100002', sealed)).toThrow();
  });

  it('refuses a changed blob and an unknown format', () => {
    const sealed = box.seal('100001', SECRET);
    const bytes = Buffer.from(sealed.slice(3), 'base64');
    bytes[bytes.length - 1]! ^= 1;
    expect(() => box.open('100001', `v1:${bytes.toString('base64')}`)).toThrow();
    expect(() => box.open('100001', sealed.replace(/^v1:/, 'v2:'))).toThrow(/unknown format/);
  });
});

describe('specMerchantProblem', () => {
  const entry = { id: '100001', name: 'Shop', origins: ['https://shop.example'], secret: SECRET };

  it('accepts a good entry and names what is wrong with a bad one', () => {
    expect(specMerchantProblem(entry)).toBeNull();
    expect(specMerchantProblem({ ...entry, id: '0' })).toMatch(/positive whole number/);
    expect(specMerchantProblem({ ...entry, name: '  ' })).toMatch(/1 to 200 characters/);
    expect(specMerchantProblem({ ...entry, secret: 'short' })).toMatch(/24 to 256 characters/);
    expect(specMerchantProblem({ ...entry, origins: ['https://shop.example/'] })).toMatch(
      /^https:\/\/shop\.example\/ is not an origin/,
    );
    expect(specMerchantProblem({ ...entry, origins: ['ftp://shop.example'] })).toMatch(/not an origin/);
  });
});

describe.each(databaseTargets())('the spec-mode merchants table ($name)', (target) => {
  let db: Database;
  const box = specSecretBox(crypto.randomBytes(32));
  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(() => db?.close());

  it('stores the secret encrypted, finds the merchant by name, replaces and removes it', async () => {
    const at = new Date('2026-11-24T12:00:00Z');
    await setSpecMerchant(db, box, { id: '100001', name: ' Shop ', origins: [], secret: SECRET }, at);
    const { rows } = await db.query('select * from checkout_spec_merchants');
    expect(JSON.stringify(rows)).not.toContain(SECRET);
    expect(await specMerchantByName(db, box, 'Shop')).toEqual({
      id: '100001',
      name: 'Shop',
      origins: [],
      secret: SECRET,
    });

    await setSpecMerchant(
      db,
      box,
      { id: '100001', name: 'Shop Two', origins: ['https://two.example'], secret: `${SECRET}!` },
      at,
    );
    expect(await listSpecMerchants(db)).toEqual([
      { id: '100001', name: 'Shop Two', origins: ['https://two.example'] },
    ]);
    expect(await specMerchantSecret(db, box, '100001')).toBe(`${SECRET}!`);
    await expect(
      setSpecMerchant(db, box, { id: '100001', name: 'x', origins: ['nope'], secret: SECRET }, at),
    ).rejects.toThrow(RangeError);

    expect(await removeSpecMerchant(db, '100001')).toBe(true);
    expect(await removeSpecMerchant(db, '100001')).toBe(false);
    expect(await listSpecMerchants(db)).toEqual([]);
  });
});
