/**
 * Where the simulator keeps what it answered to each reference (IDEM-9, REL-3): in memory for one
 * process, or in `processor_ledger` (migration 0003) so several instances agree.
 *
 * `record` is the only write: the first entry for a reference wins (`on conflict do nothing`, then
 * read back), so twenty concurrent calls with one reference leave one entry and one charge.
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

export class DatabaseLedger implements ProcessorLedger {
  constructor(private readonly q: Queryable) {}

  async record(entry: LedgerEntry): Promise<LedgerEntry> {
    await this.q.query(
      `insert into processor_ledger (reference, kind, request_digest, result)
       values ($1, $2, $3, $4::jsonb)
       on conflict (reference) do nothing`,
      [entry.reference, entry.kind, entry.requestDigest, resultToJson(entry.result)],
    );
    const stored = await this.get(entry.reference);
    if (!stored)
      throw new Error(`Processor ledger entry ${entry.reference} vanished right after it was recorded.`);
    return stored;
  }

  async get(reference: string): Promise<LedgerEntry | null> {
    const { rows } = await this.q.query<LedgerRow>(
      'select reference, kind, request_digest, result from processor_ledger where reference = $1',
      [reference],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      reference: row.reference,
      kind: row.kind,
      requestDigest: row.request_digest,
      result: resultFromJson(row.result),
    };
  }
}
