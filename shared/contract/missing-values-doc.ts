/**
 * docs/gateway.md's table of missing value-type elements, generated from the contract
 * (missing-values.ts): one row per Required value-type element of every operation's request, in
 * operation and schema order. missing-values.test.ts compares the page with it;
 * `node --import tsx scripts/missing-values-doc.ts` writes it between the page's markers.
 *
 * Pure: no I/O, no Node imports.
 */
import {
  conditionText,
  type MissingRule,
  type MissingRules,
  missingRulesOfParams,
  missingRulesOfType,
  type RefusedBecause,
} from './missing-values.ts';
import { type Field, isScalarType } from './model.ts';
import { operations } from './operations.ts';
import { fieldsOf, findComplexType } from './types.ts';

export const TABLE_START = '<!-- missing-value-rules: generated from shared/contract/missing-values.ts -->';
export const TABLE_END = '<!-- /missing-value-rules -->';

export interface MissingValueElement {
  readonly operation: string;
  /** As faults name it: `request/RecurringAmount`, `merchantID`. */
  readonly path: string;
  readonly field: Field;
  /** The complex type that holds it, or null for an operation's parameter. */
  readonly owner: string | null;
  readonly rule: MissingRule | undefined;
}

const isValueField = (f: Field): boolean =>
  f.minOccurs === 1 && (f.type.kind === 'enum' || (f.type.kind === 'scalar' && f.type.type !== 'string'));

function* walk(
  operation: string,
  fields: readonly Field[],
  owner: string | null,
  rules: MissingRules | undefined,
  path: string,
): Generator<MissingValueElement> {
  for (const f of fields) {
    const here = path ? `${path}/${f.name}` : f.name;
    if (isValueField(f)) yield { operation, path: here, field: f, owner, rule: rules?.[f.name] };
    const nested =
      f.type.kind === 'complex'
        ? { type: f.type.type, path: here }
        : f.type.kind === 'list' && !isScalarType(f.type.item)
          ? { type: f.type.item, path: `${here}/${f.type.itemElement}` }
          : null;
    if (nested === null) continue;
    const type = findComplexType(nested.type);
    if (type === undefined) throw new Error(`Contract has no type ${nested.type}`);
    yield* walk(operation, fieldsOf(type), nested.type, missingRulesOfType(nested.type), nested.path);
  }
}

/** Every Required value-type element of every operation's request, with its rule. */
export function missingValueElements(): MissingValueElement[] {
  return operations.flatMap((op) => [...walk(op.name, op.params, null, missingRulesOfParams(op.name), '')]);
}

const BECAUSE: Record<RefusedBecause, string> = {
  amount: 'an amount',
  party: 'whom the call acts on',
  reference: 'what the call acts on',
  live: 'false would make a test live',
};

function defaultText(f: Field): string {
  if (f.nillable) return 'nil';
  if (f.type.kind === 'enum') return `\`${f.type.values[0]}\``;
  if (f.type.kind !== 'scalar') return '';
  return { long: '`0`', int: '`0`', decimal: '`0`', boolean: '`false`', dateTime: '`0001-01-01T00:00:00`' }[
    f.type.type as 'long'
  ];
}

function ruleText(rule: MissingRule | undefined): string {
  if (rule === undefined || rule.missing === 'refuse') {
    return `**refused** (${rule === undefined ? 'no rule' : BECAUSE[rule.because]})`;
  }
  if (rule.missing === 'default') return 'default taken';
  const when = rule.unless.map(conditionText).join(', or ');
  return `default taken; **refused** when ${when} (${BECAUSE[rule.because]})`;
}

/** The table as docs/gateway.md holds it, markers included. */
export function missingValueTable(): string {
  const rows = missingValueElements().map((e) => {
    const type = e.field.type.kind === 'list' ? 'list' : e.field.type.type;
    const nil = e.field.nillable ? ', nillable' : '';
    return `| ${e.operation} | \`${e.path}\` | ${type}${nil} | ${defaultText(e.field)} | ${ruleText(e.rule)} |`;
  });
  return [
    TABLE_START,
    '',
    '| Operation | Element | Type | ASMX default | When missing |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    TABLE_END,
  ].join('\n');
}
