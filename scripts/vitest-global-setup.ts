/**
 * One temporary directory per test run: test databases (~40 MB each), keys and scratch files go
 * under it (test/kit/databases.ts `tempDir`), and it is removed when the run ends, even when
 * a worker process was killed rather than exited.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payframe-run-'));
  process.env.PAYFRAME_TEST_TMP = runDir;
  return () => fs.rmSync(runDir, { recursive: true, force: true });
}
