/**
 * `payframe serve --spec-only` (issue 20): accepted with `--role gateway` only. With role all or
 * checkout (a checkout that calls Payframe's extensions) it is a usage error naming the flag, exit
 * code 2, before the configuration is read or the database opened.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../kit/databases.ts';
import { runPayframe } from '../../kit/cli/run-payframe.ts';

// Each run starts the command through tsx (10–15 s on a quiet two-core machine; cli.test.ts).
describe('payframe serve --spec-only', { timeout: 90_000 }, () => {
  it('is refused with --role all (the default) and --role checkout, before anything is opened', async () => {
    const dir = tempDir();
    for (const role of ['all', 'checkout']) {
      const r = await runPayframe(['serve', '--role', role, '--spec-only', '--json'], { DATA_DIR: dir });
      expect(r.code, r.stderr).toBe(2);
      expect(JSON.parse(r.stdout).error).toEqual({
        code: 'invalid_arguments',
        message: `--spec-only is for --role gateway only (got --role ${role}).`,
      });
    }
    const byDefault = await runPayframe(['serve', '--spec-only', '--json'], { DATA_DIR: dir });
    expect(JSON.parse(byDefault.stdout).error.message).toBe(
      '--spec-only is for --role gateway only (got --role all).',
    );
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('is accepted with --role gateway (which then checks its configuration as without it)', async () => {
    const dir = tempDir();
    const r = await runPayframe(['serve', '--role', 'gateway', '--spec-only', '--json'], {
      DATA_DIR: dir,
      GATEWAY_SERVICE_KEY: '',
    });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({
      code: 'invalid_config',
      message: expect.stringContaining('GATEWAY_SERVICE_KEY: required with --role gateway'),
    });
  });
});
