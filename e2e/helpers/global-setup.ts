/**
 * Once per Playwright run: a data directory with the embedded database made and migrated
 * (`payframe migrate`, the compiled server), which the servers specs start of their own copy
 * (payframe-server.ts `freshDataDir`) instead of each running initdb and every migration. Removed
 * when the run ends.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { COMPILED_SERVER } from './compiled-server.ts';
import { TEMPLATE_DATA_DIR } from './payframe-server.ts';
import { TEST_SERVER_ENV } from '../../test/kit/server-env.ts';

export default function globalSetup(): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payframe-e2e-template-'));
  execFileSync(process.execPath, [...COMPILED_SERVER, 'migrate', '--json'], {
    env: {
      ...process.env,
      ...TEST_SERVER_ENV,
      DATA_DIR: dir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  process.env[TEMPLATE_DATA_DIR] = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
