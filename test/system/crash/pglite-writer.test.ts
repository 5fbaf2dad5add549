/**
 * Durability on the embedded database: a writer killed with SIGKILL mid-stream, three times over,
 * loses no row whose commit it had acknowledged, and the directory reopens (the stale lock of the
 * killed process is taken over).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../kit/databases.ts';
import { openPglite } from '../../../server/db/pglite.ts';

const WRITER = fileURLToPath(new URL('./crash-writer.ts', import.meta.url));

/** Runs the writer until it has acknowledged `atLeast` commits, then kills it; returns the acked seqs. */
function writeThenKill(dir: string, startSeq: number, atLeast: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, dir, String(startSeq)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acked: number[] = [];
    let buffer = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      let nl = buffer.indexOf('\n');
      while (nl >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.startsWith('ack ')) acked.push(Number(line.slice(4)));
        nl = buffer.indexOf('\n');
      }
      if (acked.length >= atLeast && !child.killed) child.kill('SIGKILL');
    });
    child.on('exit', (_code, signal) => {
      if (signal === 'SIGKILL') resolve(acked);
      else reject(new Error(`writer exited before it was killed: ${stderr}`));
    });
  });
}

describe('PGlite durability under kill -9', () => {
  it('keeps every acknowledged commit across three kills', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const acknowledged: number[] = [];
    for (let round = 0; round < 3; round++) {
      acknowledged.push(...(await writeThenKill(dir, round * 100_000, 150)));
    }
    const db = await openPglite(dir);
    try {
      const { rows } = await db.query<{ seq: number }>(
        "select (detail->>'seq')::int as seq from audit_events where actor = 'crash-test'",
      );
      const stored = new Set(rows.map((r) => r.seq));
      const lost = acknowledged.filter((s) => !stored.has(s));
      expect(acknowledged.length).toBeGreaterThanOrEqual(450);
      expect(lost).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
