/**
 * Sample values for any part of the contract, derived from the table: every field filled, with the
 * values that break careless codecs — a long above 2^53, a decimal with a trailing zero, a nil
 * dateTime, markup characters and non-ASCII text in strings, empty and two-item lists, an
 * enumeration's last value (full) and first (edge).
 * Tests use them to drive every operation through every binding and client.
 */
import { fieldsOf, findComplexType } from '../../../shared/contract/index.ts';
import type { Field, FieldType, Operation } from '../../../shared/contract/model.ts';
import { isScalarType } from '../../../shared/contract/model.ts';

export type Variant = 'full' | 'edge';

const SCALAR_SAMPLES = {
  full: {
    string: (name: string) => `${name} <&> "quoted" 'x' café ✓`,
    long: () => '9007199254740993',
    int: () => 12,
    decimal: () => '10.50',
    boolean: () => true,
    dateTime: () => '2024-01-02T03:04:05',
  },
  edge: {
    string: () => '',
    long: () => '-9223372036854775808',
    int: () => -2147483648,
    decimal: () => '0.001',
    boolean: () => false,
    dateTime: () => '2024-02-29T23:59:59.1234567Z',
  },
} as const;

function scalar(type: string, name: string, variant: Variant): unknown {
  const samples = SCALAR_SAMPLES[variant];
  return samples[type as keyof typeof samples](name);
}

export function sampleOf(type: FieldType, name: string, variant: Variant, depth = 0): unknown {
  switch (type.kind) {
    case 'scalar':
      return scalar(type.type, name, variant);
    case 'enum':
      return variant === 'edge' ? type.values[0] : type.values[type.values.length - 1];
    case 'complex':
      return sampleComplex(type.type, variant, depth + 1);
    case 'list': {
      if (variant === 'edge') return [];
      const item: FieldType = isScalarType(type.item)
        ? { kind: 'scalar', type: type.item }
        : { kind: 'complex', type: type.item };
      return [sampleOf(item, `${name}1`, variant, depth), sampleOf(item, `${name}2`, variant, depth)];
    }
  }
}

export function sampleFields(fields: readonly Field[], variant: Variant, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.nillable && variant === 'edge') {
      out[f.name] = null;
    } else if (f.minOccurs === 0 && variant === 'edge' && f.type.kind !== 'scalar') {
      // leave optional complex/list fields out in the edge variant
    } else {
      out[f.name] = sampleOf(f.type, f.name, variant, depth);
    }
  }
  return out;
}

export function sampleComplex(typeName: string, variant: Variant, depth = 0): Record<string, unknown> {
  const type = findComplexType(typeName);
  if (!type) throw new Error(`no type ${typeName}`);
  return sampleFields(fieldsOf(type), variant, depth);
}

export function sampleParams(op: Operation, variant: Variant): Record<string, unknown> {
  return sampleFields(op.params, variant);
}

export function sampleResult(op: Operation, variant: Variant): unknown {
  return op.result === null ? undefined : sampleOf(op.result, `${op.name}Result`, variant);
}
