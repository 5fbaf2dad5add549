/**
 * What every authenticated call would otherwise read from the database (DESIGN.md §17), kept in this
 * instance's memory: merchant rows, the credential each was last verified with, and the addresses
 * with failed sign-ins on record.
 *
 * - A verified credential is kept as a SHA-256 digest of `username:password` salted with a random
 *   secret of this process, never in clear; a different password makes a different digest, so a wrong
 *   key never finds an entry and always goes to the database (and its throttle).
 * - Every change to a merchant row or to the failed-sign-in count, whoever makes it, is announced on
 *   the channel `payframe_gateway_cache` (migration 0018, a trigger) and drops what it concerns here
 *   when it commits. While the listening connection is down nothing is served from memory, and when
 *   it comes back everything held is dropped.
 * - Backstop for a notification lost while the connection looked up: an entry is used for at most
 *   `ttlMs` (MERCHANT_CACHE_TTL_MS, 10 s) after it was read.
 * - A database that offers no notifications (`Database.listen` absent) gets the backstop alone.
 *
 * docs/gateway.md "Credentials" and docs/deployment.md "Several instances" describe the bound.
 */
import crypto from 'node:crypto';
import type { Database, Queryable } from '../../db/database.ts';
import type { Merchant } from './merchant.ts';

export const CACHE_CHANNEL = 'payframe_gateway_cache';
/** The longest a merchant row or a verified credential is used after it was read. */
export const MERCHANT_CACHE_TTL_MS = 10_000;
/** How long an address stays "has failures on record" after a failure was seen (the throttle's window). */
export const FAILING_MS = 15 * 60 * 1000;
const MAX_MERCHANTS = 10_000;
const MAX_FAILING = 10_000;
const REATTACH_MS = 1000;

/** A merchant as read with its encrypted TransactionKey and whether it is disabled. */
export interface MerchantRecord {
  merchant: Merchant;
  keyEnc: string;
  disabled: boolean;
  /** The key a roll replaced, encrypted, while its overlap lasts (migration 0032); else null. */
  prevKeyEnc?: string | null;
  /** When the previous key stops authenticating and signing. */
  prevKeyUntil?: Date | null;
}

interface Entry extends MerchantRecord {
  readAt: number;
  /** The digest of the credential verified against this row, if one was. */
  credential: string | null;
  /** When the credential is the previous key: its overlap's end (ms since the epoch); else null. */
  credentialUntil: number | null;
}

type State = 'detached' | 'attaching' | 'listening' | 'deaf' | 'backstop-only';

export interface MerchantCacheOptions {
  ttlMs?: number;
  /** A monotonic clock in ms (tests); performance.now() otherwise. */
  clock?: () => number;
}

function isDatabase(q: Queryable): q is Database {
  return typeof (q as Partial<Database>).transaction === 'function' && 'kind' in q;
}

export class MerchantCache {
  readonly ttlMs: number;
  readonly #clock: () => number;
  readonly #salt = crypto.randomBytes(32).toString('base64');
  #db: Database | null = null;
  #state: State = 'detached';
  #generation = 0;
  readonly #byId = new Map<string, Entry>();
  readonly #byCredential = new Map<string, string>();
  readonly #failing = new Map<string, number>();
  /** Until then every address consults the database (the view of failing addresses overflowed). */
  #allFailingUntil = 0;

  constructor(options: MerchantCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? MERCHANT_CACHE_TTL_MS;
    this.#clock = options.clock ?? (() => performance.now());
  }

