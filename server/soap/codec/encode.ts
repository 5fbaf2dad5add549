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

/** A value's path in error messages, joined only when one is thrown (`name` '' for the parent's own). */
function at(parent: string, name: string): string {
  if (name === '') return parent;
  return parent === '' ? name : `${parent}/${name}`;
}

// The writers below return the XML of one value as a string and the exported ones push it: a
// response is built by concatenation, not as one array item per tag to join (issue 18: a 50-item
// list answer is ≈1,400 tags). Paths for error messages are passed as parent + name and joined only
// when an error is thrown.

function scalarText(type: string, value: unknown, parent: string, name: string): string {
  // long and decimal are strings here (DESIGN.md §3): a JS number in their place is a bug to refuse.
  if (typeof value !== JS_TYPES[type] && !(type === 'dateTime' && value instanceof Date)) {
    throw new EncodeError(
      `${at(parent, name)}: expected a ${type} value, got ${value === null ? 'null' : typeof value}`,
    );
  }
  try {
    return escapeText(formatScalar(type as Parameters<typeof formatScalar>[0], value as never));
  } catch (err) {
    throw new EncodeError(`${at(parent, name)}: ${(err as Error).message}`);
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

function itemXml(
  w: Writer,
  name: string,
  itemType: string,
  value: unknown,
  depth: number,
  path: string,
): string {
  if (value === null || value === undefined) return `${pad(w, depth)}<${name} xsi:nil="true" />`;
  if (isScalarType(itemType))
    return `${pad(w, depth)}<${name}>${scalarText(itemType, value, path, '')}</${name}>`;
  return complexXml(w, name, itemType, value, depth, path);
}

function complexXml(
  w: Writer,
  name: string,
  typeName: string,
  value: unknown,
  depth: number,
  path: string,
): string {
  const type = findComplexType(typeName);
  if (!type) throw new EncodeError(`Contract has no type ${typeName}`);
  if (typeof value !== 'object' || value === null) throw new EncodeError(`${path}: expected a ${typeName}`);
  const inner = fieldsXml(w, value as Record<string, unknown>, fieldsOf(type), depth + 1, path);
  const indent = pad(w, depth);
  return inner === '' ? `${indent}<${name} />` : `${indent}<${name}>${inner}${indent}</${name}>`;
}

function listXml(
  w: Writer,
  name: string,
  type: Extract<FieldType, { kind: 'list' }>,
  value: unknown,
  depth: number,
  path: string,
): string {
  if (!Array.isArray(value)) throw new EncodeError(`${path}: expected a list`);
  const indent = pad(w, depth);
  if (value.length === 0) return `${indent}<${name} />`;
  let xml = `${indent}<${name}>`;
  for (let i = 0; i < value.length; i++) {
    xml += itemXml(
      w,
      type.itemElement,
      type.item,
      value[i],
      depth + 1,
      `${path}/${type.itemElement}[${i + 1}]`,
    );
  }
  return `${xml}${indent}</${name}>`;
}

function fieldsXml(
  w: Writer,
  value: Record<string, unknown>,
  fields: readonly Field[],
  depth: number,
  path: string,
): string {
  let xml = '';
  for (const f of fields) {
    const v = Object.hasOwn(value, f.name) ? value[f.name] : undefined;
    if (v === undefined || v === null) {
      if (f.nillable && v === null) {
        xml += `${pad(w, depth)}<${f.name} xsi:nil="true" />`;
        continue;
      }
      if (f.minOccurs === 1) {
        // ASMX would write a default value here; Payframe never makes data up.
        throw new EncodeError(`${at(path, f.name)} is required but has no value`);
      }
      continue; // optional and absent (or null): omitted, as XmlSerializer omits null strings
    }
    xml += valueXml(w, f.name, f.type, v, depth, path, f.name);
  }
  return xml;
}

/** One value as element `name`; its path is `at(parent, pathName)`. */
function valueXml(
  w: Writer,
  name: string,
  type: FieldType,
  value: unknown,
  depth: number,
  parent: string,
  pathName: string,
): string {
  switch (type.kind) {
    case 'scalar': {
      const text = scalarText(type.type, value, parent, pathName);
      return text === '' ? `${pad(w, depth)}<${name} />` : `${pad(w, depth)}<${name}>${text}</${name}>`;
    }
    case 'enum':
      return `${pad(w, depth)}<${name}>${enumText(type, value, at(parent, pathName))}</${name}>`;
    case 'complex':
      return complexXml(w, name, type.type, value, depth, at(parent, pathName));
    case 'list':
      return listXml(w, name, type, value, depth, at(parent, pathName));
  }
}

/** The fields of `value` in contract order; `path` is the value's own path (for error messages). */
export function writeFields(
  w: Writer,
  value: Record<string, unknown>,
  fields: readonly Field[],
  depth: number,
  path: string,
): void {
  const xml = fieldsXml(w, value, fields, depth, path);
  if (xml !== '') w.out.push(xml);
}

/** One value as element `name`; `path` is its path (for error messages). */
export function writeValue(
  w: Writer,
  name: string,
  type: FieldType,
  value: unknown,
  depth: number,
  path: string,
): void {
  w.out.push(valueXml(w, name, type, value, depth, path, ''));
}
