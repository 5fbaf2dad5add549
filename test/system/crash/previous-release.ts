/**
 * The previous release of Payframe, built beside this checkout, for the rolling-upgrade suite
 * (rolling-upgrade.suite.ts; server/db/README.md).
 *
 * Payframe has no release tags; what a rolling upgrade must survive is a schema change, so "the
 * previous release" is the code just before the newest migration: the parent of the commit that
 * added the newest file in server/db/migrations. It is the build that runs on the schema one step
 * older than this one's, and is the one the newest migration must not break. When the newest
 * migration is not committed yet, it is HEAD. PAYFRAME_PREVIOUS_RELEASE names another commit (a
 * tag, a hash) to upgrade from.
 *
 * It needs git history: `npm run test:system` in CI runs on a `git archive` copy, where the suite is skipped
 * with the reason `findPreviousRelease` gives.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../../kit/databases.ts';
import type { Build } from './servers.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const MIGRATIONS = 'server/db/migrations';

function git(args: string[], cwd = ROOT): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

export interface PreviousRelease {
  /** The commit, in full. */
  commit: string;
  /** How it was chosen, for the suite's output. */
  why: string;
  /** The migrations this checkout has and it has not (what the new build applies). */
  newMigrations: string[];
}

/** The previous release, or why there is none to test against (no git history, a shallow clone). */
export function findPreviousRelease(): PreviousRelease | { skip: string } {
  try {
    if (git(['rev-parse', '--show-toplevel']) !== path.resolve(ROOT).replace(/\/$/, '')) {
      return { skip: 'this directory is not the root of a git checkout' };
    }
  } catch {
    return { skip: 'no git history here (a `git archive` copy, as in CI)' };
  }
  const newest = fs
    .readdirSync(path.join(ROOT, MIGRATIONS))
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .at(-1);
  if (!newest) return { skip: 'no migrations' };
  let commit: string;
  let why: string;
  try {
    const named = process.env.PAYFRAME_PREVIOUS_RELEASE;
    if (named) {
      commit = git(['rev-parse', '--verify', `${named}^{commit}`]);
      why = `PAYFRAME_PREVIOUS_RELEASE=${named}`;
    } else {
      const added = git(['log', '--diff-filter=A', '--format=%H', '-1', '--', `${MIGRATIONS}/${newest}`]);
      if (!added) {
        commit = git(['rev-parse', 'HEAD']);
        why = `HEAD (${newest} is not committed yet)`;
      } else {
        commit = git(['rev-parse', '--verify', `${added}^`]);
        why = `the parent of ${added.slice(0, 10)}, which added ${newest}`;
      }
    }
  } catch (err) {
    return {
      skip: `the previous release is not in this clone's history (${(err as Error).message.split('\n')[0]})`,
    };
  }
  const theirs = new Set(
    git(['ls-tree', '--name-only', commit, `${MIGRATIONS}/`])
      .split('\n')
      .map((f) => path.basename(f)),
  );
  const ours = fs.readdirSync(path.join(ROOT, MIGRATIONS)).filter((f) => f.endsWith('.sql'));
  const newMigrations = ours.filter((f) => !theirs.has(f)).sort();
  return { commit, why, newMigrations };
}

/**
 * Exports `commit` into a temporary directory with `git archive`, links this checkout's
 * node_modules into it, and compiles its server (its own scripts/build-server.ts): what `npm start`
 * runs, dist/server/payframe.js. The widget's pages are not built; the pay API does not need them.
 * Returns the build and a note when its dependencies differ from those installed here.
 */
export function buildRelease(commit: string): { build: Build; dir: string; note: string | null } {
  const dir = tempDir('payframe-release-');
  const archive = path.join(dir, 'release.tar');
  git(['archive', '--format=tar', '-o', archive, commit]);
  const root = path.join(dir, 'root');
  fs.mkdirSync(root);
  execFileSync('tar', ['-xf', archive, '-C', root]);
  fs.rmSync(archive);
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-server.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const deps = (r: string) =>
    JSON.stringify(
      (
        JSON.parse(fs.readFileSync(path.join(r, 'package.json'), 'utf8')) as {
          dependencies?: unknown;
        }
      ).dependencies ?? {},
    );
  const note =
    deps(root) === deps(ROOT)
      ? null
      : "its package.json dependencies differ from this checkout's: it runs on the ones installed here";
  return { build: { root, entry: 'dist/server/payframe.js' }, dir, note };
}
