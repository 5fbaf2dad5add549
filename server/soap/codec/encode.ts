/**
 * Values → XML, by the contract, as ASMX writes it (asmx-compatibility.md §1.5): fields in schema
 * order, absent optional fields omitted, nil as `xsi:nil="true"`, empty elements as `<x />`,
 * decimals with their scale, enumerations by name, lists as repeated item elements. SOAP bodies are one unindented line;
 * HTTP GET/POST documents are indented two spaces (`indent` set).
 */
import { fieldsOf, findComplexType } from '../../../shared/contract/index.ts';
import { isEnumValue } from '../../../shared/contract/enum-values.ts';
import type { EnumFieldType, Field, FieldType } from '../../../shared/contract/model.ts';
import { isScalarType } from '../../../shared/contract/model.ts';
import { formatScalar } from '../../../shared/contract/scalars.ts';
import { escapeText } from '../xml-escape.ts';

/** A result the contract cannot express (a handler bug); the binding turns it into a Server fault. */
export class EncodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EncodeError';
  }
}

export interface Writer {
  out: string[];
  /** Two-space indentation for HTTP GET/POST documents; undefined for SOAP's single line. */
  indent: number | undefined;
}

function pad(w: Writer, depth: number): string {
  return w.indent === undefined ? '' : `\n${'  '.repeat(depth)}`;
}

const JS_TYPES: Record<string, string> = {
  string: 'string',
  long: 'string',
  decimal: 'string',
  dateTime: 'string',
  int: 'number',
  boolean: 'boolean',
};

function scalarText(type: string, value: unknown, path: string): string {
  // long and decimal are strings here (DESIGN.md §3): a JS number in their place is a bug to refuse.
  if (typeof value !== JS_TYPES[type] && !(type === 'dateTime' && value instanceof Date)) {
    throw new EncodeError(`${path}: expected a ${type} value, got ${value === null ? 'null' : typeof value}`);
  }
  try {
    return escapeText(formatScalar(type as Parameters<typeof formatScalar>[0], value as never));
  } catch (err) {
    throw new EncodeError(`${path}: ${(err as Error).message}`);
  }
}

/** An enumeration value as element text; anything outside the enumeration is a handler bug. */
export function enumText(type: EnumFieldType, value: unknown, path: string): string {
  if (!isEnumValue(type, value)) {
    const got = typeof value === 'string' ? `'${value}'` : value === null ? 'null' : typeof value;
    throw new EncodeError(`${path}: ${got} is not a ${type.type} value (${type.values.join(', ')})`);
  }
  return escapeText(value);
}

function writeItem(w: Writer, name: string, itemType: string, value: unknown, depth: number, path: string) {
  if (value === null || value === undefined) {
    w.out.push(`${pad(w, depth)}<${name} xsi:nil="true" />`);
  } else if (isScalarType(itemType)) {
    w.out.push(`${pad(w, depth)}<${name}>${scalarText(itemType, value, path)}</${name}>`);
  } else {
    writeComplex(w, name, itemType, value, depth, path);
  }
}

function writeComplex(
  w: Writer,
  name: string,
  typeName: string,
  value: unknown,
  depth: number,
  path: string,
) {
  const type = findComplexType(typeName);
  if (!type) throw new EncodeError(`Contract has no type ${typeName}`);
  if (typeof value !== 'object' || value === null) throw new EncodeError(`${path}: expected a ${typeName}`);
  const before = w.out.length;
  w.out.push(`${pad(w, depth)}<${name}>`);
  const start = w.out.length;
  writeFields(w, value as Record<string, unknown>, fieldsOf(type), depth + 1, path);
  if (w.out.length === start) {
    w.out.length = before;
    w.out.push(`${pad(w, depth)}<${name} />`);
  } else {
    w.out.push(`${pad(w, depth)}</${name}>`);
  }
}

function writeList(
  w: Writer,
  name: string,
  type: Extract<FieldType, { kind: 'list' }>,
  value: unknown,
  depth: number,
  path: string,
) {
  if (!Array.isArray(value)) throw new EncodeError(`${path}: expected a list`);
  if (value.length === 0) {
    w.out.push(`${pad(w, depth)}<${name} />`);
    return;
  }
  w.out.push(`${pad(w, depth)}<${name}>`);
  value.forEach((item, i) => {
    writeItem(w, type.itemElement, type.item, item, depth + 1, `${path}/${type.itemElement}[${i + 1}]`);
  });
  w.out.push(`${pad(w, depth)}</${name}>`);
}

export function writeFields(
  w: Writer,
  value: Record<string, unknown>,
  fields: readonly Field[],
  depth: number,
  path: string,
): void {
  for (const f of fields) {
    const v = Object.hasOwn(value, f.name) ? value[f.name] : undefined;
    const where = path ? `${path}/${f.name}` : f.name;
    if (v === undefined || v === null) {
      if (f.nillable && v === null) {
        w.out.push(`${pad(w, depth)}<${f.name} xsi:nil="true" />`);
        continue;
      }
      if (f.minOccurs === 1) {
        // ASMX would write a default value here; Payframe never makes data up.
        throw new EncodeError(`${where} is required but has no value`);
      }
      continue; // optional and absent (or null): omitted, as XmlSerializer omits null strings
    }
    writeValue(w, f.name, f.type, v, depth, where);
  }
}

export function writeValue(
  w: Writer,
  name: string,
  type: FieldType,
  value: unknown,
  depth: number,
  path: string,
) {
  switch (type.kind) {
    case 'scalar': {
      const text = scalarText(type.type, value, path);
      w.out.push(text === '' ? `${pad(w, depth)}<${name} />` : `${pad(w, depth)}<${name}>${text}</${name}>`);
      return;
    }
    case 'enum':
      w.out.push(`${pad(w, depth)}<${name}>${enumText(type, value, path)}</${name}>`);
      return;
    case 'complex':
      writeComplex(w, name, type.type, value, depth, path);
      return;
    case 'list':
      writeList(w, name, type, value, depth, path);
  }
}
