/**
 * The expand/contract rules of server/db/README.md that can be checked by reading a migration's SQL
 * (migration-rules.test.ts runs them over every file). The rest — that a backfill is idempotent,
 * that the previous release really stopped using what a contract step removes — is the review's and
 * the rolling-upgrade suite's (test/system/crash/rolling-upgrade.suite.ts).
 */
import type { Migration } from './migrate.ts';

/**
 * Migrations up to this one were written before the rules. Their contract steps are marked like any
 * other, but may name their own version: they shipped with the code that stopped using what they
 * removed, as rolling upgrades were not yet supported.
 */
export const BEFORE_RULES = '0025';

/** `-- contract (unused since NNNN): what it removes or tightens, and why that is safe now.` */
const CONTRACT_MARKER = /--\s*contract\s*\(\s*unused since (\d{4})\s*\)\s*:\s*\S/i;

export interface Statement {
  /** The statement without its comments, lower-case, white space collapsed, string contents blanked. */
  sql: string;
  /** The comments before and inside it. */
  comments: string;
}

/** Splits a migration into statements: `;` outside comments, quoted strings and dollar quotes. */
export function splitStatements(text: string): Statement[] {
  const out: Statement[] = [];
  let sql = '';
  let comments = '';
  let i = 0;
  const flush = () => {
    const s = sql.replace(/\s+/g, ' ').trim().toLowerCase();
    if (s) out.push({ sql: s, comments });
    sql = '';
    comments = '';
  };
  while (i < text.length) {
    const rest = text.slice(i);
    if (rest.startsWith('--')) {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      comments += text.slice(i, stop) + '\n';
      sql += ' ';
      i = stop;
    } else if (rest.startsWith('/*')) {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      comments += text.slice(i, stop) + '\n';
      sql += ' ';
      i = stop;
    } else if (rest[0] === "'") {
      const end = text.indexOf("'", i + 1);
      sql += "''";
      i = end === -1 ? text.length : end + 1;
    } else if (/^\$[a-z_]*\$/i.test(rest)) {
      const tag = /^\$[a-z_]*\$/i.exec(rest)![0];
      const end = text.indexOf(tag, i + tag.length);
      sql += ` ${tag}${tag} `; // a function's body is not schema
      i = end === -1 ? text.length : end + tag.length;
    } else if (rest[0] === ';') {
      flush();
      i++;
    } else {
      sql += rest[0];
      i++;
    }
  }
  flush();
  return out;
}

/** Why a statement is a contract step (it breaks a release that still uses what it touches), or null. */
export function contractStep(sql: string): string | null {
  if (/^drop /.test(sql)) return 'drops an object';
  if (/^truncate /.test(sql)) return 'empties a table';
  // Rows the previous release may still read or have just written (also inside a `with`).
  if (/^delete from /.test(sql) || /^with .*\bdelete from /.test(sql)) return 'deletes rows';
  if (/\brename\b/.test(sql)) return 'renames';
  if (/^alter table /.test(sql)) {
    if (/\bdrop (?!not null\b)/.test(sql)) return 'drops a column, constraint or default';
    if (/\bset not null\b/.test(sql)) return 'makes a column not null';
    if (/\balter (column )?[a-z_0-9"]+ (set data )?type\b/.test(sql)) return "changes a column's type";
    if (
      /\badd (constraint [a-z_0-9"]+ )?(check|unique|primary key|foreign key|exclude)\b/.test(sql) &&
      !/\bnot valid\b/.test(sql)
    ) {
      return 'adds a constraint rows the previous release writes must meet';
    }
  }
  return null;
}

/** A statement cut at its commas outside parentheses: an `alter table`'s actions. */
function topLevelParts(sql: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < sql.length; i++) {
    if (sql[i] === '(') depth++;
    else if (sql[i] === ')') depth--;
    else if (sql[i] === ',' && depth === 0) {
      parts.push(sql.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(sql.slice(start));
  return parts;
}

/** The table a `create unique index` is on, or null. */
function uniqueIndexTable(sql: string): string | null {
  const m = /^create unique index (?:if not exists )?(?:[a-z_0-9"]+ )?on (?:only )?([a-z_0-9".]+)/.exec(sql);
  return m ? m[1]! : null;
}

/** The problems with one migration, each naming the statement; `all` are every migration, in order. */
export function checkMigration(m: Migration, all: readonly Migration[]): string[] {
  const problems: string[] = [];
  const statements = splitStatements(m.sql);
  const created = new Set(
    statements.flatMap((s) => /^create table (?:if not exists )?([a-z_0-9".]+)/.exec(s.sql)?.[1] ?? []),
  );
  const versions = new Set(all.map((x) => x.version));
  for (const s of statements) {
    const where = `${m.version}_${m.name}: \`${s.sql.slice(0, 80)}\``;
    if (/\bconcurrently\b/.test(s.sql)) {
      problems.push(`${where}: CONCURRENTLY cannot run inside the migration's transaction`);
    }
    for (const action of /^alter table /.test(s.sql) ? topLevelParts(s.sql) : []) {
      const a = /\badd (?!constraint\b|check\b|unique\b|primary key\b|foreign key\b|exclude\b).*/.exec(
        action,
      )?.[0];
      if (a && /\bnot null\b/.test(a) && !/\bdefault\b/.test(a)) {
        problems.push(
          `${where}: a column added not null needs a default (the previous release does not write it)`,
        );
      }
    }
    const table = uniqueIndexTable(s.sql);
    let why = contractStep(s.sql);
    if (!why && table && !created.has(table))
      why = 'adds a unique index to a table the previous release writes';
    if (!why) continue;
    const marker = CONTRACT_MARKER.exec(s.comments);
    if (!marker) {
      problems.push(`${where}: ${why}: a contract step, marked \`-- contract (unused since NNNN): …\``);
      continue;
    }
    const since = marker[1]!;
    if (!versions.has(since)) problems.push(`${where}: its marker names ${since}, which is no migration`);
    else if (since > m.version || (since === m.version && m.version > BEFORE_RULES)) {
      problems.push(
        `${where}: its marker names ${since}; a contract step waits for a release after the one that stopped using what it removes`,
      );
    }
  }
  return problems;
}
