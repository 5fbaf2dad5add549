/**
 * The last time this process's database refused a write although it answered (issue 19 §6), for
 * `/readyz` to say why the instance is not ready, and to find out whether writes came back. Noted
 * where errors become answers (the HTTP error handler, the SOAP fault mapping); one per process, as
 * the database is.
 */
import { type StorageRefusal, storageRefusalOf } from './database.ts';

let last: { kind: StorageRefusal; at: Date } | null = null;

/** Notes `err` when it is a refusal; answers whether it was. */
export function noteStorageRefusal(err: unknown): boolean {
  const kind = storageRefusalOf(err);
  // `at`: since when this kind of refusal goes on, not its latest.
  if (kind && last?.kind !== kind) last = { kind, at: new Date() };
  return kind !== null;
}

export function lastStorageRefusal(): { kind: StorageRefusal; at: Date } | null {
  return last;
}

/** A write went through since: the refusal is over. */
export function clearStorageRefusal(): void {
  last = null;
}
