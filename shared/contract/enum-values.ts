/**
 * Reading and checking enumeration values (model.ts `EnumFieldType`) as XmlSerializer reads a .NET
 * enum: the element's text must be one of the names exactly (case-sensitive, nothing trimmed).
 * Pure: no I/O, no Node imports.
 */
import { callerText } from './caller-text.ts';
import type { EnumFieldType } from './model.ts';

/** A value outside the enumeration; the codec wraps it in a soap:Client fault like a bad scalar. */
export class EnumValueError extends Error {
  override readonly name = 'EnumValueError';
  readonly type: string;
  readonly value: string;
  readonly allowed: readonly string[];

  constructor(type: EnumFieldType, value: string) {
    // XmlSerializer's own words (CreateUnknownConstantException), then what would have been accepted.
    super(
      `Instance validation error: '${callerText(value)}' is not a valid value for ${type.type}. ` +
        `Allowed values: ${type.values.join(', ')}.`,
    );
    this.type = type.type;
    this.value = value;
    this.allowed = type.values;
  }
}

/** The value type of an enumeration: the union of its names. */
export type EnumValue<T extends EnumFieldType> = T['values'][number];

export function isEnumValue<T extends EnumFieldType>(type: T, value: unknown): value is EnumValue<T> {
  return typeof value === 'string' && type.values.includes(value);
}

/** The element text as a value of `type`; throws EnumValueError for anything else. */
export function parseEnum<T extends EnumFieldType>(type: T, text: string): EnumValue<T> {
  if (isEnumValue(type, text)) return text;
  throw new EnumValueError(type, text);
}
