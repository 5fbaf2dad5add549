/**
 * Parameters of the HTTP GET and POST bindings (asmx-compatibility.md §1.5 "GET/POST parameters").
 * ASMX reads them with ScalarFormatter.FromString, i.e. Convert.ChangeType(value, T,
 * InvariantCulture), not with XmlConvert, so the rules differ from the SOAP body's (`scalars.ts`):
 *   boolean   Boolean.Parse: `True`/`false` in any case, white space trimmed; not `1`/`0`
 *   int, long Int32/Int64.Parse with NumberStyles.Integer (same grammar as XmlConvert)
 *   decimal   Decimal.Parse with NumberStyles.Number: also thousands separators (`1,000.50`) and a
 *             trailing sign (`5-`)
 *   dateTime  DateTime.Parse (invariant culture); Payframe accepts the documented subset below
 * A failure throws ChangeTypeError "Cannot convert {v} to System.T." with the inner message.
 * Pure: no I/O, no Node imports.
 */
import type { ScalarType, ScalarValues } from './model.ts';
import { parseNetNumber } from './net-number.ts';
import { ChangeTypeError, MESSAGES, ScalarFormatError } from './scalar-error.ts';
import { decimalFromNumber, parseInt32, parseInt64 } from './scalars.ts';
import { parseDateTime } from './xsd-date-time.ts';

// char.IsWhiteSpace plus '\0', which Boolean.Parse trims (TrimWhiteSpaceAndNull).
const NET_WS = '[\\0\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const NET_WHITESPACE = new RegExp(`^${NET_WS}+|${NET_WS}+$`, 'g');

function convertBoolean(text: string): boolean {
  const s = text.replace(NET_WHITESPACE, '').toLowerCase();
  if (s === 'true') return true;
  if (s === 'false') return false;
  throw new ChangeTypeError('boolean', text, MESSAGES.badBoolean);
}

function parseNumberStyleDecimal(text: string): string {
  const n = parseNetNumber(text, { decimalPoint: true, thousands: true, trailingSign: true });
  if (n === null) throw new ScalarFormatError('decimal', text, 'format', MESSAGES.badFormat);
  return decimalFromNumber(text, n);
}

const ISO =
  /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ]+(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const US =
  /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?(?:\s*([AP]M))?)?$/i;

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `Z`, `+hh`, `+hhmm`, `+hh:mm` as `Z` or `+hh:mm`. */
function normalizeZone(zone: string | undefined): string {
  if (zone === undefined) return '';
  if (zone.toUpperCase() === 'Z') return 'Z';
  const digits = zone.slice(1).replace(':', '');
  return `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2).padEnd(2, '0')}`;
}

/**
 * The subset of invariant-culture DateTime.Parse that Payframe accepts: ISO `yyyy-MM-dd` (or
 * `yyyy/MM/dd`) with an optional `T`/space time `HH:mm[:ss[.fffffff]]` and zone (`Z`, `±hh[:mm]`),
 * and the invariant `MM/dd/yyyy [h:mm[:ss] [AM|PM]]`. The result is a dateTime lexical string; the
 * zone is kept (DateTime.Parse would convert it to server-local time).
 */
function convertDateTime(text: string): string {
  const s = text.replace(NET_WHITESPACE, '');
  const iso = ISO.exec(s);
  const us = iso === null ? US.exec(s) : null;
  const m = iso ?? us;
  const fail = () => new ChangeTypeError('dateTime', text, MESSAGES.badDateTime);
  if (m === null) throw fail();
  const [year, month, day] = iso ? [m[1], m[2], m[3]] : [m[3], m[1], m[2]];
  let hour = Number(m[4] ?? 0);
  const ampm = us?.[8]?.toUpperCase();
  if (ampm !== undefined) {
    if (hour < 1 || hour > 12) throw fail();
    hour = (hour % 12) + (ampm === 'PM' ? 12 : 0);
  }
  const time = `${pad(hour)}:${m[5] ?? '00'}:${m[6] ?? '00'}${m[7] ? `.${m[7]}` : ''}`;
  const lexical = `${year}-${pad(Number(month))}-${pad(Number(day))}T${time}${normalizeZone(iso?.[8])}`;
  try {
    // The calendar checks (day of month, hour < 24…) are those of the XML reader.
    return parseDateTime(lexical);
  } catch (e) {
    if (e instanceof ScalarFormatError) throw fail();
    throw e;
  }
}

/** Runs a number parser and rewraps its FormatException/OverflowException as ASMX does. */
function wrapped<T extends ScalarType>(type: T, parse: (text: string) => ScalarValues[T]) {
  return (text: string): ScalarValues[T] => {
    try {
      return parse(text);
    } catch (e) {
      if (e instanceof ScalarFormatError) throw new ChangeTypeError(type, text, e.message);
      throw e;
    }
  };
}

const converters: { readonly [T in ScalarType]: (text: string) => ScalarValues[T] } = {
  string: (text) => text,
  long: wrapped('long', parseInt64),
  int: wrapped('int', parseInt32),
  decimal: wrapped('decimal', parseNumberStyleDecimal),
  boolean: convertBoolean,
  dateTime: convertDateTime,
};

/** A GET query or POST form value as the parameter's type; throws ChangeTypeError like ASMX. */
export function convertHttpParam<T extends ScalarType>(type: T, text: string): ScalarValues[T] {
  return converters[type](text);
}
