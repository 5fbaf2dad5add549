/**
 * The test kit lives apart from the product (test/, e2e/, and the `*.test.ts` files beside the
 * code): product code under server/, shared/ and widget/ never imports it. A product module that
 * did would ship test scaffolding in the build, or make a test's helper part of what runs in
 * production. Relative specifiers of static imports and re-exports, dynamic `import()` and
 * `new URL(…, import.meta.url)` are followed; packages are not.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Where the product's code lives. */
export const PRODUCT_DIRS = ['server', 'shared', 'widget'] as const;
/** Where the test kit lives. */
export const TEST_KIT_DIRS = ['test', 'e2e'] as const;

const TEST_FILE = /\.(test|spec)\.tsx?$/;
const SPECIFIERS = [
  /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+['"](\.{1,2}\/[^'"]+)['"]/g,
  /(?:^|\n)\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/g,
  /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g,
  /\bnew URL\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g,
];

function productSources(dir: string, out: string[] = []): string[] {
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) productSources(p, out);
    else if (/\.(tsx?|m?js)$/.test(p) && !TEST_FILE.test(p)) out.push(p);
  }
  return out;
}

/** Whether a repository-relative path is part of the test kit. */
export function isTestKit(relative: string): boolean {
  const [top] = relative.split(path.sep);
  return (TEST_KIT_DIRS as readonly string[]).includes(top!) || TEST_FILE.test(relative);
}

/** Every import of the test kit by product code under `root`, as `from -> to` (relative paths). */
export function testKitImports(root: string, dirs: readonly string[] = PRODUCT_DIRS): string[] {
  const found: string[] = [];
  for (const file of dirs.flatMap((d) => productSources(path.join(root, d)))) {
    const text = fs.readFileSync(file, 'utf8');
    for (const pattern of SPECIFIERS) {
      for (const [, specifier] of text.matchAll(pattern)) {
        const target = path.relative(root, path.resolve(path.dirname(file), specifier!));
        if (isTestKit(target)) found.push(`${path.relative(root, file)} -> ${target}`);
      }
    }
  }
  return found;
}
