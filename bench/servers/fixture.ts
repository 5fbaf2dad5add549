/**
 * The data both benchmark servers answer with, so Payframe and node-soap serialize the same values:
 * 50 TransactionHistory items (values as strings, as the contract has them) and `true`.
 */
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import path from 'node:path';

export const HISTORY_ITEMS = 50;

export interface HistoryItem {
  TransactionHistoryID: string;
  MerchantID: string;
  TransactionID: string;
  TransactionAmount: string;
  TransactionDate: string;
  NameOnCard: string;
  CardNumberLast4Digit: string;
  SettlementStatus: string;
  Source: string;
  ApprovalCode: string;
  CustomValue1: string;
  CustomValue2: string;
  CustomValue3: string;
}

export const transactionHistories: HistoryItem[] = Array.from({ length: HISTORY_ITEMS }, (_, i) => ({
  TransactionHistoryID: String(1_000_000 + i),
  MerchantID: '4242',
  TransactionID: String(9_000_000_000 + i),
  TransactionAmount: `${10 + i}.50`,
  TransactionDate: '2024-01-02T03:04:05',
  NameOnCard: `Card Holder ${i}`,
  CardNumberLast4Digit: String(1000 + i),
  SettlementStatus: i % 3 === 0 ? 'Pending' : 'Settled',
  Source: 'Web',
  ApprovalCode: `A${String(i).padStart(5, '0')}`,
  CustomValue1: `order-${i}`,
  CustomValue2: '',
  CustomValue3: 'bench',
}));

/**
 * With BENCH_CPU_PROF_DIR set, samples the CPU from now until the server closes and writes
 * `<dir>/<name>.cpuprofile` (Chrome DevTools format), so a profile covers serving only, not start-up.
 */
export async function profileWhileServing(name: string): Promise<() => Promise<void>> {
  const dir = process.env.BENCH_CPU_PROF_DIR;
  if (!dir) return async () => {};
  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    fs.writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  };
}

/** Prints the listening port as one JSON line, the parent's signal that the server is ready. */
export function announce(port: number): void {
  process.stdout.write(`${JSON.stringify({ port })}\n`);
}

/** A child server exits when its parent goes away (stdin closes), so no server outlives the bench. */
export function exitWithParent(close: () => Promise<unknown> | unknown): void {
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    Promise.resolve()
      .then(close)
      .finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.resume();
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
