/**
 * The meta-model of the Transaction Service contract (DESIGN.md §1).
 *
 * The contract table (`types.ts`, `operations.ts`) is written with these builders; the XML codec,
 * request validation, the WSDL, the help page, the TypeScript types and the SOAP client all read it.
 * The builders take `const` type parameters so that every name, type and Required flag survives as a
 * literal type: `values.ts` and `service.ts` derive the TypeScript types from the same table, so
 * nothing is declared twice.
 *
 * JavaScript values (DESIGN.md §3, never floats for money or ids):
 *   string   -> string
 *   long     -> string of digits, optional leading '-', checked against the signed 64-bit range
 *   int      -> number (checked against the signed 32-bit range)
 *   decimal  -> string that keeps its scale ("10.50")
 *   boolean  -> boolean
 *   dateTime -> string in an XML Schema lexical form ("2024-01-02T03:04:05"); nil -> null
 *   enum     -> the value's name as a literal string ('Open' | 'Paid' | …)
 * `scalars.ts` parses and formats the scalars (asmx-compatibility.md §1.4–1.5), `enum-values.ts` the
 * enumerations.
 */

export type ScalarType = 'string' | 'long' | 'int' | 'decimal' | 'boolean' | 'dateTime';

export interface ScalarValues {
  string: string;
  long: string;
  int: number;
  decimal: string;
  boolean: boolean;
  dateTime: string;
}

export interface ScalarFieldType<T extends ScalarType = ScalarType> {
  readonly kind: 'scalar';
  readonly type: T;
}

export interface ComplexFieldType<N extends string = string> {
  readonly kind: 'complex';
  /** Name of a complex type in `types.ts`. */
  readonly type: N;
}

export interface ListFieldType<I extends string = string, E extends string = string> {
  readonly kind: 'list';
  /** A scalar type or the name of a complex type. */
  readonly item: I;
  /** Element name of each item: the complex type's name, or the XSD name for scalars ("string"). */
  readonly itemElement: E;
}

/**
 * An XSD enumeration (`<s:simpleType>` restricting `s:string`), as XmlSchemaExporter writes a .NET
 * enum: the wire holds a value's name. Used as a field's type object, not by name, so that its values
 * reach `values.ts` as literal types and the table needs no second lookup for them.
 */
export interface EnumFieldType<N extends string = string, V extends readonly string[] = readonly string[]> {
  readonly kind: 'enum';
  /** The simpleType's name in the WSDL (`CheckoutSessionStatus`). */
  readonly type: N;
  /** The allowed values in schema order; the first is the neutral value (ASMX's default(T) is 0). */
  readonly values: V;
}

/** What an element holds: a scalar, an enumeration, a complex type (by name), or a list of items. */
export type FieldType = ScalarFieldType | EnumFieldType | ComplexFieldType | ListFieldType;

export interface Field<
  N extends string = string,
  T extends FieldType = FieldType,
  M extends 0 | 1 = 0 | 1,
  Nil extends boolean = boolean,
> {
  readonly name: N;
  readonly type: T;
  /** 1 when the spec marks the element Required (Payframe enforces it; ASMX would default it). */
  readonly minOccurs: M;
  readonly nillable: Nil;
}

export interface ComplexType<
  N extends string = string,
  F extends readonly Field[] = readonly Field[],
  B extends string = string,
> {
  readonly name: N;
  /** Name of the complex type this one extends (LoginResponse extends OperationStatus). */
  readonly base?: B;
  /** Own fields only, in schema order; a base type's fields come before them (see `fieldsOf`). */
  readonly fields: F;
}

export interface Operation<
  N extends string = string,
  P extends readonly Field[] = readonly Field[],
  R extends FieldType | null = FieldType | null,
> {
  readonly name: N;
  readonly params: P;
  /** What `<Op>Result` holds; null for an operation without a result. */
  readonly result: R;
  /** A Payframe extension to the spec (marked as such in the WSDL and help page). */
  readonly extension: boolean;
  /** One line for the help page and the WSDL documentation. */
  readonly doc: string;
}

const SCALARS: ReadonlySet<string> = new Set<ScalarType>([
  'string',
  'long',
  'int',
  'decimal',
  'boolean',
  'dateTime',
]);

export function isScalarType(name: string): name is ScalarType {
  return SCALARS.has(name);
}

/** The field type a short name stands for; a plain `string` (not a literal) gives the open union. */
export type TypeOf<N extends string> = string extends N
  ? FieldType
  : N extends ScalarType
    ? ScalarFieldType<N>
    : ComplexFieldType<N>;

/** A short name resolved, or a field type passed through. */
export type ResolveType<T extends string | FieldType> = T extends string ? TypeOf<T> : T;

/** A field type from a short name: a scalar name, or a complex type's name. */
export function typeOf<const N extends string>(name: N): TypeOf<N> {
  const type: FieldType = isScalarType(name)
    ? { kind: 'scalar', type: name }
    : { kind: 'complex', type: name };
  return type as TypeOf<N>;
}

