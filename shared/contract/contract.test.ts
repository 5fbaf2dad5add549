/**
 * The contract table against the page that documents it (DESIGN.md §1): docs/transaction-service.md,
 * Payframe's interface reference, is read and parsed at test time, and every type, field,
 * operation, parameter and HTTP root element of `types.ts` / `operations.ts` is compared with it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type ComplexType,
  type FieldType,
  httpRootElement,
  isScalarType,
  type Operation,
  typeOf,
} from './model.ts';
import {
  type DocRole,
  type DocType,
  type InterfaceDoc,
  parseInterfaceDoc,
} from '../../test/kit/contract/interface-doc.ts';
import { extensionOperations, operations, specOperations } from './operations.ts';
import { complexTypes, enumTypes, fieldsOf, findComplexType, findEnumType, specTypes } from './types.ts';

const DOC = 'docs/transaction-service.md';
const markdown = readFileSync(new URL(`../../${DOC}`, import.meta.url), 'utf8');

/** One comparable line per field: name, XSD type, minOccurs, nillable. */
function typeText(t: FieldType | DocType): string {
  if (t.kind === 'list') return `list of ${t.item} as <${t.itemElement}>`;
  return t.type;
}

const fieldText = (name: string, type: FieldType | DocType, minOccurs: number, nillable: boolean): string =>
  `${name}: ${typeText(type)}, minOccurs=${minOccurs}${nillable ? ', nillable' : ''}`;

interface View {
  types: Record<string, { base: string | null; fields: string[] }>;
  operations: { name: string; params: string[]; result: string; httpRoot: string | null }[];
}

