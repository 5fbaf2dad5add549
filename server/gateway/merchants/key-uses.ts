/**
 * When each TransactionKey last authenticated (the dashboard's Developers page), kept without a
 * write per call: each instance notes uses in memory and writes them at most once a minute, in one
 * statement, off every request and its transaction (a timer, not the call). A key is named by
 * `keyIdOf` (SHA-256 of a fixed label and the key, 32 hex digits), never by the key: the key is 256
 * random bits, so the digest reveals nothing of it. GetTransactionKeyStatus writes this instance's
 * pending uses first, so what it reads is exact for this instance and a minute late at most for
 * another.
 */
import crypto from 'node:crypto';
import type { Queryable } from '../../db/database.ts';

/** How often an instance writes the uses it noted (and so the bound on "last used"). */
export const KEY_USE_FLUSH_MS = 60_000;
const MAX_PENDING = 10_000;

export function keyIdOf(key: string): string {
  return crypto.hash('sha256', `payframe transaction key id:${key}`, 'hex').slice(0, 32);
}

export class KeyUses {
  /** `merchantId key_id` → the latest use noted since the last write. */
  readonly #pending = new Map<string, Date>();
  #db: Queryable | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly flushMs = KEY_USE_FLUSH_MS,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  /** Notes that `key` authenticated `merchantId` at `at`; written within `flushMs`. */
  note(db: Queryable, merchantId: string, key: string, at: Date): void {
    this.#db = db;
    const k = `${merchantId} ${keyIdOf(key)}`;
    const before = this.#pending.get(k);
    if (!before && this.#pending.size >= MAX_PENDING) return; // written by the next flush's peers
    if (!before || before < at) this.#pending.set(k, at);
    if (this.#timer === null) {
      this.#timer = setTimeout(() => {
        this.#timer = null;
        this.flush().catch(this.onError);
      }, this.flushMs);
      this.#timer.unref?.();
    }
  }

  /** Writes the pending uses now (one statement), keeping the later of two times. */
  async flush(db: Queryable | null = this.#db): Promise<void> {
    if (this.#pending.size === 0 || db === null) return;
    const entries = [...this.#pending];
    this.#pending.clear();
    const ids: string[] = [];
    const keyIds: string[] = [];
    const times: Date[] = [];
    for (const [k, at] of entries) {
      const [merchantId, keyId] = k.split(' ') as [string, string];
      ids.push(merchantId);
      keyIds.push(keyId);
      times.push(at);
    }
    try {
      await db.query(
        `insert into transaction_key_uses (merchant_id, key_id, last_used_at)
         select u.m, u.k, u.t from unnest($1::bigint[], $2::text[], $3::timestamptz[]) as u(m, k, t)
         where exists (select 1 from merchants where id = u.m)
         on conflict (merchant_id, key_id) do update
           set last_used_at = greatest(transaction_key_uses.last_used_at, excluded.last_used_at)`,
        [ids, keyIds, times],
      );
    } catch (err) {
      // Put them back (unless newer ones came), so a passing failure loses nothing.
      for (const [k, at] of entries) {
        const now = this.#pending.get(k);
        if (!now || now < at) this.#pending.set(k, at);
      }
      throw err;
    }
  }

  /** Stops the timer (tests; shutdown). */
  stop(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
