/**
 * The contract table against the spec it comes from (DESIGN.md §1): spec/transaction-service.md
 * is read and parsed at test time, and every type, field, operation and HTTP root element of
 * `types.ts` / `operations.ts` is compared with what the spec says.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  type ComplexType,
  type FieldType,
  httpRootElement,
  isScalarType,
  type Operation,
  typeOf,
} from './model.ts';
import { extensionOperations, findOperation, operations, specOperations } from './operations.ts';
import { parseSpec, type SpecContract, type SpecField, type SpecType } from './spec-markdown.test-support.ts';
import { complexTypes, fieldsOf, findComplexType, specTypes } from './types.ts';

const SPEC = 'shared/spec/transaction-service.md';

/**
 * The spec lives beside the repository (`../shared/spec/` from the repo root); look in every
 * ancestor of this file so a checkout anywhere, or a copy inside the repo, works too.
 */
function readSpec(): string {
  const tried: string[] = [fileURLToPath(new URL(`../../../${SPEC}`, import.meta.url))];
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    tried.push(join(dir, SPEC));
    if (dirname(dir) === dir) break;
  }
  const found = tried.find((path) => existsSync(path));
  if (found === undefined) {
    throw new Error(
      `Cannot find the Transaction Service spec (${SPEC}); looked at:\n  ${tried.join('\n  ')}`,
    );
  }
  return readFileSync(found, 'utf8');
}

/** One comparable line per field: name, XSD type, minOccurs, nillable. */
function typeText(t: FieldType | SpecType): string {
  if (t.kind === 'list') return `list of ${t.item} as <${t.itemElement}>`;
  return t.type;
}

const fieldText = (name: string, type: FieldType | SpecType, minOccurs: number, nillable: boolean): string =>
  `${name}: ${typeText(type)}, minOccurs=${minOccurs}${nillable ? ', nillable' : ''}`;

/**
 * minOccurs of a spec field. Where the spec does not say (PaymentDetail's Success and Amount, the
 * parameters of GetHostedPaymentDetails, GetStoredCards, SendVerificationCode), ASMX's rule
 * decides: value types are minOccurs 1, strings 0 (asmx-compatibility.md §1.6).
 */
function specMinOccurs(f: SpecField): 0 | 1 {
  if (f.required !== undefined) return f.required ? 1 : 0;
  return f.type.kind === 'scalar' && f.type.type !== 'string' ? 1 : 0;
}

interface View {
  types: Record<string, { base: string | null; fields: string[] }>;
  operations: { name: string; params: string[]; result: string; httpRoot: string | null }[];
}

function specView(spec: SpecContract): View {
  const types: View['types'] = {};
  for (const t of spec.types) {
    types[t.name] = {
      base: t.base ?? null,
      fields: t.fields.map((f) => fieldText(f.name, f.type, specMinOccurs(f), f.nillable)),
    };
  }
  return {
    types,
    operations: spec.operations.map((op) => {
      // "OneTimePasswordForPhone and OneTimePasswordForEmail": the type whose heading says
      // "(result of SendVerificationCode)" is the one that holds them.
      let result: string | undefined;
      if (typeof op.result === 'string') {
        const cell = op.result;
        const named = spec.types.find((t) => t.role === `result of ${op.name}`);
        // …and only if the cell names exactly that type's fields.
        if (named?.fields.every((f) => cell.includes(f.name))) result = named.name;
      } else result = typeText(op.result);
      if (result === undefined) throw new Error(`No result type in the spec for ${op.name}: "${op.result}"`);
      return {
        name: op.name,
        params: op.params.map((p) => fieldText(p.name, p.type, specMinOccurs(p), p.nillable)),
        result,
        httpRoot: op.rootElement,
      };
    }),
  };
}

function contractView(typeTable: readonly ComplexType[], operationTable: readonly Operation[]): View {
  const types: View['types'] = {};
  for (const t of typeTable) {
    types[t.name] = {
      base: t.base ?? null,
      fields: t.fields.map((f) => fieldText(f.name, f.type, f.minOccurs, f.nillable)),
    };
  }
  return {
    types,
    operations: operationTable.map((op) => ({
      name: op.name,
      params: op.params.map((p) => fieldText(p.name, p.type, p.minOccurs, p.nillable)),
      result: op.result === null ? 'none' : typeText(op.result),
      httpRoot: httpRootElement(op),
    })),
  };
}

const markdown = readSpec();
const spec = parseSpec(markdown);
const contract = contractView(specTypes, specOperations);
const expected = specView(spec);

