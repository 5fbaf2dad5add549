/**
 * The rules for missing value-type elements (missing-values.ts, issue 18 §4): one for every
 * Required value-type element of every request and for no other, conditions that read a sibling
 * of the right type, the refusals the issue names, and docs/gateway.md's table equal to the one
 * the contract generates.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { missingValueElements, missingValueTable, TABLE_END, TABLE_START } from './missing-values-doc.ts';
import { PARAM_MISSING_RULES, TYPE_MISSING_RULES } from './missing-values.ts';
import { fieldsOf } from './types.ts';

const elements = missingValueElements();

describe('missing value-type rules', () => {
  it('name every Required value-type element the requests reach, and no other', () => {
    const reached = new Set(
      elements.map((e) =>
        e.owner === null ? `${e.operation}(${e.field.name})` : `${e.owner}.${e.field.name}`,
      ),
    );
    const declared = new Set([
      ...Object.entries(TYPE_MISSING_RULES).flatMap(([t, rules]) =>
        Object.keys(rules).map((f) => `${t}.${f}`),
      ),
      ...Object.entries(PARAM_MISSING_RULES).flatMap(([o, rules]) =>
        Object.keys(rules).map((p) => `${o}(${p})`),
      ),
    ]);
    expect([...declared].sort()).toEqual([...reached].sort());
    expect(elements.filter((e) => e.rule === undefined)).toEqual([]);
  });

  it('condition on a sibling of the right type', () => {
    for (const [typeName, rules] of Object.entries(TYPE_MISSING_RULES)) {
      const fields = fieldsOf(typeName as keyof typeof TYPE_MISSING_RULES);
      for (const rule of Object.values(rules)) {
        if (rule.missing !== 'default-unless') continue;
        for (const c of rule.unless) {
          const sibling = fields.find((f) => f.name === c.element);
          expect(sibling?.type).toEqual({ kind: 'scalar', type: 'isTrue' in c ? 'boolean' : 'string' });
        }
      }
    }
  });

  it('refuse merchant and customer ids and amounts always, TestRequest too', () => {
    const always = elements.filter(
      (e) =>
        /^(merchant|customer)id$/i.test(e.field.name) ||
        /^(Amount|InvoiceAmount|ConvenienceFee)$/.test(e.field.name),
    );
    expect(always.length).toBeGreaterThan(15);
    for (const e of always) {
      // Request.CustomerID is a label on the transaction (missing-values.ts), not whom it charges.
      if (e.owner === 'Request' && e.field.name === 'CustomerID') continue;
      expect({ path: `${e.operation} ${e.path}`, rule: e.rule?.missing }).toEqual({
        path: `${e.operation} ${e.path}`,
        rule: 'refuse',
      });
    }
    expect(TYPE_MISSING_RULES.Request.TestRequest).toEqual({ missing: 'refuse', because: 'live' });
    // What ASMX calls lenient stays lenient where harmless: the example.
    expect(TYPE_MISSING_RULES.Request.RecurringAmount).toMatchObject({ missing: 'default-unless' });
  });

  it('are the table docs/gateway.md shows', () => {
    const page = readFileSync(new URL('../../docs/gateway.md', import.meta.url), 'utf8');
    const start = page.indexOf(TABLE_START);
    const end = page.indexOf(TABLE_END);
    expect(start).toBeGreaterThan(0);
    // Compared cell by cell: prettier pads the page's columns.
    const cells = (text: string) =>
      text
        .split('\n')
        .filter((l) => l.startsWith('|'))
        .map((l) =>
          l
            .slice(1, -1)
            .split('|')
            .map((c) => c.trim().replace(/^-+$/, '---'))
            .join(' | '),
        );
    // Regenerate with: node --import tsx scripts/missing-values-doc.ts
    expect(cells(page.slice(start, end + TABLE_END.length))).toEqual(cells(missingValueTable()));
  });
});
