/**
 * The JavaScript value of every complex type, derived from the table in `types.ts` at the type
 * level (DESIGN.md §1: declared once). Representations are those of model.ts's header.
 *
 *   Required (minOccurs 1)      -> a property that is always there
 *   optional (minOccurs 0)      -> `?: T | null` (absent, or ASMX's null for a missing element)
 *   nillable                    -> `T | null`
 *   enumeration                 -> the union of its values ('Open' | 'Paid' | …)
 *   list                        -> `T[]`
 *   derived type (LoginResponse) -> its base type's fields, then its own
 */
import type {
  ComplexFieldType,
  EnumFieldType,
  Field,
  FieldType,
  ListFieldType,
  ScalarFieldType,
  ScalarType,
  ScalarValues,
} from './model.ts';
import type { ComplexTypeName, ComplexTypeNamed } from './types.ts';

/** Flattens an intersection so editors show one object type. */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

type BaseFields<N extends ComplexTypeName> = ComplexTypeNamed<N>['base'] extends infer B
  ? B extends ComplexTypeName
    ? FieldsOfType<B>
    : never
  : never;

/** The union of a complex type's fields, inherited ones included. */
export type FieldsOfType<N extends ComplexTypeName> = ComplexTypeNamed<N>['fields'][number] | BaseFields<N>;

/** The value of one list item, or of an element of type `T`. */
export type ItemValue<I extends string> = I extends ScalarType
  ? ScalarValues[I]
  : I extends ComplexTypeName
    ? ValueOf<I>
    : never;

export type TypeValue<T extends FieldType> =
  T extends ScalarFieldType<infer S>
    ? ScalarValues[S]
    : T extends EnumFieldType<string, infer V>
      ? V[number]
      : T extends ComplexFieldType<infer C>
        ? ItemValue<C>
        : T extends ListFieldType<infer I>
          ? ItemValue<I>[]
          : never;

/** The value of one field: nillable ones may be null. */
export type FieldValue<F extends Field> = F['nillable'] extends true
  ? TypeValue<F['type']> | null
  : TypeValue<F['type']>;

/** An object with one property per field of the union `F`. */
export type FieldsValue<F extends Field> = Simplify<
  { [K in F as K['minOccurs'] extends 1 ? K['name'] : never]: FieldValue<K> } & {
    [K in F as K['minOccurs'] extends 1 ? never : K['name']]?: FieldValue<K> | null;
  }
>;

/** The JavaScript value of a complex type, e.g. `ValueOf<'Request'>`. */
export type ValueOf<N extends ComplexTypeName> = FieldsValue<FieldsOfType<N>>;