function docView(doc: InterfaceDoc): View {
  const types: View['types'] = {};
  for (const t of doc.types) {
    types[t.name] = {
      base: t.base ?? null,
      fields: t.fields.map((f) => fieldText(f.name, f.type, f.minOccurs, f.nillable)),
    };
  }
  return {
    types,
    operations: doc.operations.map((op) => ({
      name: op.name,
      params: op.params.map((p) => fieldText(p.name, p.type, p.minOccurs, p.nillable)),
      result: typeText(op.result),
      httpRoot: op.rootElement,
    })),
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

/** The operations of the contract that take or return `type` directly, as a "Used as:" line says. */
function contractRoles(type: string): DocRole[] {
  const named = (test: (op: Operation) => boolean) => specOperations.filter(test).map((op) => op.name);
  const roles: DocRole[] = [
    {
      kind: 'input',
      operations: named((op) => op.params.some((p) => p.type.kind === 'complex' && p.type.type === type)),
    },
    { kind: 'result', operations: named((op) => op.result?.kind === 'complex' && op.result.type === type) },
    { kind: 'list item', operations: named((op) => op.result?.kind === 'list' && op.result.item === type) },
  ];
  return roles.filter((r) => r.operations.length > 0);
}

/** `markdown` with the first match of `pattern` replaced; the pattern must match. */
function edit(pattern: RegExp, replacement: string): string {
  expect(markdown, String(pattern)).toMatch(pattern);
  return markdown.replace(pattern, replacement);
}

const doc = parseInterfaceDoc(markdown);
const contract = contractView(specTypes, specOperations);
const expected = docView(doc);

describe(`the contract table matches ${DOC}`, () => {
  it('reads the whole page (guards the parser itself)', () => {
    expect(doc.operations).toHaveLength(21);
    expect(doc.types).toHaveLength(26);
    expect(doc.types.reduce((n, t) => n + t.fields.length, 0)).toBeGreaterThan(200);
    expect(doc.operations.reduce((n, op) => n + op.params.length, 0)).toBeGreaterThan(25);
  });

  it('declares every complex type of the page, and no other', () => {
    expect(Object.keys(contract.types).sort()).toEqual(Object.keys(expected.types).sort());
  });

  it.each(doc.types.map((t) => t.name))(
    '%s: every field in order, with type, minOccurs and nillability',
    (name) => {
      expect(contract.types[name]).toEqual(expected.types[name]);
    },
  );

  it('declares the 21 operations in the order of the operations table', () => {
    expect(contract.operations.map((op) => op.name)).toEqual(doc.operations.map((op) => op.name));
  });

  it.each(doc.operations.map((op) => op.name))(
    '%s: parameters, result and HTTP GET/POST root element',
    (name) => {
      const inDoc = expected.operations.find((op) => op.name === name);
      expect(contract.operations.find((op) => op.name === name)).toEqual(inDoc);
    },
  );

  it('lists every operation once in the areas table', () => {
    expect([...doc.areaOperations].sort()).toEqual(doc.operations.map((op) => op.name).sort());
  });

  it('says of each type which operations take or return it ("Used as:"), all of them', () => {
    for (const t of doc.types) expect(t.roles, t.name).toEqual(contractRoles(t.name));
  });

  it('fails when the page says something else (the comparison is not vacuous)', () => {
    const mutations = [
      // a field's type (PaymentProfileRequest.CustomerId)
      edit(/^(\| CustomerId +\| )long /m, '$1string'),
      // a field's minOccurs (MerchantInfo.MerchantID)
      edit(/(?<row>### MerchantInfo[^#]*\| MerchantID +\| long +\| )1/, '$<row>0'),
      // nillability (TransactionHistory.TransactionDate)
      edit(/(\| TransactionDate +\| dateTime +\| 1 +\| )yes/, '$1no '),
      // field order (MerchantInfo: TransactionKey before Name)
      edit(/(### MerchantInfo[^#]*)(\| TransactionKey .*\n)(\| Name .*\n)/, '$1$3$2'),
      // a field left out (Request.TransactionLinkIdentifier)
      edit(/^\| TransactionLinkIdentifier .*\n/m, ''),
      // a base type (LoginResponse extends OperationStatus)
      edit(/^Extends: OperationStatus\.\n\n/m, ''),
      // a parameter's name
      edit(/^(\| Verify3DSecureMerchant +\| )merchantID/m, '$1merchantId'),
      // a result
      edit(/^(\| GetCardInfo +\| )CardInfo /m, '$1CardDetail'),
      // an HTTP root element
      edit(/^(\| GetMerchantInfo +\| MerchantInfo +\| )MerchantInfo( +)/m, '$1none: SOAP only'),
    ];
    for (const mutated of mutations) expect(docView(parseInterfaceDoc(mutated))).not.toEqual(contract);
    expect(docView(parseInterfaceDoc(markdown))).toEqual(contract);
  });

  it('refuses a page it cannot read, rather than skipping what it does not understand', () => {
    const unreadable = [
      edit(/^(\| CustomerId +\| long +\| )1/m, '$1required'),
      edit(/^(\| InvoiceDate +\| dateTime +\| 1 +\| )yes/m, '$1nil'),
      edit(/^\| Field +\| XSD type +\| minOccurs +\| nillable +\|$/m, '| Field | Type | Required | Nil |'),
      edit(/^### CardInfo$/m, '### Card info'),
      edit(/^Used as: input of UpdateToken\.$/m, 'Used as: the input of UpdateToken.'),
      edit(
        /^(\| GetStoredCards +\| )list of StoredCardDetail, items `<StoredCardDetail>`/m,
        '$1StoredCardDetail[]',
      ),
      edit(
        /^(\| GetCardInfo +\| request +\| )CardInfoRequest/m,
        '| NoSuchOperation | request | CardInfoRequest',
      ),
    ];
    for (const page of unreadable) expect(() => parseInterfaceDoc(page)).toThrow();
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
      if (ref.kind === 'enum') {
        // The very object of the list, so that one name never stands for two lists of values.
        expect(findEnumType(ref.type), ref.type).toBe(ref);
        continue;
      }
      const name = ref.kind === 'list' ? ref.item : ref.type;
      expect(isScalarType(name) || findComplexType(name) !== undefined, name).toBe(true);
    }
  });

  it('lists each enumeration once, under a name no complex or scalar type has, and uses every one', () => {
    const names = enumTypes.map((t) => t.type);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) {
      expect(
        isScalarType(name) || findComplexType(name) !== undefined || name.startsWith('ArrayOf'),
        name,
      ).toBe(false);
    }
    // A field's type, or an operation's parameter (TransactionKeyOverlap, WebhookDeliveryKind).
    const used = new Set([
      ...complexTypes.flatMap((t) => t.fields.flatMap((f) => (f.type.kind === 'enum' ? [f.type.type] : []))),
      ...operations.flatMap((op) => op.params.flatMap((p) => (p.type.kind === 'enum' ? [p.type.type] : []))),
    ]);
    expect([...used].sort()).toEqual([...names].sort());
  });

  it('keeps enumerations out of the spec types (the spec has none)', () => {
    for (const t of specTypes)
      for (const f of t.fields) expect(f.type.kind, `${t.name}.${f.name}`).not.toBe('enum');
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
