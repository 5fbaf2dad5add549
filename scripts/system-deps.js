// System packages the tests need that npm cannot provide: Debian's Chromium for the browser tests
// (Playwright's own browser download is not available here); for the system tier also python3-zeep,
// a third-party SOAP client for the conformance tests, nginx, to run the reverse-proxy
// configuration, systemd-analyze, to check the service unit, and a CJK font for the Japanese and Chinese screenshots. Installed with apt when
// missing and running as root; otherwise the error says exactly what to run.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';

export const SYSTEM_DEPS = [
  {
    name: 'Chromium',
    aptPackage: 'chromium',
    tiers: ['test', 'system'],
    present: () => fs.existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'),
  },
  {
    name: 'python3-zeep',
    tiers: ['system'],
    aptPackage: 'python3-zeep',
    present: () => spawnSync('/usr/bin/python3', ['-c', 'import zeep'], { stdio: 'ignore' }).status === 0,
  },
  {
    // deploy/nginx/payframe.conf is run for real in front of Payframe (test/system/nginx.test.ts).
    name: 'nginx',
    tiers: ['system'],
    aptPackage: 'nginx-light',
    present: () => fs.existsSync('/usr/sbin/nginx'),
  },
  {
    // deploy/systemd/payframe.service is checked by `systemd-analyze verify`
    // (test/system/systemd-unit.test.ts); Debian's systemd package installs in a container too.
    name: 'systemd-analyze',
    tiers: ['system'],
    aptPackage: 'systemd',
    present: () => fs.existsSync('/usr/bin/systemd-analyze'),
  },
  {
    // Japanese and Chinese glyphs for the e2e screenshots of the hosted page in those languages
    // (e2e/37-languages.spec.ts): without a CJK font Chromium draws empty boxes.
    name: 'a CJK font',
    tiers: ['system'],
    aptPackage: 'fonts-droid-fallback',
    present: () => fs.existsSync('/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf'),
  },
];

/** Installs what `tier` ('test': `npm test`; 'system': `npm run test:system`) needs and is missing. */
export function ensureSystemDeps(tier, log = (line) => process.stdout.write(`${line}\n`)) {
  const needed = SYSTEM_DEPS.filter((d) => d.tiers.includes(tier));
  const missing = needed.filter((d) => !d.present());
  if (missing.length === 0) return;
  const packages = missing.map((d) => d.aptPackage);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = fs.existsSync('/usr/bin/apt-get');
  if (!isRoot || !hasApt) {
    throw new Error(
      `Missing: ${missing.map((d) => d.name).join(', ')}. Install them with:\n` +
        `  sudo apt-get update && sudo apt-get install -y ${packages.join(' ')}\n` +
        '(or set CHROMIUM_PATH to a Chromium binary), then run the tests again.',
    );
  }
  log(`Installing ${packages.join(', ')} with apt-get…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], {
    stdio: 'inherit',
    env,
  });
  const still = needed.filter((d) => !d.present());
  if (still.length)
    throw new Error(`apt-get ran, but these are still missing: ${still.map((d) => d.name).join(', ')}`);
}
