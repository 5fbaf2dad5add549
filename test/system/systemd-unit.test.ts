/**
 * deploy/systemd/payframe.service, checked by systemd itself: `systemd-analyze verify` reads it as
 * systemd would load it (unknown keys, bad values, a missing executable are each a line on
 * stderr), and `systemd-analyze security --offline` rates its sandbox. The unit's own choices —
 * its user, the state directory as DATA_DIR, the read-only system, no new privileges, restarts,
 * the environment file — are checked by name.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { tempDir } from '../kit/databases.ts';
import { describeWithTools, SYSTEMD_ANALYZE, systemdAnalyze } from '../kit/tools.ts';

const UNIT = fileURLToPath(new URL('../../deploy/systemd/payframe.service', import.meta.url));

/**
 * The unit as written, in a folder of its own under its own name; the node it starts is this
 * one (the unit names Debian's /usr/bin/node, which verify checks exists).
 */
function unitCopy(text = fs.readFileSync(UNIT, 'utf8')): string {
  const file = path.join(tempDir('payframe-systemd-'), 'payframe.service');
  fs.writeFileSync(file, text.replace('/usr/bin/node ', `${process.execPath} `));
  return file;
}

function analyze(...args: string[]) {
  const r = spawnSync(SYSTEMD_ANALYZE, args, {
    encoding: 'utf8',
    env: { ...process.env, SYSTEMD_LOG_COLOR: '0' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The unit's settings: each key's values in order, section by section. */
function settings(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) {
      section = header[1]!;
      continue;
    }
    const eq = line.indexOf('=');
    const key = `${section}.${line.slice(0, eq)}`;
    out.set(key, [...(out.get(key) ?? []), line.slice(eq + 1)]);
  }
  return out;
}

describeWithTools([systemdAnalyze], 'deploy/systemd/payframe.service', () => {
  it('passes systemd-analyze verify without a single complaint', () => {
    const r = analyze('verify', unitCopy());
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('verify complains about a unit that is wrong (the check can fail)', () => {
    const broken = fs
      .readFileSync(UNIT, 'utf8')
      .replace('ProtectSystem=strict', 'ProtectSystem=very')
      .replace('[Service]', '[Service]\nRestartEvery=5');
    const r = analyze('verify', unitCopy(broken));
    expect(r.stderr).toContain('protect system value');
    expect(r.stderr).toContain('RestartEvery');
  });

  it('runs as its own user, in its state directory, read-only elsewhere, restarted on failure', () => {
    const s = settings(fs.readFileSync(UNIT, 'utf8'));
    expect(s.get('Service.User')).toEqual(['payframe']);
    expect(s.get('Service.StateDirectory')).toEqual(['payframe']);
    expect(s.get('Service.StateDirectoryMode')).toEqual(['0700']);
    expect(s.get('Service.Environment')).toEqual(
      expect.arrayContaining(['NODE_ENV=production', 'DATA_DIR=%S/payframe', 'PAYFRAME_ENV_FILE=none']),
    );
    expect(s.get('Service.EnvironmentFile')).toEqual(['-/etc/payframe/payframe.env']);
    expect(s.get('Service.ProtectSystem')).toEqual(['strict']);
    expect(s.get('Service.NoNewPrivileges')).toEqual(['yes']);
    expect(s.get('Service.Restart')).toEqual(['on-failure']);
    // Above the 30 s a request in flight may take to finish after SIGTERM.
    expect(Number(s.get('Service.TimeoutStopSec')?.[0])).toBeGreaterThan(30);
    expect(s.get('Service.ExecStart')?.[0]).toMatch(/ \/opt\/payframe\/dist\/server\/payframe\.js serve$/);
    // The JIT writes and runs its own code: a unit that forbade it would not start node.
    expect(s.has('Service.MemoryDenyWriteExecute')).toBe(false);
  });

  it('is rated well sandboxed by systemd-analyze security (exposure below 2 of 10)', () => {
    const r = analyze('security', '--offline=yes', unitCopy());
    const level = /Overall exposure level for payframe\.service: ([\d.]+)/.exec(r.stdout)?.[1];
    expect(level, r.stdout + r.stderr).toBeDefined();
    expect(Number(level)).toBeLessThan(2);
  });
});
