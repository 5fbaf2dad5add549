/**
 * `npm install` prints no EBADENGINE warning on the oldest Node.js that package.json's `engines`
 * admits (README: "Node.js 20.19 or newer"): every package the lock file installs, dev tools
 * included, admits that version too. When a dependency drops it, pin a version that still
 * supports it (package.json `overrides` for one pulled in by another) or raise `engines` and the
 * README together.
 */
import fs from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const read = (file: string) => JSON.parse(fs.readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'));
const pkg = read('package.json') as { engines: { node: string } };
const lock = read('package-lock.json') as {
  packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
};

describe('engines', () => {
  const oldest = semver.minVersion(pkg.engines.node)!.version;

  it('package.json admits Node.js 20.19, as the README says', () => {
    expect(oldest).toBe('20.19.0');
  });

  it('every locked package admits the oldest supported Node.js', () => {
    const refusing = Object.entries(lock.packages)
      .filter(([name, p]) => name !== '' && !Array.isArray(p.engines) && p.engines?.node)
      .filter(([, p]) => !semver.satisfies(oldest, (p.engines as { node: string }).node))
      .map(([name, p]) => `${name} (${(p.engines as { node: string }).node})`);
    expect(refusing).toEqual([]);
  });
});
