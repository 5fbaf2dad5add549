/**
 * Where the simulator keeps what it answered to each reference (IDEM-9, REL-3): in memory for one
 * process, or in `processor_ledger` (migration 0003) so several instances agree.
 *
 * `record` is the only write, one statement: the first entry for a reference wins, and the statement
 * returns whichever entry holds the reference, so twenty concurrent calls with one reference leave
 * one entry and one charge.
 */
import type { Queryable } from '../../db/database.ts';
import type { ChargeWindow, ProcessorResult, RecordedCharge } from './processor.ts';

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
  /** Approved `authorize` and `ach_debit` entries recorded in the window, oldest first. */
  approvedCharges(window: ChargeWindow): Promise<RecordedCharge[]>;
}

/** Kinds that move the shopper's money towards the merchant: what reconciliation checks. */
const CHARGE_KINDS: readonly LedgerKind[] = ['authorize', 'ach_debit'];

export class MemoryLedger implements ProcessorLedger {
  readonly #entries = new Map<string, { entry: LedgerEntry; at: Date }>();

  async record(entry: LedgerEntry): Promise<LedgerEntry> {
    const existing = this.#entries.get(entry.reference);
    if (existing) return existing.entry;
    this.#entries.set(entry.reference, { entry, at: new Date() });
    return entry;
  }

  async get(reference: string): Promise<LedgerEntry | null> {
    return this.#entries.get(reference)?.entry ?? null;
  }

  async approvedCharges({ after, before, limit }: ChargeWindow): Promise<RecordedCharge[]> {
    return [...this.#entries.values()]
      .filter(
        ({ entry, at }) =>
          CHARGE_KINDS.includes(entry.kind) && entry.result.approved && at >= after && at < before,
      )
      .sort((a, b) => a.at.getTime() - b.at.getTime())
      .slice(0, limit)
      .map(({ entry, at }) => ({
        reference: entry.reference,
        approvedAmountCents: entry.result.approvedAmountCents,
        recordedAt: at,
      }));
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

  async approvedCharges({ after, before, limit }: ChargeWindow): Promise<RecordedCharge[]> {
    const { rows } = await this.q.query<{ reference: string; amount: string; created_at: Date }>(
      `select reference, result->>'approvedAmountCents' as amount, created_at from processor_ledger
       where created_at >= $1 and created_at < $2 and kind = any($3) and (result->>'approved')::boolean
       order by created_at limit $4`,
      [after, before, CHARGE_KINDS, limit],
    );
    return rows.map((r) => ({
      reference: r.reference,
      approvedAmountCents: BigInt(r.amount),
      recordedAt: r.created_at,
    }));
  }
}
