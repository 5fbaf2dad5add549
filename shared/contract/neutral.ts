/**
 * The neutral values of a type's Required elements — what ASMX would fill in for a missing value
 * type (asmx-compatibility.md §1.4: 0, false, 0001-01-01T00:00:00, an enumeration's first value) — derived from the contract, so a
 * caller builds a message by giving only the elements it means (a Request of 62 fields, 21 Required).
 */
import type { Field, ScalarType } from './model.ts';
import { fieldsOf } from './types.ts';
import type { ComplexTypeName } from './types.ts';
import type { ValueOf } from './values.ts';

const NEUTRAL: Record<ScalarType, unknown> = {
  string: '',
  long: '0',
  int: 0,
  decimal: '0',
  boolean: false,
  dateTime: '0001-01-01T00:00:00',
};

/** What ASMX would fill in for this element when it is missing; undefined for a complex type. */
export function neutralValue(f: Field): unknown {
  if (f.nillable) return null;
  if (f.type.kind === 'scalar') return NEUTRAL[f.type.type];
  // ASMX's default(T) of an enum is its first member.
  if (f.type.kind === 'enum') return f.type.values[0];
  if (f.type.kind === 'list') return [];
  return undefined;
}

export function requiredDefaults<N extends ComplexTypeName>(typeName: N): ValueOf<N> {
  const out: Record<string, unknown> = {};
  for (const f of fieldsOf(typeName)) {
    if (f.minOccurs !== 1) continue;
    const v = neutralValue(f);
    if (v !== undefined) out[f.name] = v;
  }
  return out as ValueOf<N>;
}
