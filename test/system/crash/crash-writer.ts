/**
 * A child process for the crash test: opens DATA_DIR like the server does and writes audit events
 * one transaction at a time, printing `ack <seq>` only after each commit returned. The test kills
 * it with SIGKILL mid-stream and checks that every acknowledged row survived.
 */
import { openDatabase } from '../../../server/db/index.ts';

const dataDir = process.argv[2];
const startSeq = Number(process.argv[3] ?? '0');
if (!dataDir) throw new Error('usage: crash-writer <dataDir> [startSeq]');

const db = await openDatabase({ dataDir, databaseUrl: undefined, databasePoolSize: 1 });
process.stdout.write('ready\n');
for (let seq = startSeq; ; seq++) {
  await db.transaction(async (tx) => {
    await tx.query(
      "insert into audit_events (actor, action, outcome, detail) values ('crash-test', 'write', 'info', $1)",
      [JSON.stringify({ seq, filler: 'x'.repeat(200) })],
    );
  });
  process.stdout.write(`ack ${seq}\n`);
}