describe('the contract table matches spec/transaction-service.md', () => {
  it('reads the whole spec (guards the parser itself)', () => {
    expect(spec.operations).toHaveLength(21);
    expect(spec.types).toHaveLength(26);
    expect(spec.types.reduce((n, t) => n + t.fields.length, 0)).toBeGreaterThan(200);
  });

  it('declares every complex type of the spec, and no other', () => {
    expect(Object.keys(contract.types).sort()).toEqual(Object.keys(expected.types).sort());
  });

  it.each(spec.types.map((t) => t.name))(
    '%s: every field in order, with type, minOccurs and nillability',
    (name) => {
      expect(contract.types[name]).toEqual(expected.types[name]);
    },
  );

  it('declares the 21 operations in the order of the operations table', () => {
    expect(contract.operations.map((op) => op.name)).toEqual(spec.operations.map((op) => op.name));
  });

  it.each(spec.operations.map((op) => op.name))(
    '%s: parameters, result and HTTP GET/POST root element',
    (name) => {
      const inSpec = expected.operations.find((op) => op.name === name);
      expect(contract.operations.find((op) => op.name === name)).toEqual(inSpec);
    },
  );

  it('lists the same operations as the group table of "What the service does"', () => {
    expect([...spec.groupedOperations].sort()).toEqual(spec.operations.map((op) => op.name).sort());
  });

  it('uses each type where its heading says ("input of", "result of", "item of")', () => {
    for (const t of spec.types) {
      const role = /^(input|result|item|also the list item) of (.+?)(?: result)?$/.exec(t.role ?? '');
      if (role?.[1] === undefined || role[2] === undefined) continue;
      for (const opName of role[2].split(', ')) {
        const op = findOperation(opName);
        expect(op, `${t.name}: ${t.role}`).toBeDefined();
        if (role[1] === 'input') expect(op?.params.map((p) => typeText(p.type))).toContain(t.name);
        else if (role[1] === 'result') expect(op?.result).toEqual({ kind: 'complex', type: t.name });
        else expect(op?.result).toEqual({ kind: 'list', item: t.name, itemElement: t.name });
      }
    }
  });

  it('fails when the spec says something else (the comparison is not vacuous)', () => {
    const mutations: [string, string][] = [
      ['| CustomerId | long | yes |', '| CustomerId | string | yes |'],
      [
        'MerchantID (long, required); TransactionKey, Name',
        'MerchantID (long, required); Name, TransactionKey',
      ],
      [
        '| Verify3DSecureMerchant | merchantID (long, required) | boolean | boolean |',
        '| Verify3DSecureMerchant | merchantId (long, required) | boolean | boolean |',
      ],
      [
        '| GetMerchantInfo | merchantID (long, required) | MerchantInfo | MerchantInfo |',
        '| GetMerchantInfo | merchantID (long, required) | MerchantInfo | not among the documented bindings |',
      ],
    ];
    for (const [from, to] of mutations) {
      expect(markdown, from).toContain(from);
      expect(specView(parseSpec(markdown.replace(from, to))), to).not.toEqual(contract);
    }
  });
});

describe('the contract table is consistent', () => {
  it('resolves every complex type it refers to', () => {
    const refs = [
      ...complexTypes.flatMap((t) => [
        ...fieldsOf(t).map((f) => f.type),
        ...(t.base ? [typeOf(t.base)] : []),
      ]),
      ...operations.flatMap((op) => [...op.params.map((p) => p.type), ...(op.result ? [op.result] : [])]),
    ];
    for (const ref of refs) {
      const name = ref.kind === 'list' ? ref.item : ref.type;
      expect(isScalarType(name) || findComplexType(name) !== undefined, name).toBe(true);
    }
  });

  it('puts inherited fields first (LoginResponse: Status, Message, Data)', () => {
    expect(fieldsOf('LoginResponse').map((f) => f.name)).toEqual(['Status', 'Message', 'Data']);
  });

  it('marks extension operations, and only those, as extensions', () => {
    expect(specOperations.every((op) => !op.extension)).toBe(true);
    expect(extensionOperations.every((op: Operation) => op.extension)).toBe(true);
    expect(new Set(operations.map((op) => op.name)).size).toBe(operations.length);
  });

  it('gives every operation a one-line doc', () => {
    for (const op of operations) expect(op.doc, op.name).toMatch(/^[^\n]{10,120}$/);
  });
});
