/**
 * Finds places where a project file reaches outside the repository: `npm test` must pass on a fresh
 * clone with nothing beside it (README, "Two commands"), so no source, test, script or config may
 * read, import or run a path above the repository root. repo-boundary.test.ts runs it over the
 * whole project.
 *
 * What counts as reaching out:
 * - a relative path in a string (`'../x'`, the literal start of `` `../../${name}` ``) that, taken
 *   from the file's own folder, lands above the root;
 * - a path the file builds from its own location — `new URL('../..', import.meta.url)`,
 *   `join(__dirname, '..', '..')`, `dirname(fileURLToPath(import.meta.url))`, and consts holding
 *   them — that lands above the root;
 * - an absolute path into a home or workspace folder (`/work/…`, `/home/…`, `/Users/…`);
 * - in code, a loop that climbs `dirname()` until the filesystem root ("look in every ancestor").
 * Shell scripts and JSON are scanned as text for the same paths.
 *
 * A line may opt out with a comment `repo-boundary-ignore: <reason>` (a reason of 10 characters or
 * more), for strings that are data rather than paths, such as an attack payload in a test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

export interface Finding {
  /** Repository-relative path, with `/`. */
  readonly file: string;
  readonly line: number;
  readonly why: string;
}

const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'data', '.git', 'test-results', 'playwright-report']);
const CODE = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']);
const TEXT = new Set(['.json', '.sh']);
const IGNORE = /repo-boundary-ignore: \S.{9,}/;
/** Absolute paths into somebody's workspace or home: never part of a clone. */
const MACHINE_PATH =
  /(?:^|[\s'"`=:(,[])((?:file:\/\/)?\/(?:work|home|Users)(?:\/[^\s'"`;|&<>(){},]*)?)(?=$|[\s'"`;|&<>(){},\]])/g;
/** Relative paths: `..`, `../x`, `./../x`; not the tail of a longer path (`a/..`, `$(dirname)/..`). */
const RELATIVE_PATH = /(?<![\w./~$@%-])(\.\.?(?:\/[^\s'"`;|&<>(){},]*)?)/g;

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The project files to scan: code, JSON, shell scripts and extensionless scripts with a shebang. */
export function projectFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(path);
      } else if (entry.isFile()) {
        const ext = extname(entry.name);
        if (CODE.has(ext) || TEXT.has(ext)) out.push(path);
        else if (ext === '' && readFileSync(path, 'latin1').startsWith('#!')) out.push(path);
      }
    }
  };
  walk(root);
  return out.sort();
}

/** What a string says, when it names a path outside `root` (taken from `dir` when relative). */
function textEscapes(root: string, dir: string, text: string): string[] {
  const why: string[] = [];
  for (const m of text.matchAll(MACHINE_PATH)) why.push(`absolute path ${m[1]}`);
  for (const m of text.matchAll(RELATIVE_PATH)) {
    const path = m[1]!;
    if (!path.split('/').includes('..')) continue;
    if (!isInside(root, resolve(dir, path))) why.push(`${path} climbs above the repository root`);
  }
  return why;
}

type Value = { readonly path: string } | { readonly text: string } | undefined;

/** Evaluates the path-building expressions of a file, as far as they are static. */
class PathEvaluator {
  readonly #file: string;
  readonly #consts = new Map<string, ts.Expression>();
  readonly #busy = new Set<string>();

