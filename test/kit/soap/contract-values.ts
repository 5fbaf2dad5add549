/**
 * Walking contract values by their contract type, to state a third-party client's documented quirks
 * as a transformation of the expected value (never of the value under test).
 */
import { fieldsOf, findComplexType } from '../../../shared/contract/index.ts';
import type { Field, FieldType, ScalarType } from '../../../shared/contract/model.ts';
import { isScalarType } from '../../../shared/contract/model.ts';
import { parseXsdDateTime } from '../../../shared/contract/scalars.ts';

export type ScalarMapper = (type: ScalarType, value: unknown) => unknown;

/** Returned by a mapper for a field that the client reads as absent. */
export const OMIT: unique symbol = Symbol('omit');

function itemType(item: string): FieldType {
  return isScalarType(item) ? { kind: 'scalar', type: item } : { kind: 'complex', type: item };
}

export interface MapOptions {
  /** What an empty list becomes (OMIT for a client that reads `<List />` as absent). */
  emptyList?: unknown;
}

/** `value` with `fn` applied to every scalar in it; null and absent values are kept as they are. */
export function mapScalars(
  value: unknown,
  type: FieldType,
  fn: ScalarMapper,
  options: MapOptions = {},
): unknown {
  if (value === null || value === undefined) return value;
  switch (type.kind) {
    case 'scalar':
      return fn(type.type, value);
    case 'enum':
      return value; // a name, read and sent as it is (a string restriction)
    case 'list': {
      const list = value as unknown[];
      if (list.length === 0 && 'emptyList' in options) return options.emptyList;
      return list.map((v) => mapScalars(v, itemType(type.item), fn, options));
    }
    case 'complex': {
      const complex = findComplexType(type.type);
      if (!complex) throw new Error(`no type ${type.type}`);
      return mapFields(value as Record<string, unknown>, fieldsOf(complex), fn, options);
    }
  }
}

export function mapFields(
  value: Record<string, unknown>,
  fields: readonly Field[],
  fn: ScalarMapper,
  options: MapOptions = {},
) {
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(value)) {
    const field = fields.find((f) => f.name === name);
    const mapped = field ? mapScalars(v, field.type, fn, options) : v;
    if (mapped !== OMIT) out[name] = mapped;
  }
  return out;
}

/** Only values of one scalar type changed by `fn`. */
export const onType =
  <T>(scalar: ScalarType, fn: (value: T) => unknown): ScalarMapper =>
  (type, value) =>
    type === scalar ? fn(value as T) : value;

/** Several mappers, applied in order. */
export const allOf =
  (...fns: ScalarMapper[]): ScalarMapper =>
  (type, value) =>
    fns.reduce((v, fn) => (v === OMIT ? v : fn(type, v)), value);

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A dateTime rounded to whole microseconds (Python's datetime, JavaScript has milliseconds). */
export function roundDateTime(value: string, digits: 6 | 3) {
  const v = parseXsdDateTime(value);
  const unit = digits === 6 ? 10 : 10_000;
  const rounded = Math.round(v.ticks / unit);
  if (rounded * unit >= 10_000_000) throw new Error(`rounding ${value} carries into the seconds`);
  return { ...v, fraction: rounded === 0 ? '' : pad(rounded, digits) };
}

/** How a Python `datetime.isoformat()` prints the value zeep parsed from this dateTime. */
export function pythonIsoformat(value: string): string {
  const v = roundDateTime(value, 6);
  const zone = v.zone === 'Z' ? '+00:00' : (v.zone ?? '');
  const fraction = v.fraction ? `.${v.fraction}` : '';
  return `${pad(v.year, 4)}-${pad(v.month)}-${pad(v.day)}T${pad(v.hour)}:${pad(v.minute)}:${pad(v.second)}${fraction}${zone}`;
}

/** What the gateway reads when zeep sends this dateTime from a Python datetime (`.%f%Z`). */
export function sentFromPython(value: string): string {
  const v = roundDateTime(value, 6);
  const fraction = v.fraction.replace(/0+$/, '');
  return `${pad(v.year, 4)}-${pad(v.month)}-${pad(v.day)}T${pad(v.hour)}:${pad(v.minute)}:${pad(v.second)}${fraction ? `.${fraction}` : ''}${v.zone ?? ''}`;
}
