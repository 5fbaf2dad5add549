/**
 * The merchant cache's own rules (merchant-cache.ts), on a clock the test moves: the backstop bound
 * for a database without notifications, a read overtaken by a drop, the credential kept as a digest,
 * the view of failing addresses and its overflow, and what losing the listening connection does.
 */
import { describe, expect, it } from 'vitest';
import type { ChannelListener, Database } from '../../db/database.ts';
import { FAILING_MS, MerchantCache, type MerchantRecord } from './merchant-cache.ts';
import type { Merchant } from './merchant-store.ts';

function record(id: string, keyEnc = 'enc-1', disabled = false): MerchantRecord {
  return { merchant: { id, name: `M${id}` } as Merchant, keyEnc, disabled };
}

/** A database that does nothing but (optionally) let the test deliver notifications. */
function fakeDatabase(withListen: boolean): Database & { listener?: ChannelListener } {
  const db: Database & { listener?: ChannelListener } = {
    kind: 'postgres',
    schema: 'public',
    query: async () => ({ rows: [], rowCount: 0 }),
    exec: async () => {},
    transaction: async (fn) => fn({ ...db, queryAndCommit: db.query }),
    ping: async () => {},
    close: async () => {},
  };
  if (withListen) {
    db.listen = async (_channel, listener) => {
      db.listener = listener;
      listener.onListening(true);
      return async () => {};
    };
  }
  return db;
}

function setUp(withListen: boolean, ttlMs = 1000) {
  let now = 0;
  const cache = new MerchantCache({ ttlMs, clock: () => now });
  const db = fakeDatabase(withListen);
  cache.usableFor(db);
  return { cache, db, advance: (ms: number) => (now += ms) };
}

describe('merchant cache', () => {
  it('without notifications, an entry serves for ttlMs after its read and not after', async () => {
    const { cache, db, advance } = setUp(false);
    expect(cache.usableFor(db)).toBe(true);
    const digest = cache.credentialDigest('100001', 'key');
    cache.remember(record('100001'), cache.generation, digest);
    advance(999);
    expect(cache.merchantOfCredential(digest)?.id).toBe('100001');
    advance(1);
    expect(cache.merchantOfCredential(digest)).toBeNull();
    expect(cache.record('100001')).toBeNull();
  });

  it('keeps only a digest; another password or username has another digest', () => {
    const { cache } = setUp(false);
    const digest = cache.credentialDigest('100001', 'secret-key');
    expect(digest).not.toContain('secret-key');
    expect(cache.credentialDigest('100001', 'secret-keY')).not.toBe(digest);
    expect(cache.credentialDigest('100002', 'secret-key')).not.toBe(digest);
    cache.remember(record('100001'), cache.generation, digest);
    expect(cache.merchantOfCredential(cache.credentialDigest('100001', 'secret-keY'))).toBeNull();
  });

  it('a disabled merchant is never found by its credential', () => {
    const { cache } = setUp(false);
    const digest = cache.credentialDigest('100001', 'k');
    cache.remember(record('100001', 'enc', true), cache.generation, digest);
    expect(cache.merchantOfCredential(digest)).toBeNull();
  });

  it('a read that began before a drop is not kept', () => {
    const { cache } = setUp(false);
    const generation = cache.generation;
    cache.forget('100001'); // the row changed while the read was under way
    cache.remember(record('100001'), generation);
    expect(cache.record('100001')).toBeNull();
  });

  it('a re-read with a new key drops the credential verified against the old one', () => {
    const { cache } = setUp(false);
    const old = cache.credentialDigest('100001', 'old');
    cache.remember(record('100001', 'enc-old'), cache.generation, old);
    cache.remember(record('100001', 'enc-new'), cache.generation);
    expect(cache.merchantOfCredential(old)).toBeNull();
  });

  it('notifications drop merchants and mark failing addresses, for this schema only', () => {
    const { cache, db } = setUp(true);
    const digest = cache.credentialDigest('100001', 'k');
    cache.remember(record('100001'), cache.generation, digest);
    db.listener!.onNotify(JSON.stringify({ schema: 'other', merchant: '100001', failing: 'ip:1.2.3.4' }));
    expect(cache.merchantOfCredential(digest)?.id).toBe('100001');
    expect(cache.mayBeFailing('ip:1.2.3.4')).toBe(false);
    db.listener!.onNotify(JSON.stringify({ schema: 'public', merchant: '100001' }));
    expect(cache.merchantOfCredential(digest)).toBeNull();
    db.listener!.onNotify(JSON.stringify({ schema: 'public', failing: 'ip:1.2.3.4' }));
    expect(cache.mayBeFailing('ip:1.2.3.4')).toBe(true);
  });

  it('a failing address is read from the database for the throttle window, then no longer', () => {
    const { cache, advance } = setUp(false);
    cache.noteFailing('ip:5.6.7.8');
    advance(FAILING_MS - 1);
    expect(cache.mayBeFailing('ip:5.6.7.8')).toBe(true);
    advance(1);
    expect(cache.mayBeFailing('ip:5.6.7.8')).toBe(false);
  });

  it('too many failing addresses: every address is read from the database for a window', () => {
    const { cache } = setUp(false);
    for (let i = 0; i <= 10_000; i++) cache.noteFailing(`ip:10.0.${i >> 8}.${i & 255}`);
    expect(cache.mayBeFailing('ip:192.0.2.1')).toBe(true);
  });

  it('losing the listening connection drops everything and serves nothing until it is back', () => {
    const { cache, db } = setUp(true);
    const digest = cache.credentialDigest('100001', 'k');
    cache.remember(record('100001'), cache.generation, digest);
    db.listener!.onListening(false);
    expect(cache.usableFor(db)).toBe(false);
    expect(cache.mayBeFailing('ip:9.9.9.9')).toBe(true);
    db.listener!.onListening(true);
    expect(cache.usableFor(db)).toBe(true);
    expect(cache.merchantOfCredential(digest)).toBeNull();
    expect(cache.mayBeFailing('ip:9.9.9.9')).toBe(false);
  });

  it('a transaction handle or another database never reads from the cache', () => {
    const { cache } = setUp(false);
    const other = fakeDatabase(false);
    expect(cache.usableFor(other)).toBe(false);
    expect(cache.usableFor({ query: other.query, exec: other.exec })).toBe(false);
  });
});
