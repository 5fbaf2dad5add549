// Before `npm start` (npm's prestart): the compiled server must exist, and when the TypeScript
// beside it is newer than the build, say so, since `npm start` runs the build and not the source.
// Plain JavaScript and node: only: it runs where only the production dependencies are installed,
// and it lives in bin/, which the production install copies (README.md, "Production install").
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundle = path.join(root, 'dist', 'server', 'payframe.js');

if (!fs.existsSync(bundle)) {
  process.stderr.write(
    'Payframe is not built: dist/server/payframe.js is missing.\n' +
      'Run `npm run build` first (it needs the development dependencies: `npm ci`), then `npm start`.\n',
  );
  process.exit(1);
}

/** The newest .ts file under dir (skipping tests), as a modification time in ms. */
function newestSource(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
    newest = Math.max(newest, fs.statSync(path.join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  }
  return newest;
}

const built = fs.statSync(bundle).mtimeMs;
const sources = ['server', 'shared'].map((d) => path.join(root, d)).filter((d) => fs.existsSync(d));
if (sources.some((d) => newestSource(d) > built)) {
  process.stderr.write(
    'Note: server/ or shared/ changed after the last build; `npm start` runs the build.\n' +
      'Run `npm run build` to include the changes (or `npm run dev` to run the TypeScript directly).\n',
  );
}
