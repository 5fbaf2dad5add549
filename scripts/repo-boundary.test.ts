/**
 * `npm test` passes on a fresh clone with nothing beside it: no project file reads, imports or runs
 * a path outside the repository (repo-boundary.ts says what counts). The detector is tested first
 * on files made up here, so a detector that finds nothing cannot pass for a clean repository.
 *
 * The made-up files spell `..` as `{up}` and the workspace and home folders as `{work}` and
 * `{home}`, so that this file itself passes the scan at the end.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findEscapes, projectFiles, scanRepository } from './repo-boundary.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SPELLED: Record<string, string> = {
  '{up}': '..',
  '{work}': join('/', 'work'),
  '{home}': join('/', 'home'),
};
const spell = (text: string) => text.replace(/\{(up|work|home)\}/g, (name) => SPELLED[name]!);

/** The findings for `lines`, as if they were the file `file` of the repository. */
function scan(file: string, ...lines: string[]): string[] {
  return findEscapes(ROOT, join(ROOT, file), spell(lines.join('\n'))).map((f) => `${f.line}: ${f.why}`);
}

const climbs = (line: number, path: string) => `${line}: ${spell(path)} climbs above the repository root`;
const absolute = (line: number, path: string) => `${line}: absolute path ${spell(path)}`;
const builds = (line: number, tail: string) =>
  expect.stringMatching(new RegExp(`^${line}: builds /.*${tail}, outside the repository$`));

describe('the repository-boundary detector', () => {
  it('flags a relative path that climbs above the root, from where the file is', () => {
    expect(scan('shared/contract/a.test.ts', "const spec = '{up}/{up}/{up}/shared/spec/x.md';")).toEqual([
      climbs(1, '{up}/{up}/{up}/shared/spec/x.md'),
    ]);
    expect(scan('vite.config.ts', "import style from '{up}/shared/STYLE.md';")).toEqual([
      climbs(1, '{up}/shared/STYLE.md'),
    ]);
    expect(scan('bench/a.js', 'const dir = `{up}/{up}/${name}/x`;')).toEqual([climbs(1, '{up}/{up}/')]);
  });

  it('flags a path built from the file’s own location that lands outside', () => {
    expect(
      scan(
        'server/security/a.test.ts',
        "const up = new URL('{up}/{up}/{up}/', import.meta.url);",
        "const doc = readFileSync(fileURLToPath(new URL('{up}/{up}/{up}/shared/x.md', import.meta.url)));",
      ),
    ).toEqual([
      builds(1, ''),
      climbs(1, '{up}/{up}/{up}/'),
      builds(2, '/shared/x.md'),
      climbs(2, '{up}/{up}/{up}/shared/x.md'),
    ]);
    expect(
      scan(
        'scripts/a.ts',
        'const here = dirname(fileURLToPath(import.meta.url));',
        "const root = path.resolve(here, '{up}');",
        "const beside = join(root, '{up}', 'shared');",
      ),
    ).toEqual([builds(3, '/shared')]);
    expect(scan('scripts/a.cjs', "const x = require('path').join(__dirname, '{up}', '{up}');")).toEqual([
      builds(1, ''),
    ]);
  });

  it('flags absolute paths into a workspace or home folder', () => {
    expect(scan('server/a.ts', "readFileSync('{work}/shared/STYLE.md');")).toEqual([
      absolute(1, '{work}/shared/STYLE.md'),
    ]);
    expect(scan('e2e/a.ts', "const f = 'file://{home}/me/payframe/x';")).toEqual([
      absolute(1, 'file://{home}/me/payframe/x'),
    ]);
  });

  it('flags a climb to the filesystem root ("look in every ancestor")', () => {
    expect(
      scan(
        'server/a.ts',
        'for (let dir = here; ; dir = dirname(dir)) {',
        '  if (existsSync(join(dir, name))) return dir;',
        '  if (dirname(dir) === dir) break;',
        '}',
      ),
    ).toEqual(['3: climbs dirname() to the filesystem root']);
  });

  it('reads shell scripts and JSON as text', () => {
    expect(scan('check.sh', '#!/bin/sh', 'cat {up}/shared/DESIGN.md')).toEqual([
      climbs(2, '{up}/shared/DESIGN.md'),
    ]);
    expect(scan('.ci/check', '#!/bin/sh', 'cat {up}/{up}/shared/DESIGN.md', 'ls {work}')).toEqual([
      climbs(2, '{up}/{up}/shared/DESIGN.md'),
      absolute(3, '{work}'),
    ]);
    expect(scan('.ci/check.sh', 'cd "$(dirname "$0")/{up}" && npm test')).toEqual([]);
    expect(scan('server/tsconfig.json', '{ "extends": "{up}/{up}/tsconfig.base.json" }')).toEqual([
      climbs(1, '{up}/{up}/tsconfig.base.json'),
    ]);
    expect(scan('server/tsconfig.json', '{ "extends": "{up}/tsconfig.base.json" }')).toEqual([]);
  });

  it('leaves paths inside the repository alone', () => {
    expect(
      scan(
        'server/security/a.test.ts',
        "import { operations } from '{up}/{up}/shared/contract/index.ts';",
        "const REPO = fileURLToPath(new URL('{up}/{up}/', import.meta.url));",
        "const doc = readFileSync(join(REPO, 'docs/security.md'), 'utf8');",
        "const tmp = mkdtempSync(join(os.tmpdir(), 'payframe-'));",
        "const url = 'https://shop.example/work/{up}/x';",
      ),
    ).toEqual([]);
  });

  it('lets a line opt out only with a written reason', () => {
    const payload = "const traversal = '{up}/{up}/{up}/{up}/etc/passwd';";
    expect(
      scan('server/a.test.ts', `${payload} // repo-boundary-ignore: an attack payload, not a path`),
    ).toEqual([]);
    expect(scan('server/a.test.ts', `${payload} // repo-boundary-ignore: ok`)).toHaveLength(1);
  });

  it('scans the project’s code, JSON and scripts, and not node_modules, dist or data', () => {
    const files = projectFiles(ROOT).map((f) => f.slice(ROOT.length));
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'scripts/test.js',
        'scripts/repo-boundary.ts',
        'shared/contract/contract.test.ts',
        'server/tsconfig.json',
        '.ci/run',
      ]),
    );
    expect(files.filter((f) => /^(node_modules|dist|data|\.git)\//.test(f))).toEqual([]);
  });
});

describe('the repository', () => {
  // Every file of the repository, parsed: a few seconds on a quiet machine, half a minute on a busy one.
  it('reads nothing outside its root', { timeout: 120_000 }, () => {
    expect(scanRepository(ROOT).map((f) => `${f.file}:${f.line}: ${f.why}`)).toEqual([]);
  });
});
