/**
 * Compiles Payframe's server to JavaScript: `npm run build` runs it after the widget builds.
 *
 *   node --import tsx scripts/build-server.ts            → dist/server
 *   node --import tsx scripts/build-server.ts --out=DIR  → DIR (test/system/compiled-server.test.ts)
 *
 * esbuild bundles server/cli/entry.ts and everything it imports from server/ and shared/ into one
 * ES module, dist/server/payframe.js, with a source map beside it (`npm start` runs it with
 * --enable-source-maps, so a stack trace names the .ts file and line). Packages stay imports, resolved
 * from node_modules at run time: only `dependencies` may be among them (the test checks). The files
 * the server reads at run time (server/runtime-files.ts) are copied beside the bundle.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { RUNTIME_FILES } from '../server/runtime-files.ts';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SERVER_ENTRY = 'server/cli/entry.ts';
/** The compiled server's file name inside the output directory. */
export const BUNDLE = 'payframe.js';

export interface BuildResult {
  outDir: string;
  bundle: string;
  metafile: Metafile;
}

export async function buildServer(outDir = path.join(ROOT, 'dist', 'server')): Promise<BuildResult> {
  fs.rmSync(outDir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { [BUNDLE.replace(/\.js$/, '')]: SERVER_ENTRY },
    outdir: outDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    // Stack traces only need the mappings; the .ts files stay in the repository.
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  for (const file of Object.values(RUNTIME_FILES)) {
    if (file.compiled.startsWith('..')) continue; // found where it is (the widget build)
    fs.cpSync(path.join(ROOT, file.source), path.join(outDir, file.compiled), { recursive: true });
  }
  return { outDir, bundle: path.join(outDir, BUNDLE), metafile: result.metafile };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = process.argv.find((a) => a.startsWith('--out='))?.slice('--out='.length);
  const started = performance.now();
  const { bundle } = await buildServer(out ? path.resolve(out) : undefined);
  const kb = (fs.statSync(bundle).size / 1024).toFixed(0);
  process.stdout.write(
    `server compiled: ${path.relative(process.cwd(), bundle)} (${kb} KB) in ${(performance.now() - started).toFixed(0)} ms\n`,
  );
}
