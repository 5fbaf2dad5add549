/**
 * Programs outside npm that some tests drive (python3-zeep, nginx, openssl, systemd-analyze): such a test is never
 * counted as passed without its program. Missing on a developer's machine, the suite is reported as
 * skipped, with the reason in its title and a note on stderr; missing on CI (`CI` set, as CI
 * services do), where scripts/system-deps.js installs them, it fails instead, so a broken install
 * cannot pass for a green run.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, it } from 'vitest';

export interface ExternalTool {
  name: string;
  /** How to get it, for the skip note and the CI failure. */
  install: string;
  present: () => boolean;
}

export const PYTHON3 = '/usr/bin/python3';

// The probes match scripts/system-deps.js, which installs these on CI and for `npm run test:system`.
export const python3Zeep: ExternalTool = {
  name: 'python3-zeep',
  install: `apt-get install python3-zeep (imported by ${PYTHON3})`,
  present: () => spawnSync(PYTHON3, ['-c', 'import zeep'], { stdio: 'ignore' }).status === 0,
};

export const NGINX = '/usr/sbin/nginx';

export const nginx: ExternalTool = {
  name: 'nginx',
  install: `apt-get install nginx-light (${NGINX})`,
  present: () => fs.existsSync(NGINX),
};

export const openssl: ExternalTool = {
  name: 'openssl',
  install: 'apt-get install openssl',
  present: () => spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0,
};

export const SYSTEMD_ANALYZE = '/usr/bin/systemd-analyze';

export const systemdAnalyze: ExternalTool = {
  name: 'systemd-analyze',
  install: `apt-get install systemd (${SYSTEMD_ANALYZE})`,
  present: () => fs.existsSync(SYSTEMD_ANALYZE),
};

/** True on CI: the one place tests read `CI` (CI services set it to "true"). */
export function onCi(env: Record<string, string | undefined> = process.env): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

export type ToolPlan = { run: 'all' } | { run: 'skip' | 'fail'; reason: string };

/** What a suite does given the tools it needs, which of them are here and whether this is CI. */
export function toolPlan(
  tools: readonly ExternalTool[],
  present: (t: ExternalTool) => boolean,
  ci: boolean,
): ToolPlan {
  const missing = tools.filter((t) => !present(t));
  if (missing.length === 0) return { run: 'all' };
  const reason = missing.map((t) => `${t.name} is missing: ${t.install}`).join('; ');
  return { run: ci ? 'fail' : 'skip', reason };
}

const probed = new Map<ExternalTool, boolean>();
const isPresent = (t: ExternalTool): boolean => {
  if (!probed.has(t)) probed.set(t, t.present());
  return probed.get(t)!;
};

/**
 * `describe(title, body)` when every tool is here. Otherwise, off CI, the same suite skipped
 * (each test reported as skipped) with the reason in its title; on CI, one failing test that
 * says what is missing.
 */
export function describeWithTools(tools: readonly ExternalTool[], title: string, body: () => void): void {
  const plan = toolPlan(tools, isPresent, onCi());
  if (plan.run === 'all') {
    describe(title, body);
  } else if (plan.run === 'skip') {
    console.warn(`Skipped "${title}": ${plan.reason}.`);
    describe.skip(`${title} (skipped: ${plan.reason})`, body);
  } else {
    describe(title, () => {
      it(`needs ${tools.map((t) => t.name).join(' and ')}, which CI installs`, () => {
        throw new Error(`${plan.reason} (CI is set, so a missing tool is a failure, not a skip).`);
      });
    });
  }
}
