/**
 * Finds import cycles among the project's TypeScript modules (type-only imports included: a cycle
 * of types is still two modules that cannot be understood one without the other). Relative
 * specifiers only; packages are not followed.
 */
import fs from 'node:fs';
import path from 'node:path';

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+'(\.{1,2}\/[^']+)'/g;

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) sources(p, out);
    else if (/\.tsx?$/.test(p) && !/\.test\.tsx?$/.test(p)) out.push(p);
  }
  return out;
}

/** The import graph of the modules under `dirs` (paths relative to `root`). */
export function importGraph(root: string, dirs: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of dirs.flatMap((d) => sources(path.join(root, d)))) {
    const text = fs.readFileSync(file, 'utf8');
    const deps = [...text.matchAll(IMPORT)].map((m) => path.join(path.dirname(file), m[1]!));
    graph.set(
      path.relative(root, file),
      deps.map((d) => path.relative(root, d)),
    );
  }
  return graph;
}

/** Every cycle found by a depth-first walk, as `a -> b -> a`. */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const dep of graph.get(node) ?? []) {
      if (!graph.has(dep)) continue;
      if (state.get(dep) === 'open') cycles.push([...stack.slice(stack.indexOf(dep)), dep].join(' -> '));
      else if (!state.has(dep)) visit(dep);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}
