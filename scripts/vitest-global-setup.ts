/**
 * One temporary directory per test run: test databases (~40 MB each), keys and scratch files go
 * under it (test/kit/databases.ts `tempDir`), and it is removed when the run ends, even when
 * a worker process was killed rather than exited. And no env file for the servers the tests start
 * (test/kit/server-env.ts): the workers, and the processes they start, inherit the setting.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEST_SERVER_ENV } from '../test/kit/server-env.ts';

export default function setup(): () => void {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payframe-run-'));
  process.env.PAYFRAME_TEST_TMP = runDir;
  // Every `payframe` a test starts with this environment reads no .env (test/kit/server-env.ts).
  Object.assign(process.env, TEST_SERVER_ENV);
  return () => fs.rmSync(runDir, { recursive: true, force: true });
}
