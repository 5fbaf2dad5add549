/**
 * What the compiled server needs from node_modules: every module specifier in dist/server's import
 * graph (static imports, re-exports, `import("…")`, `require("…")`), followed through the bundle's
 * relative imports, classified as a Node built-in or a package. `npm ci --omit=dev` installs the
 * packages of `dependencies` and what they need; anything else the graph names is missing there
 * (test/system/compiled-server.test.ts).
 */
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';

export interface ImportScan {
  /** Every JavaScript file of the graph, absolute. */
  files: string[];
  /** Package names imported, with the file that imports each. */
  packages: Map<string, string>;
  /** Imports that cannot be checked: computed specifiers, or relative ones that do not resolve. */
  unresolved: string[];
}

const BUILTINS = new Set(builtinModules);

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

export function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || BUILTINS.has(specifier) || BUILTINS.has(specifier.split('/')[0]!);
}

/**
 * `runtimeImports` names the computed imports the graph may have, by the expression they import
 * (`import(rendererModuleUrl)`), with the file each loads: that file's graph is followed instead.
 */
export function scanImports(entry: string, runtimeImports: Record<string, string> = {}): ImportScan {
  const files: string[] = [];
  const packages = new Map<string, string>();
  const unresolved: string[] = [];
  const pending = [path.resolve(entry)];
  const seen = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    files.push(file);
    const text = fs.readFileSync(file, 'utf8');
    // A specifier computed at run time cannot be checked here: the graph must not have one.
    for (const m of text.matchAll(/\b(?:import|require)\(\s*(?!['"`])([^)]{0,40})/g)) {
      const known = Object.hasOwn(runtimeImports, m[1]!.trim()) ? runtimeImports[m[1]!.trim()] : undefined;
      if (known !== undefined && fs.existsSync(known)) pending.push(path.resolve(known));
      else unresolved.push(`${path.basename(file)}: computed import(${m[1]}…)`);
    }
    for (const { fileName: spec } of ts.preProcessFile(text, true, true).importedFiles) {
      if (spec.startsWith('.') || spec.startsWith('/')) {
        const target = path.resolve(path.dirname(file), spec);
        if (fs.existsSync(target) && fs.statSync(target).isFile()) pending.push(target);
        else unresolved.push(`${path.basename(file)}: ${spec}`);
      } else if (!isBuiltin(spec) && !packages.has(packageName(spec))) {
        packages.set(packageName(spec), file);
      }
    }
  }
  return { files, packages, unresolved };
}

interface LockPackage {
  dev?: boolean;
}

/**
 * The packages `npm ci --omit=dev` installs at the top of node_modules, from package-lock.json:
 * every `node_modules/<name>` entry not marked `dev`. (Nested copies come inside their parent.)
 */
export function productionPackages(lockFile: string): string[] {
  const lock = JSON.parse(fs.readFileSync(lockFile, 'utf8')) as { packages: Record<string, LockPackage> };
  return Object.entries(lock.packages)
    .filter(([key, p]) => /^node_modules\/(?:@[^/]+\/)?[^/]+$/.test(key) && !p.dev)
    .map(([key]) => key.slice('node_modules/'.length));
}