/**
 * An enumeration type, declared once as a const and used as the type of every field that holds it
 * (`field('Status', CheckoutSessionStatus, required)`). Values are names, unique and non-empty.
 */
export function enumeration<const N extends string, const V extends readonly [string, ...string[]]>(
  name: N,
  values: V,
): EnumFieldType<N, V> {
  if (new Set(values).size !== values.length || values.some((v) => v === '')) {
    throw new Error(`Enumeration ${name} must have distinct, non-empty values`);
  }
  const type: EnumFieldType<N, V> = { kind: 'enum', type: name, values: Object.freeze([...values]) as never };
  return Object.freeze(type);
}

/** A list whose items are `<itemElement>` elements (ASMX names them after the item type). */
export function listOf<const I extends string, const E extends string = I>(
  item: I,
  itemElement?: E,
): ListFieldType<I, E> {
  return { kind: 'list', item, itemElement: (itemElement ?? item) as E };
}

export interface FieldOptions {
  readonly required?: boolean;
  readonly nillable?: boolean;
}

/** `{ required: true }` -> 1, absent or false -> 0, a non-literal boolean -> either. */
export type MinOccursOf<O> = O extends { readonly required: true }
  ? 1
  : O extends { readonly required?: false | undefined }
    ? 0
    : 0 | 1;

export type NillableOf<O> = O extends { readonly nillable: true }
  ? true
  : O extends { readonly nillable?: false | undefined }
    ? false
    : boolean;

type NoOptions = Record<never, never>;

export function field<
  const N extends string,
  const T extends string | FieldType,
  const O extends FieldOptions = NoOptions,
>(name: N, type: T, options?: O): Field<N, ResolveType<T>, MinOccursOf<O>, NillableOf<O>> {
  return {
    name,
    type: (typeof type === 'string' ? typeOf(type) : type) as ResolveType<T>,
    minOccurs: (options?.required ? 1 : 0) as MinOccursOf<O>,
    nillable: (options?.nillable ?? false) as NillableOf<O>,
  };
}

/**
 * Several fields of one type and Required-ness, in the given order: one row of the spec's field
 * tables ("MerchantID, RecurringInfoID, PaymentInfoID | long | yes").
 */
export function fields<
  const Ns extends readonly string[],
  const T extends string | FieldType,
  const O extends FieldOptions = NoOptions,
>(
  names: Ns,
  type: T,
  options?: O,
): { readonly [K in keyof Ns]: Field<Ns[K] & string, ResolveType<T>, MinOccursOf<O>, NillableOf<O>> } {
  return names.map((name) => field(name, type, options)) as never;
}

export function complexType<
  const N extends string,
  const F extends readonly Field[],
  const B extends string = never,
>(name: N, fieldList: F, options: { readonly base?: B } = {}): ComplexType<N, F, B> {
  return options.base === undefined
    ? { name, fields: fieldList }
    : { name, base: options.base, fields: fieldList };
}

export interface OperationDefinition<
  N extends string,
  P extends readonly Field[],
  R extends string | FieldType | null,
> {
  readonly name: N;
  readonly params: P;
  /** A scalar or complex type's name, a `listOf(...)`, or null. */
  readonly result: R;
  readonly doc: string;
  readonly extension?: boolean;
}

export function operation<
  const N extends string,
  const P extends readonly Field[],
  const R extends string | FieldType | null,
>(
  definition: OperationDefinition<N, P, R>,
): Operation<N, P, R extends string | FieldType ? ResolveType<R> : null> {
  const { name, params, result, doc, extension = false } = definition;
  return {
    name,
    params,
    result: (result === null ? null : typeof result === 'string' ? typeOf(result) : result) as never,
    extension,
    doc,
  };
}

/**
 * A type's fields in schema order, base type first (XmlSerializer writes inherited members before
 * the derived type's own, so LoginResponse is Status, Message, Data).
 */
export function flattenFields(type: ComplexType, lookup: (name: string) => ComplexType | undefined): Field[] {
  if (type.base === undefined) return [...type.fields];
  const base = lookup(type.base);
  if (base === undefined) throw new Error(`Unknown base type ${type.base} of ${type.name}`);
  return [...flattenFields(base, lookup), ...type.fields];
}

/**
 * Operations whose parameters are all scalars are also served over HTTP GET and POST (ASMX rule).
 * ASMX would take enumeration parameters too; no operation has one, so Payframe does not.
 */
export function hasSimpleParams(op: Operation): boolean {
  return op.params.every((p) => p.type.kind === 'scalar');
}

/** Root element of the HTTP GET/POST response, named after the return type as ASMX does. */
export function httpRootElement(op: Operation): string | null {
  if (!hasSimpleParams(op) || op.result === null) return null;
  const r = op.result;
  if (r.kind !== 'list') return r.type;
  return `ArrayOf${r.itemElement.charAt(0).toUpperCase()}${r.itemElement.slice(1)}`;
}
