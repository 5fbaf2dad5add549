import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cyclesOf, importGraph } from './import-cycles.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('import cycles', () => {
  it('finds a cycle when there is one (the detector works)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(cyclesOf(graph)).toEqual(['a.ts -> b.ts -> c.ts -> a.ts']);
  });

  it('server, shared and widget have none (the wire layer, gateway and checkout each depend one way)', () => {
    const graph = importGraph(ROOT, ['server', 'shared', 'widget']);
    expect(graph.size).toBeGreaterThan(100);
    expect(cyclesOf(graph)).toEqual([]);
  });
});
