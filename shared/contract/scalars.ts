/**
 * Parsing and formatting of the contract's scalar values as ASMX's XmlSerializer does it with
 * XmlConvert (asmx-compatibility.md §1.4 "Bad input values", §1.5 "Response serialization").
 * JavaScript representations are model.ts's: long and decimal are strings (never Number), int is a
 * number, dateTime is a lexical string. Pure: no I/O, no Node imports (usable in the widget too).
 *
 * Parameters of HTTP GET/POST follow other rules (Convert.ChangeType): see `http-params.ts`.
 */
import type { ScalarType, ScalarValues } from './model.ts';
import { type ParsedNumber, parseNetNumber } from './net-number.ts';
import { callerText } from './caller-text.ts';
import { MESSAGES, ScalarFormatError } from './scalar-error.ts';
import { formatDateTime, parseDateTime } from './xsd-date-time.ts';

export { ChangeTypeError, NET_TYPE_NAMES, type ScalarErrorKind, ScalarFormatError } from './scalar-error.ts';
export {
  formatDateTime,
  parseDateTime,
  parseXsdDateTime,
  printXsdDateTime,
  toDateTime,
  type XsdDateTime,
  type XsdDateTimeForm,
} from './xsd-date-time.ts';

export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
/** System.Decimal: a 96-bit unsigned mantissa and a scale of 0..28. */
export const DECIMAL_MAX_MANTISSA = 2n ** 96n - 1n;
export const DECIMAL_MAX_SCALE = 28;

// XmlConvert.WhitespaceChars, which XmlConvert.TrimString strips.
const XML_WHITESPACE = /^[ \t\n\r]+|[ \t\n\r]+$/g;

/** XmlConvert.ToBoolean: exactly `true`, `false`, `1`, `0` once XML white space is trimmed. */
export function parseBoolean(text: string): boolean {
  const s = text.replace(XML_WHITESPACE, '');
  if (s === 'true' || s === '1') return true;
  if (s === 'false' || s === '0') return false;
  // .NET Framework formats the message with the trimmed string; Payframe quotes it only when checked.
  throw new ScalarFormatError(
    'boolean',
    text,
    'format',
    `The string '${callerText(s)}' is not a valid Boolean value.`,
  );
}

export function formatBoolean(value: boolean): string {
  return value ? 'true' : 'false';
}

/** The integer in `text` as a BigInt (never a Number, so no precision is lost above 2^53). */
function parseInteger(
  type: 'int' | 'long',
  text: string,
  min: bigint,
  max: bigint,
  overflow: string,
): bigint {
  const n = parseNetNumber(text);
  if (n === null) throw new ScalarFormatError(type, text, 'format', MESSAGES.badFormat);
  const value = BigInt(n.negative ? `-${n.integer || '0'}` : n.integer || '0');
  if (value < min || value > max) throw new ScalarFormatError(type, text, 'overflow', overflow);
  return value;
}

/** XmlConvert.ToInt32: optional sign, digits, surrounding white space; signed 32-bit. */
export function parseInt32(text: string): number {
  return Number(parseInteger('int', text, BigInt(INT32_MIN), BigInt(INT32_MAX), MESSAGES.int32Overflow));
}

export function formatInt32(value: number): string {
  if (!Number.isInteger(value) || value < INT32_MIN || value > INT32_MAX) {
    throw new ScalarFormatError('int', String(value), 'overflow', MESSAGES.int32Overflow);
  }
  return String(value);
}

/** XmlConvert.ToInt64, as the canonical digit string: no '+', no leading zeros, no "-0". */
export function parseInt64(text: string): string {
  return parseInteger('long', text, INT64_MIN, INT64_MAX, MESSAGES.int64Overflow).toString();
}

// Output fast paths (issue 18: a list answer writes hundreds of values). A string already in the
// canonical form, and short enough that it cannot overflow, is written as it is; anything else takes
// the full parse, which is what these patterns' matches would come out of unchanged.
/** A canonical long of at most 18 digits (below 2^63 whatever the digits). */
const CANONICAL_INT64 = /^(?:0|-?[1-9]\d{0,17})$/;
/** A canonical decimal of at most 28 digits (below System.Decimal's 2^96), not a negative zero. */
const CANONICAL_DECIMAL =
  /^(?:0|[1-9]\d{0,14})(?:\.\d{1,13})?$|^-(?=[\d.]*[1-9])(?:0|[1-9]\d{0,14})(?:\.\d{1,13})?$/;

/** A long for output: a BigInt, or a digit string (checked and made canonical). */
export function formatInt64(value: string | bigint): string {
  if (typeof value === 'string') return CANONICAL_INT64.test(value) ? value : parseInt64(value);
  if (value < INT64_MIN || value > INT64_MAX) {
    throw new ScalarFormatError('long', value.toString(), 'overflow', MESSAGES.int64Overflow);
  }
  return value.toString();
}

/** The canonical decimal string of a parsed number (`text` is for the error), checked against System.Decimal. */
export function decimalFromNumber(text: string, { negative, integer, fraction }: ParsedNumber): string {
  // .NET would round digits beyond Decimal's precision; Payframe refuses instead of silently
  // changing an amount, with the message of the overflow case.
  if (fraction.length > DECIMAL_MAX_SCALE || BigInt(`${integer}${fraction}` || '0') > DECIMAL_MAX_MANTISSA) {
    throw new ScalarFormatError('decimal', text, 'overflow', MESSAGES.decimalOverflow);
  }
  const digits = `${integer || '0'}${fraction ? `.${fraction}` : ''}`;
  const zero = !/[1-9]/.test(integer + fraction);
  return negative && !zero ? `-${digits}` : digits;
}

/**
 * XmlConvert.ToDecimal: `[+-]digits[.digits]`, `.5`, `5.`, surrounding white space; no exponent, no
 * thousands separators. The result keeps the scale as written (`10.50` stays `10.50`, `+1.0` is
 * `1.0`, `007` is `7`), as System.Decimal does (§1.5 "decimal keeps the scale").
 */
export function parseDecimal(text: string): string {
  const n = parseNetNumber(text, { decimalPoint: true });
  if (n === null) throw new ScalarFormatError('decimal', text, 'format', MESSAGES.badFormat);
  return decimalFromNumber(text, n);
}

/** A decimal string for output, in the canonical form; the scale is kept. */
export function formatDecimal(value: string): string {
  return CANONICAL_DECIMAL.test(value) ? value : parseDecimal(value);
}

const parsers: { readonly [T in ScalarType]: (text: string) => ScalarValues[T] } = {
  string: (text) => text,
  long: parseInt64,
  int: parseInt32,
  decimal: parseDecimal,
  boolean: parseBoolean,
  dateTime: parseDateTime,
};

const formatters: { readonly [T in ScalarType]: (value: ScalarValues[T]) => string } = {
  string: (value) => value,
  long: formatInt64,
  int: formatInt32,
  decimal: formatDecimal,
  boolean: formatBoolean,
  dateTime: formatDateTime,
};

/** An element's text as the value of a scalar type; throws ScalarFormatError as XmlConvert would. */
export function parseScalar<T extends ScalarType>(type: T, text: string): ScalarValues[T] {
  return parsers[type](text);
}

/** A scalar value as element text, as ASMX writes it. */
export function formatScalar<T extends ScalarType>(type: T, value: ScalarValues[T]): string {
  return formatters[type](value);
}
