/**
 * Every attack row has a test or a written reason: both tables are read from ../shared/reference at
 * test time (security-requirements.md §7, asmx-compatibility.md §2) and compared with
 * attack-coverage.ts. A named test must exist as an `it()`/`test()` title in its file (read with the
 * TypeScript parser, so comments and strings elsewhere do not count), and must not be skipped.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { type AttackTable, attackCoverage, type Coverage } from './attack-coverage.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

const TABLES: Record<AttackTable, { file: string; heading: RegExp }> = {
  payframe: {
    file: 'shared/reference/security-requirements.md',
    heading: /^## 7\. Attack and bad-input table/,
  },
  xml: { file: 'shared/reference/asmx-compatibility.md', heading: /^## 2\. XML attack matrix/ },
};

/** The reference lives beside the repository (`../shared/reference/`); look in every ancestor. */
function readReference(relative: string): string {
  const tried: string[] = [];
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    tried.push(join(dir, relative));
    if (dirname(dir) === dir) break;
  }
  const found = tried.find((path) => existsSync(path));
  if (found === undefined) throw new Error(`Cannot find ${relative}; looked at:\n  ${tried.join('\n  ')}`);
  return readFileSync(found, 'utf8');
}

interface AttackRow {
  row: number;
  attack: string;
}

/** The numbered rows of the first Markdown table under `heading`. */
function parseAttackTable(markdown: string, heading: RegExp): AttackRow[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => heading.test(l));
  if (start < 0) throw new Error(`heading ${heading} not found`);
  const rows: AttackRow[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,2} /.test(line)) break;
    const m = /^\|\s*(\d+)\s*\|\s*([^|]+?)\s*\|/.exec(line);
    if (m) rows.push({ row: Number(m[1]), attack: m[2]! });
  }
  return rows;
}

const TEST_CALLEE = /^(it|test)(\.(only|concurrent|sequential|serial|fails|fail|slow))*$/;
const SKIPPED_CALLEE = /^(it|test)\.(skip|todo|fixme)\b|^(it|test)\.\w+\.(skip|todo|fixme)\b/;

/** Literal text of a title expression; `${…}` parts keep their source text. */
function literalText(node: ts.Expression, source: ts.SourceFile): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    return (
      node.head.text +
      node.templateSpans.map((s) => `\${${s.expression.getText(source)}}${s.literal.text}`).join('')
    );
  }
  return null;
}

/**
 * Titles an identifier can take when it is the loop variable of `for (const [name, …] of table)`
 * and `table` is an array literal in the file (server/soap/attacks.test.ts names its cases so).
 */
function loopTitles(id: ts.Identifier, source: ts.SourceFile): string[] {
  for (let node: ts.Node | undefined = id.parent; node; node = node.parent) {
    if (!ts.isForOfStatement(node) || !ts.isVariableDeclarationList(node.initializer)) continue;
    const binding = node.initializer.declarations[0]?.name;
    if (!binding) continue;
    let index: number | null = null;
    if (ts.isIdentifier(binding) && binding.text === id.text) index = -1;
    if (ts.isArrayBindingPattern(binding)) {
      binding.elements.forEach((e, i) => {
        if (ts.isBindingElement(e) && ts.isIdentifier(e.name) && e.name.text === id.text) index = i;
      });
    }
    if (index === null) continue;
    let list: ts.Expression = node.expression;
    if (ts.isIdentifier(list)) {
      const name = list.text;
      let found: ts.Expression | undefined;
      const visit = (n: ts.Node): void => {
        if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.name.text === name && n.initializer) {
          found = n.initializer;
        }
        ts.forEachChild(n, visit);
      };
      visit(source);
      if (!found) return [];
      list = found;
    }
    if (!ts.isArrayLiteralExpression(list)) return [];
    const at = index as number;
    return list.elements.flatMap((e) => {
      const item = at < 0 ? e : ts.isArrayLiteralExpression(e) ? e.elements[at] : undefined;
      const text = item ? literalText(item, source) : null;
      return text === null ? [] : [text];
    });
  }
  return [];
}

interface TestTitles {
  active: string[];
  skipped: string[];
}