  constructor(file: string, source: ts.SourceFile) {
    this.#file = file;
    const visit = (node: ts.Node): void => {
      if (
        ts.isVariableDeclaration(node) &&
        ts.isIdentifier(node.name) &&
        node.initializer &&
        ts.isVariableDeclarationList(node.parent) &&
        (node.parent.flags & ts.NodeFlags.Const) !== 0
      ) {
        this.#consts.set(node.name.text, node.initializer);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }

  value(node: ts.Expression): Value {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return { text: node.text };
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node)) {
      return this.value(node.expression);
    }
    if (ts.isTemplateExpression(node)) {
      const parts = [node.head.text];
      let isPath = false;
      for (const span of node.templateSpans) {
        const v = this.value(span.expression);
        if (v === undefined) return undefined;
        isPath ||= 'path' in v && parts.join('') === '';
        parts.push('path' in v ? v.path : v.text, span.literal.text);
      }
      return isPath ? { path: resolve(parts.join('')) } : { text: parts.join('') };
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const [l, r] = [this.value(node.left), this.value(node.right)];
      if (l === undefined || r === undefined) return undefined;
      const text = ('path' in l ? l.path : l.text) + ('path' in r ? r.path : r.text);
      return 'path' in l ? { path: resolve(text) } : { text };
    }
    if (ts.isPropertyAccessExpression(node)) {
      const name = node.name.text;
      if (ts.isMetaProperty(node.expression)) {
        if (name === 'url' || name === 'filename') return { path: this.#file };
        if (name === 'dirname') return { path: dirname(this.#file) };
        return undefined;
      }
      if (name === 'pathname' || name === 'href') return this.value(node.expression);
      return undefined;
    }
    if (ts.isIdentifier(node)) {
      if (node.text === '__dirname') return { path: dirname(this.#file) };
      if (node.text === '__filename') return { path: this.#file };
      const init = this.#consts.get(node.text);
      if (init === undefined || this.#busy.has(node.text)) return undefined;
      this.#busy.add(node.text);
      try {
        return this.value(init);
      } finally {
        this.#busy.delete(node.text);
      }
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'URL') {
      const [spec, base] = (node.arguments ?? []).map((a) => this.value(a));
      if (spec === undefined) return undefined;
      if (node.arguments?.length === 1) {
        if ('path' in spec) return spec;
        return spec.text.startsWith('file:') ? { path: fileURLToPath(spec.text) } : undefined;
      }
      if (base === undefined || !('path' in base) || !('text' in spec)) return undefined;
      const url = new URL(spec.text, pathToFileURL(base.path));
      return url.protocol === 'file:' ? { path: fileURLToPath(url) } : undefined;
    }
    if (ts.isCallExpression(node)) {
      const callee = ts.isPropertyAccessExpression(node.expression)
        ? node.expression.name.text
        : ts.isIdentifier(node.expression)
          ? node.expression.text
          : '';
      const args = node.arguments.map((a) => this.value(a));
      if (args.some((a) => a === undefined)) return undefined;
      const [first] = args as Exclude<Value, undefined>[];
      if (first === undefined) return undefined;
      if (['fileURLToPath', 'pathToFileURL', 'toString', 'normalize'].includes(callee) && 'path' in first) {
        return first;
      }
      if (callee === 'dirname' && 'path' in first) return { path: dirname(first.path) };
      if ((callee === 'join' || callee === 'resolve') && 'path' in first) {
        const rest = (args as Exclude<Value, undefined>[])
          .slice(1)
          .map((a) => ('path' in a ? a.path : a.text));
        return { path: callee === 'join' ? join(first.path, ...rest) : resolve(first.path, ...rest) };
      }
    }
    return undefined;
  }
}

const CLIMB = 'climbs dirname() to the filesystem root';

/** `dirname(dir) === dir` or `dir !== path.dirname(dir)`: the stop test of a climb to the root. */
function comparesWithItsDirname(node: ts.BinaryExpression, source: ts.SourceFile): boolean {
  const op = node.operatorToken.kind;
  const equality = [
    ts.SyntaxKind.EqualsEqualsEqualsToken,
    ts.SyntaxKind.ExclamationEqualsEqualsToken,
    ts.SyntaxKind.EqualsEqualsToken,
    ts.SyntaxKind.ExclamationEqualsToken,
  ];
  if (!equality.includes(op)) return false;
  const isDirnameOf = (call: ts.Expression, other: ts.Expression) =>
    ts.isCallExpression(call) &&
    /(^|\.)dirname$/.test(call.expression.getText(source)) &&
    call.arguments[0]?.getText(source) === other.getText(source);
  return isDirnameOf(node.left, node.right) || isDirnameOf(node.right, node.left);
}

function scriptKind(file: string): ts.ScriptKind {
  const ext = extname(file);
  if (ext === '.tsx') return ts.ScriptKind.TSX;
  if (ext === '.jsx') return ts.ScriptKind.JSX;
  if (['.js', '.mjs', '.cjs'].includes(ext)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

/** The places in one file (absolute `file`, its `text`) that reach outside `root`. */
export function findEscapes(root: string, file: string, text: string): Finding[] {
  const rel = relative(root, file).split(sep).join('/');
  const dir = dirname(file);
  const lines = text.split('\n');
  const found = new Map<string, Finding>();
  const report = (line: number, why: string) => {
    if (!IGNORE.test(lines[line - 1] ?? '')) found.set(`${line}:${why}`, { file: rel, line, why });
  };

  if (!CODE.has(extname(file))) {
    lines.forEach((l, i) => {
      for (const why of textEscapes(root, dir, l)) report(i + 1, why);
    });
    return [...found.values()];
  }

  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const evaluator = new PathEvaluator(file, source);
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node)) {
      for (const why of textEscapes(root, dir, node.text)) report(lineOf(node), why);
    }
    if (ts.isBinaryExpression(node) && comparesWithItsDirname(node, source)) report(lineOf(node), CLIMB);
    if (
      ts.isCallExpression(node) ||
      ts.isNewExpression(node) ||
      ts.isTemplateExpression(node) ||
      ts.isBinaryExpression(node)
    ) {
      const value = evaluator.value(node);
      if (value !== undefined && 'path' in value && !isInside(root, value.path)) {
        report(lineOf(node), `builds ${value.path}, outside the repository`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...found.values()];
}

/** Every finding of every project file under `root`. */
export function scanRepository(root: string): Finding[] {
  return projectFiles(root).flatMap((file) => findEscapes(root, file, readFileSync(file, 'utf8')));
}
