/**
 * The neutral values of a type's Required elements — what ASMX would fill in for a missing value
 * type (asmx-compatibility.md §1.4: 0, false, 0001-01-01T00:00:00, an enumeration's first value) — derived from the contract, so a
 * caller builds a message by giving only the elements it means (a Request of 62 fields, 21 Required).
 */
import type { ScalarType } from './model.ts';
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

export function requiredDefaults<N extends ComplexTypeName>(typeName: N): ValueOf<N> {
  const out: Record<string, unknown> = {};
  for (const f of fieldsOf(typeName)) {
    if (f.minOccurs !== 1) continue;
    if (f.nillable) out[f.name] = null;
    else if (f.type.kind === 'scalar') out[f.name] = NEUTRAL[f.type.type];
    // ASMX's default(T) of an enum is its first member.
    else if (f.type.kind === 'enum') out[f.name] = f.type.values[0];
    else if (f.type.kind === 'list') out[f.name] = [];
  }
  return out as ValueOf<N>;
}
