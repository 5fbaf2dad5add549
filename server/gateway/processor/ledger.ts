/**
 * Where the simulator keeps what it answered to each reference (IDEM-9, REL-3): in memory for one
 * process, or in `processor_ledger` (migration 0003) so several instances agree.
 *
 * `record` is the only write, one statement: the first entry for a reference wins, and the statement
 * returns whichever entry holds the reference, so twenty concurrent calls with one reference leave
 * one entry and one charge.
 */
import type { Queryable } from '../../db/database.ts';
import type { ProcessorResult } from './processor.ts';

export type LedgerKind = 'authorize' | 'verify' | 'ach_debit' | 'capture' | 'refund' | 'void';

export interface LedgerEntry {
  reference: string;
  kind: LedgerKind;
  requestDigest: string;
  result: ProcessorResult;
}

export interface ProcessorLedger {
  /** Records `entry` unless its reference is taken; returns the entry that holds the reference. */
  record(entry: LedgerEntry): Promise<LedgerEntry>;
  get(reference: string): Promise<LedgerEntry | null>;
}

export class MemoryLedger implements ProcessorLedger {
  readonly #entries = new Map<string, LedgerEntry>();

  async record(entry: LedgerEntry): Promise<LedgerEntry> {
    const existing = this.#entries.get(entry.reference);
    if (existing) return existing;
    this.#entries.set(entry.reference, entry);
    return entry;
  }

  async get(reference: string): Promise<LedgerEntry | null> {
    return this.#entries.get(reference) ?? null;
  }
}

interface LedgerRow {
  reference: string;
  kind: LedgerKind;
  request_digest: string;
  result: Record<string, unknown>;
}

/** The result as JSON: the bigint as a digit string (DESIGN.md §3, never a float). */
function resultToJson(r: ProcessorResult): string {
  return JSON.stringify({ ...r, approvedAmountCents: r.approvedAmountCents.toString() });
}

function resultFromJson(json: Record<string, unknown>): ProcessorResult {
  return { ...json, approvedAmountCents: BigInt(json.approvedAmountCents as string) } as ProcessorResult;
}

function entryOf(row: LedgerRow): LedgerEntry {
  return {
    reference: row.reference,
    kind: row.kind,
    requestDigest: row.request_digest,
    result: resultFromJson(row.result),
  };
}

export class DatabaseLedger implements ProcessorLedger {
  constructor(private readonly q: Queryable) {}

  async record(entry: LedgerEntry): Promise<LedgerEntry> {
    // `do update` with no change, so the existing row is returned too (`do nothing` returns none).
    const { rows } = await this.q.query<LedgerRow>(
      `insert into processor_ledger (reference, kind, request_digest, result)
       values ($1, $2, $3, $4::jsonb)
       on conflict (reference) do update set reference = excluded.reference
       returning reference, kind, request_digest, result`,
      [entry.reference, entry.kind, entry.requestDigest, resultToJson(entry.result)],
    );
    return entryOf(rows[0]!);
  }

  async get(reference: string): Promise<LedgerEntry | null> {
    const { rows } = await this.q.query<LedgerRow>(
      'select reference, kind, request_digest, result from processor_ledger where reference = $1',
      [reference],
    );
    return rows[0] ? entryOf(rows[0]) : null;
  }
}
