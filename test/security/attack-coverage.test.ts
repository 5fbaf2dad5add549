/**
 * Every attack row has a test or a written reason: both attack tables are read from docs/security.md
 * at test time and compared with attack-coverage.ts. A named test must exist as an `it()`/`test()`
 * title in its file (read with the TypeScript parser, so comments and strings elsewhere do not
 * count), and must not be skipped.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { type AttackTable, attackCoverage, type Coverage } from './attack-coverage.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const SECURITY_DOC = 'docs/security.md';

const TABLES: Record<AttackTable, { heading: string; header: readonly string[] }> = {
  payframe: {
    heading: '## Attack table: checkout, widget and gateway',
    header: ['#', 'Attack or bad input', 'Safe outcome'],
  },
  xml: {
    heading: '## Attack table: XML sent to the Transaction Service',
    header: ['#', 'Case', 'Payload', 'Safe outcome'],
  },
};

interface AttackRow {
  row: number;
  attack: string;
}

/**
 * The rows of the table under `heading` (the section's only table): its header must be `header`,
 * and every row a number, a non-empty attack and a non-empty outcome in as many cells.
 */
function parseAttackTable(markdown: string, heading: string, header: readonly string[]): AttackRow[] {
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`heading "${heading}" not found`);
  const end = lines.findIndex((l, i) => i > start && /^#{1,2} /.test(l));
  const table = lines
    .slice(start + 1, end < 0 ? undefined : end)
    .filter((l) => l.startsWith('|'))
    .map((l) =>
      l
        .slice(1, l.endsWith('|') ? -1 : undefined)
        .split('|')
        .map((c) => c.trim()),
    )
    .filter((cells) => !cells.every((c) => /^:?-+:?$/.test(c)));
  const [head, ...body] = table;
  if (head?.join('|') !== header.join('|')) {
    throw new Error(
      `"${heading}": expected a table headed ${header.join(' | ')}, found ${head?.join(' | ')}`,
    );
  }
  return body.map((cells) => {
    const [number = '', attack = ''] = cells;
    if (cells.length !== header.length || !/^\d+$/.test(number) || cells.some((c) => c === '')) {
      throw new Error(`"${heading}": unreadable row | ${cells.join(' | ')} |`);
    }
    return { row: Number(number), attack };
  });
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

/** A `*.suite.ts` runs only when a test file beside it imports it (test/system/crash/crash.test.ts). */
function importedByATest(file: string): boolean {
  const dir = dirname(join(REPO, file));
  const name = file.slice(file.lastIndexOf('/') + 1);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts'))
    .some((f) => readFileSync(join(dir, f), 'utf8').includes(`'./${name}'`));
}

const MIN_REASON = 60;

describe('the attack tables are parsed', () => {
  it('reads the rows of the named table only, and refuses rows it cannot read', () => {
    const { heading, header } = TABLES.payframe;
    const page = (...rows: string[]) =>
      [
        '## Other',
        '| # | Attack or bad input | Safe outcome |',
        '| 9 | not this | x |',
        heading,
        '',
        'Some prose.',
        '',
        '| # | Attack or bad input | Safe outcome |',
        '| --- | --- | --- |',
        ...rows,
        '## Next',
        '| 3 | after | x |',
      ].join('\n');
    expect(parseAttackTable(page('| 1 | first | ok |', '| 2 | second | ok |'), heading, header)).toEqual([
      { row: 1, attack: 'first' },
      { row: 2, attack: 'second' },
    ]);
    for (const bad of ['| x | unnumbered | ok |', '| 2 | no outcome |', '| 2 | empty outcome |  |']) {
      expect(() => parseAttackTable(page('| 1 | first | ok |', bad), heading, header), bad).toThrow();
    }
    expect(() => parseAttackTable(page('| 1 | first | ok |'), heading, ['#', 'Case', 'Outcome'])).toThrow();
    expect(() => parseAttackTable(page(), '## Absent', header)).toThrow();
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
    rows: parseAttackTable(
      readFileSync(join(REPO, SECURITY_DOC), 'utf8'),
      TABLES[table].heading,
      TABLES[table].header,
    ),
  }));

  it(`${SECURITY_DOC} has both tables (33 checkout rows, 26 XML rows or more), numbered from 1`, () => {
    const count = Object.fromEntries(tables.map(({ table, rows }) => [table, rows.length]));
    expect(count['payframe']).toBeGreaterThanOrEqual(33);
    expect(count['xml']).toBeGreaterThanOrEqual(26);
    for (const { rows } of tables) expect(rows.map((r) => r.row)).toEqual(rows.map((_, i) => i + 1));
  });

  it.each(tables)('$table: no row is missing, none is stale, every test exists', ({ table, rows }) => {
    const problems: string[] = [];
    const registry = attackCoverage[table];
    const numbers = new Set(rows.map((r) => r.row));
    for (const key of Object.keys(registry)) {
      if (!numbers.has(Number(key))) problems.push(`${table} row ${key}: not in ${SECURITY_DOC}`);
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
      `attack coverage, ${SECURITY_DOC}, ${table} table (${rows.length} rows): ${JSON.stringify(counts)}\n${summary.join('\n')}\n`,
    );
    expect(problems).toEqual([]);
  });
});
