/**
 * The `<wsdl:types>` part of the `?WSDL` document, derived from the contract table (DESIGN.md §1) in
 * the shape XmlSchemaExporter gives it (asmx-compatibility.md §1.6):
 * - per operation an element `Op` (a sequence of its parameters) and `OpResponse` (with `OpResult`);
 * - each complex type right after the element or type that first refers to it, depth first, a derived
 *   type before its base (XmlSchemaExporter adds a type to the schema, then exports what it uses);
 * - lists as `ArrayOfX` complex types;
 * - each enumeration once, as a `<s:simpleType>` restricting `s:string` to its values, where it is
 *   first referred to (XmlSchemaExporter exports a .NET enum so);
 * - with HTTP GET/POST on, the top-level elements their Out messages name (`boolean`,
 *   `ArrayOfTransactionHistory`, `MerchantInfo`), after everything else.
 * minOccurs and nillable come from the table (strings 0, value types 1, nillable dateTime 1 + nil).
 * An enumeration is a value type: a Required one is minOccurs 1, and a result of one is never nil.
 */
import {
  type ComplexType,
  type Field,
  type FieldType,
  findComplexType,
  httpRootElement,
  isScalarType,
  type ListFieldType,
  type Operation,
} from '../../shared/contract/index.ts';
import type { Attrs, XmlWriter } from './wsdl-writer.ts';

/** `ArrayOfTransactionHistory`, `ArrayOfString`: what ASMX names a list of `<itemElement>` items. */
export function arrayTypeName(list: ListFieldType): string {
  return `ArrayOf${list.itemElement.charAt(0).toUpperCase()}${list.itemElement.slice(1)}`;
}

/** The QName an element of this type refers to: `s:long`, `tns:Request`, `tns:ArrayOfString`. */
export function typeRef(type: FieldType): string {
  if (type.kind === 'scalar') return `s:${type.type}`;
  if (type.kind === 'list') return `tns:${arrayTypeName(type)}`;
  return `tns:${type.type}`;
}

function lookup(name: string): ComplexType {
  const type = findComplexType(name);
  if (type === undefined) throw new Error(`The contract refers to an unknown complex type ${name}`);
  return type;
}

/** One `<s:element>` of a sequence, in ASMX's attribute order. */
function fieldParticle(field: Field): Attrs {
  return {
    minOccurs: String(field.minOccurs),
    maxOccurs: '1',
    name: field.name,
    nillable: field.nillable ? 'true' : undefined,
    type: typeRef(field.type),
  };
}

/** A value type (not a string, complex or list) always has a value, so it is never nil. */
function isValueType(type: FieldType): boolean {
  return type.kind === 'enum' || (type.kind === 'scalar' && type.type !== 'string');
}

/** `OpResult`: a value type is always present (minOccurs 1); a string or complex result may be null. */
function resultParticle(op: Operation, result: FieldType): Attrs {
  const valueType = isValueType(result);
  return {
    minOccurs: valueType ? '1' : '0',
    maxOccurs: '1',
    name: `${op.name}Result`,
    type: typeRef(result),
  };
}

/** The item of an `ArrayOfX`: nillable for strings and complex types, required for value types. */
function itemParticle(list: ListFieldType): Attrs {
  const valueType = isScalarType(list.item) && list.item !== 'string';
  return {
    minOccurs: valueType ? '1' : '0',
    maxOccurs: 'unbounded',
    name: list.itemElement,
    nillable: valueType ? undefined : 'true',
    type: isScalarType(list.item) ? `s:${list.item}` : `tns:${list.item}`,
  };
}

function sequence(w: XmlWriter, particles: readonly Attrs[]): void {
  if (particles.length === 0) return;
  w.element('s:sequence', {}, () => {
    for (const p of particles) w.empty('s:element', p);
  });
}

/** Writes the schema of the given operations. */
export function writeSchema(
  w: XmlWriter,
  ops: readonly Operation[],
  namespace: string,
  httpBindings: boolean,
): void {
  const written = new Set<string>();

  const writeTypeOf = (type: FieldType): void => {
    if (type.kind === 'scalar') return;
    if (type.kind === 'enum') {
      if (written.has(type.type)) return;
      written.add(type.type);
      w.element('s:simpleType', { name: type.type }, () => {
        w.element('s:restriction', { base: 's:string' }, () => {
          for (const value of type.values) w.empty('s:enumeration', { value });
        });
      });
      return;
    }
    if (type.kind === 'list') {
      const name = arrayTypeName(type);
      if (written.has(name)) return;
      written.add(name);
      w.element('s:complexType', { name }, () => sequence(w, [itemParticle(type)]));
      if (!isScalarType(type.item)) writeTypeOf({ kind: 'complex', type: type.item });
      return;
    }
    if (written.has(type.type)) return;
    written.add(type.type);
    const complex = lookup(type.type);
    const own = complex.fields.map(fieldParticle);
    w.element('s:complexType', { name: complex.name }, () => {
      if (complex.base === undefined) {
        sequence(w, own);
        return;
      }
      w.element('s:complexContent', { mixed: 'false' }, () => {
        w.element('s:extension', { base: `tns:${complex.base}` }, () => sequence(w, own));
      });
    });
    if (complex.base !== undefined) writeTypeOf({ kind: 'complex', type: complex.base });
    for (const f of complex.fields) writeTypeOf(f.type);
  };

  w.element('wsdl:types', {}, () => {
    w.element('s:schema', { elementFormDefault: 'qualified', targetNamespace: namespace }, () => {
      for (const op of ops) {
        w.element('s:element', { name: op.name }, () => {
          w.element('s:complexType', {}, () => sequence(w, op.params.map(fieldParticle)));
        });
        for (const p of op.params) writeTypeOf(p.type);
        const result = op.result;
        w.element('s:element', { name: `${op.name}Response` }, () => {
          w.element('s:complexType', {}, () => sequence(w, result ? [resultParticle(op, result)] : []));
        });
        if (result) writeTypeOf(result);
      }
      if (httpBindings) writeHttpRootElements(w, ops);
    });
  });
}

/** `<s:element name="boolean" type="s:boolean" />` and the like, one per distinct GET/POST root. */
function writeHttpRootElements(w: XmlWriter, ops: readonly Operation[]): void {
  const seen = new Set<string>();
  for (const op of ops) {
    const root = httpRootElement(op);
    if (root === null || op.result === null || seen.has(root)) continue;
    seen.add(root);
    const r = op.result;
    const nillable = !isValueType(r);
    w.empty('s:element', { name: root, nillable: nillable ? 'true' : undefined, type: typeRef(r) });
  }
}