/** The `it()`/`test()` titles of a test file (`.each` templates included, `%s` left as is). */
function testTitles(path: string, text: string): TestTitles {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const titles: TestTitles = { active: [], skipped: [] };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.arguments.length > 0) {
      // it('…'), it.only('…'), or it.each([…])('…').
      const callee = ts.isCallExpression(node.expression) ? node.expression.expression : node.expression;
      const name = callee.getText(source).replace(/\s+/g, '');
      const base = name.replace(/\.each$/, '');
      const isTest = TEST_CALLEE.test(base);
      const isSkipped = SKIPPED_CALLEE.test(base);
      if (isTest || isSkipped) {
        const first = node.arguments[0]!;
        const texts = ts.isIdentifier(first) ? loopTitles(first, source) : [literalText(first, source)];
        for (const title of texts) if (title !== null) (isTest ? titles.active : titles.skipped).push(title);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return titles;
}

function kindOf(c: Coverage): string {
  if ('tests' in c) return `${c.tests.length} test${c.tests.length === 1 ? '' : 's'}`;
  return 'notApplicable' in c ? 'not applicable' : 'out of scope';
}

const titleCache = new Map<string, TestTitles>();
function titlesOf(file: string): TestTitles {
  let titles = titleCache.get(file);
  if (!titles) {
    titles = testTitles(file, readFileSync(join(REPO, file), 'utf8'));
    titleCache.set(file, titles);
  }
  return titles;
}

/** A `*.suite.ts` runs only when a test file beside it imports it (server/crash/crash.test.ts). */
function importedByATest(file: string): boolean {
  const dir = dirname(join(REPO, file));
  const name = file.slice(file.lastIndexOf('/') + 1);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts'))
    .some((f) => readFileSync(join(dir, f), 'utf8').includes(`'./${name}'`));
}

const MIN_REASON = 60;

describe('the attack tables are parsed', () => {
  it('reads numbered rows, and only those of the named table', () => {
    const md = [
      '## 1. Other',
      '| # | a | b |',
      '| 9 | not this | x |',
      '## 7. Attack and bad-input table',
      '| # | Attack | Outcome |',
      '|---|---|---|',
      '| 1 | first | ok |',
      '| 2 | second | ok |',
      '## Sources',
      '| 3 | after | x |',
    ].join('\n');
    expect(parseAttackTable(md, TABLES.payframe.heading)).toEqual([
      { row: 1, attack: 'first' },
      { row: 2, attack: 'second' },
    ]);
  });

  it('finds literal, template, .each and table-driven titles; skipped ones apart; not comments', () => {
    const titles = testTitles(
      'x.test.ts',
      [
        "// it('in a comment')",
        "it('plain one', () => {});",
        'test(`template ${n} value`, () => {});',
        "it.each([1])('each %s title', () => {});",
        "it.skip('skipped one', () => {});",
        "const cases = [['1 first case', 'x'], ['2 second case', 'y']];",
        'for (const [name, payload] of cases) it(name, () => {});',
        'const s = \'it("inside a string")\';',
      ].join('\n'),
    );
    expect(titles.active).toEqual([
      'plain one',
      'template ${n} value',
      'each %s title',
      '1 first case',
      '2 second case',
    ]);
    expect(titles.skipped).toEqual(['skipped one']);
  });
});

describe('every attack row has a test or a written reason', () => {
  const tables = (Object.keys(TABLES) as AttackTable[]).map((table) => ({
    table,
    rows: parseAttackTable(readReference(TABLES[table].file), TABLES[table].heading),
  }));

  it('the reference tables are where they were (33 Payframe rows, 26 XML rows or more)', () => {
    const count = Object.fromEntries(tables.map(({ table, rows }) => [table, rows.length]));
    expect(count['payframe']).toBeGreaterThanOrEqual(33);
    expect(count['xml']).toBeGreaterThanOrEqual(24);
    for (const { rows } of tables) expect(rows.map((r) => r.row)).toEqual(rows.map((_, i) => i + 1));
  });

  it.each(tables)('$table: no row is missing, none is stale, every test exists', ({ table, rows }) => {
    const problems: string[] = [];
    const registry = attackCoverage[table];
    const numbers = new Set(rows.map((r) => r.row));
    for (const key of Object.keys(registry)) {
      if (!numbers.has(Number(key))) problems.push(`${table} row ${key}: not in the reference table`);
    }
    const summary: string[] = [];
    for (const { row, attack } of rows) {
      const entry = registry[row];
      const where = `${table} row ${row} (${attack.slice(0, 50)})`;
      if (!entry) {
        problems.push(`${where}: no entry in attack-coverage.ts`);
        continue;
      }
      summary.push(`  ${String(row).padStart(2)}  ${kindOf(entry).padEnd(15)} ${attack.slice(0, 70)}`);
      if ('tests' in entry) {
        if (entry.tests.length === 0) problems.push(`${where}: an empty test list`);
        if (entry.remaining !== undefined && entry.remaining.trim().length < MIN_REASON) {
          problems.push(`${where}: "remaining" is too short to explain anything`);
        }
        for (const ref of entry.tests) {
          if (!/\.(test|spec|suite)\.ts$/.test(ref.file))
            problems.push(`${where}: ${ref.file} is not a test file`);
          if (!existsSync(join(REPO, ref.file))) {
            problems.push(`${where}: ${ref.file} does not exist`);
            continue;
          }
          if (ref.file.endsWith('.suite.ts') && !importedByATest(ref.file)) {
            problems.push(`${where}: ${ref.file} is imported by no *.test.ts beside it, so it never runs`);
          }
          const titles = titlesOf(ref.file);
          if (ref.name.trim().length < 8)
            problems.push(`${where}: "${ref.name}" is too short to name one test`);
          if (!titles.active.some((title) => title.includes(ref.name))) {
            const skipped = titles.skipped.some((title) => title.includes(ref.name));
            problems.push(
              `${where}: ${ref.file} has no ${skipped ? 'running ' : ''}test titled "…${ref.name}…"${skipped ? ' (it is skipped)' : ''}`,
            );
          }
        }
      } else {
        const reason = 'notApplicable' in entry ? entry.notApplicable : entry.outOfScope;
        if (reason.trim().length < MIN_REASON) problems.push(`${where}: the reason is too short`);
      }
    }
    const counts = rows.reduce(
      (acc, { row }) => {
        const e = registry[row];
        const k = !e
          ? 'missing'
          : 'tests' in e
            ? 'tested'
            : 'notApplicable' in e
              ? 'notApplicable'
              : 'outOfScope';
        acc[k] = (acc[k] ?? 0) + 1;
        return acc;
      },
      {} as Record<string, number>,
    );
    process.stdout.write(
      `attack coverage, ${TABLES[table].file} (${rows.length} rows): ${JSON.stringify(counts)}\n${summary.join('\n')}\n`,
    );
    expect(problems).toEqual([]);
  });
});
