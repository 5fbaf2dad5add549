import { describe, expect, it } from 'vitest';
import { listMigrations, type Migration } from './migrate.ts';
import { checkMigration, splitStatements } from './migration-rules.ts';

const all = listMigrations();
const NEXT = String(Number(all.at(-1)!.version) + 1).padStart(4, '0');
/** A migration written after the rules, among the real ones. */
const next = (sql: string): string[] => {
  const m: Migration = { version: NEXT, name: 'next', sql };
  return checkMigration(m, [...all, m]);
};

describe('migrations follow the expand/contract rules (server/db/README.md)', () => {
  it.each(all.map((m) => [`${m.version}_${m.name}`, m] as const))('%s', (_, m) => {
    expect(checkMigration(m, all)).toEqual([]);
  });
});

describe('the rules', () => {
  it('let a release expand: tables, nullable columns, columns with a default, indexes, backfills', () => {
    expect(
      next(`
        create table widgets (id bigint primary key, token text not null unique);
        create unique index widgets_token on widgets (token);
        alter table checkout_payments add column note text, add column tries int not null default 0;
        alter table merchants add column limit_amount numeric(12, 2) not null default 0;
        create index checkout_payments_note on checkout_payments (note);
        update checkout_payments set note = 'x; y' where note is null;
        alter table checkout_attempts alter column amount drop not null;
        alter table merchants add constraint merchants_limit check (limit_amount >= 0) not valid;
      `),
    ).toEqual([]);
  });

  it('refuse a contract step without its marker', () => {
    for (const sql of [
      'drop table checkout_payments',
      'drop index transactions_original',
      'alter table checkout_payments drop column card_brand',
      'alter table checkout_payments drop card_brand',
      'alter table checkout_payments rename column card_brand to brand',
      'alter table checkout_payments rename to payments',
      'alter table checkout_payments alter column card_brand set not null',
      'alter table checkout_payments alter column card_brand type varchar(20)',
      'alter table merchants alter column return_mode drop default',
      'alter table merchants add constraint merchants_name check (length(name) > 0)',
      'create unique index checkout_payments_brand on checkout_payments (card_brand)',
      'truncate checkout_payments',
      "delete from checkout_payments where status = 'x'",
      'with gone as (delete from checkout_payments returning id) select count(*) from gone',
    ]) {
      expect(next(`-- why\n${sql};`), sql).toEqual([expect.stringMatching(/a contract step, marked/)]);
    }
  });

  it('accept a marked contract step naming an earlier release, and no other', () => {
    const sql = 'alter table checkout_payments drop column card_brand;';
    expect(
      next(`-- contract (unused since 0025): card_brand, read from transactions since.\n${sql}`),
    ).toEqual([]);
    expect(next(`-- contract (unused since ${NEXT}): card_brand.\n${sql}`)).toEqual([
      expect.stringMatching(/waits for a release after/),
    ]);
    expect(next(`-- contract (unused since 0004): card_brand.\n${sql}`)).toEqual([
      expect.stringMatching(/0004, which is no migration/),
    ]);
    // The marker is the statement's own: one before another statement does not count.
    expect(next(`-- contract (unused since 0025): x.\ncreate table t (a int);\n${sql}`)).toHaveLength(1);
  });

  it('refuse what no marker makes safe', () => {
    expect(next('alter table merchants add column tier text not null;')).toEqual([
      expect.stringMatching(/needs a default/),
    ]);
    expect(next('create index concurrently merchants_tier on merchants (name);')).toEqual([
      expect.stringMatching(/CONCURRENTLY/),
    ]);
  });

  it('read statements past comments, strings and function bodies', () => {
    const s =
      splitStatements(`-- a; b\ninsert into t values ('drop table x;');\ncreate function f() returns int
      language sql as $$ select 1; $$;\n/* drop table y; */ select 1`);
    expect(s.map((x) => x.sql)).toEqual([
      "insert into t values ('')",
      'create function f() returns int language sql as $$$$',
      'select 1',
    ]);
    expect(s[0]!.comments).toBe('-- a; b\n');
  });
});
