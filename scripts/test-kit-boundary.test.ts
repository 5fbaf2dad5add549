import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testKitImports } from './test-kit-boundary.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('the test kit stays apart from the product', () => {
  it('finds each way product code can reach the test kit (the detector works)', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'payframe-boundary-'));
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    };
    try {
      write('test/kit/app.ts', 'export const x = 1;\n');
      write('server/a.ts', "import { x } from '../test/kit/app.ts';\n");
      write('server/b.ts', "export * from './c.test.ts';\n");
      write('server/c.test.ts', "import { x } from '../test/kit/app.ts';\n"); // a test may
      write('shared/d.ts', "const m = await import('../e2e/helpers/checkout.ts');\n");
      write('widget/e.tsx', "const u = new URL('../test/x.py', import.meta.url);\n");
      write('server/f.ts', "import { y } from './g.ts';\nimport 'node:fs';\n"); // product to product
      expect(testKitImports(root).sort()).toEqual([
        'server/a.ts -> test/kit/app.ts',
        'server/b.ts -> server/c.test.ts',
        'shared/d.ts -> e2e/helpers/checkout.ts',
        'widget/e.tsx -> test/x.py',
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('server, shared and widget import nothing from test/, e2e/ or a test file', () => {
    expect(testKitImports(ROOT)).toEqual([]);
  });
});