  /**
   * Whether what is held may be used for reads through `q` now. The first database seen is the one
   * the cache follows (it subscribes to its notifications); a transaction's handle or another
   * database never reads from the cache.
   */
  usableFor(q: Queryable): boolean {
    if (this.#db === null && isDatabase(q)) this.#attach(q);
    return q === this.#db && this.serving;
  }

  /** Whether reads are served from memory now (listening, or a database without notifications). */
  get serving(): boolean {
    return this.#state === 'listening' || this.#state === 'backstop-only';
  }

  /** A counter that moves on every drop: a read that began before a drop must not be kept. */
  get generation(): number {
    return this.#generation;
  }

  /**
   * SHA-256 of this process's random 32-byte salt and `username:password`: one call, no objects (a
   * createHmac per request cost more than the rest of authentication); an equality lookup of a
   * secret salt's digest needs nothing HMAC adds.
   */
  credentialDigest(username: string, password: string): string {
    return crypto.hash('sha256', `${this.#salt}${username}:${password}`, 'base64');
  }

  /**
   * The merchant a verified credential (by its digest) belongs to, while fresh and not disabled; a
   * previous key (a roll's overlap) only until the overlap's end (`nowMs`: the wall clock).
   */
  merchantOfCredential(digest: string, nowMs: number = Date.now()): Merchant | null {
    const id = this.#byCredential.get(digest);
    if (id === undefined) return null;
    const entry = this.#fresh(id);
    if (!entry || entry.credential !== digest || entry.disabled) return null;
    if (entry.credentialUntil !== null && nowMs >= entry.credentialUntil) {
      // The overlap ended: forget the old key here; the database refuses it from now on.
      this.#byCredential.delete(digest);
      entry.credential = null;
      entry.credentialUntil = null;
      return null;
    }
    return entry.merchant;
  }

  record(id: string): MerchantRecord | null {
    return this.#fresh(id);
  }

  /**
   * Keeps a row read at `generation` (and the credential verified against it, with the overlap's
   * end when it is the previous key), unless dropped since.
   */
  remember(
    record: MerchantRecord,
    generation: number,
    credential: string | null = null,
    credentialUntil: Date | null = null,
  ): void {
    if (generation !== this.#generation || this.#db === null) return;
    if (this.#byId.size >= MAX_MERCHANTS && !this.#byId.has(record.merchant.id)) this.#clear();
    const before = this.#byId.get(record.merchant.id);
    if (before?.credential && before.credential !== credential) this.#byCredential.delete(before.credential);
    const same = before?.keyEnc === record.keyEnc;
    const kept = credential ?? (same ? before.credential : null);
    const until =
      credential !== null ? (credentialUntil?.getTime() ?? null) : same ? before.credentialUntil : null;
    this.#byId.set(record.merchant.id, {
      ...record,
      readAt: this.#clock(),
      credential: kept,
      credentialUntil: until,
    });
    if (kept) this.#byCredential.set(kept, record.merchant.id);
  }

  /** Drops a merchant (this instance changed it; the notification drops it everywhere else). */
  forget(id: string): void {
    this.#generation++;
    const entry = this.#byId.get(id);
    if (entry?.credential) this.#byCredential.delete(entry.credential);
    this.#byId.delete(id);
  }

  /** Whether this address may have failed sign-ins on record, so the throttle must be read. */
  mayBeFailing(subject: string): boolean {
    const now = this.#clock();
    if (now < this.#allFailingUntil) return true;
    const until = this.#failing.get(subject);
    if (until === undefined) return false;
    if (until > now) return true;
    this.#failing.delete(subject);
    return false;
  }

  noteFailing(subject: string): void {
    const until = this.#clock() + FAILING_MS;
    if (this.#failing.size >= MAX_FAILING && !this.#failing.has(subject)) {
      this.#failing.clear();
      this.#allFailingUntil = until;
    }
    this.#failing.set(subject, until);
  }

  #fresh(id: string): Entry | null {
    const entry = this.#byId.get(id);
    if (!entry) return null;
    if (this.#clock() - entry.readAt < this.ttlMs) return entry;
    this.forget(id);
    return null;
  }

  #clear(): void {
    this.#generation++;
    this.#byId.clear();
    this.#byCredential.clear();
  }

  #attach(db: Database): void {
    this.#db = db;
    if (!db.listen) {
      this.#state = 'backstop-only';
      return;
    }
    this.#state = 'attaching';
    const schema = db.schema ?? 'public';
    db.listen(CACHE_CHANNEL, {
      onNotify: (payload) => this.#onNotify(schema, payload),
      onListening: (listening) => {
        // Whatever changed while not listening is unknown: start from nothing either way.
        this.#clear();
        this.#failing.clear();
        this.#allFailingUntil = listening ? 0 : Number.POSITIVE_INFINITY;
        this.#state = listening ? 'listening' : 'deaf';
      },
    }).catch(() => {
      // Not listening: nothing from memory; try again on a later call.
      this.#state = 'deaf';
      setTimeout(() => {
        if (this.#db === db && this.#state === 'deaf') this.#db = null;
      }, REATTACH_MS).unref();
    });
  }

  #onNotify(schema: string, payload: string): void {
    let change: { schema?: string; merchant?: string; failing?: string };
    try {
      change = JSON.parse(payload) as typeof change;
    } catch {
      this.#clear();
      return;
    }
    if (change.schema !== schema) return; // another deployment (or test) sharing the server
    if (typeof change.merchant === 'string') this.forget(change.merchant);
    if (typeof change.failing === 'string') this.noteFailing(change.failing);
  }
}
