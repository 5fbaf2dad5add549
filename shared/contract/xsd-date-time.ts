/**
 * dateTime values as ASMX reads and writes them (asmx-compatibility.md §1.4 "dateTime", §1.5).
 *
 * Reading: XmlConvert.ToDateTime(s, RoundtripKind) parses with XsdDateTimeFlags.AllXsd, i.e. any of
 * the 8 XML Schema forms (dateTime, time, date, gYearMonth, gYear, gMonthDay, gDay, gMonth), each with
 * an optional zone (`Z`/`z` or ±hh:mm) and, for times, a fraction of any length (7 digits kept, the
 * 8th rounds half to even). This follows .NET's XsdDateTime.Parser: 4-digit years from 0001, real
 * day-of-month checks (Feb 29 only in leap years; 1904 for gMonthDay), 2-digit zone fields, white
 * space around the value. Anything else, the empty string included, is "not a valid AllXsd value".
 *
 * Writing: XmlConvert.ToString(DateTime, RoundtripKind): always the full dateTime form, fraction
 * trimmed of trailing zeros (omitted when zero), no zone for an unspecified one.
 * Pure: no I/O, no Node imports.
 */
import { ScalarFormatError } from './scalar-error.ts';

export type XsdDateTimeForm =
  'dateTime' | 'time' | 'date' | 'gYearMonth' | 'gYear' | 'gMonthDay' | 'gDay' | 'gMonth';

export interface XsdDateTime {
  readonly form: XsdDateTimeForm;
  /** Components as .NET fills them: 1904 and 1 for parts a form does not carry. */
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  /** Fraction of a second in 100 ns ticks, 0..9_999_999. */
  readonly ticks: number;
  /** 'Z', '+hh:mm', '-hh:mm', or null for an unspecified (local, zone-less) value. */
  readonly zone: string | null;
}

// char.IsWhiteSpace, which XsdDateTime.Parser skips before and after the value.
const WS = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*';
const ZONE = '([Zz]|[+-]\\d\\d:\\d\\d)?';
const TIME = '(\\d\\d):(\\d\\d):(\\d\\d)(?:\\.(\\d+))?';
// Ordered as XsdDateTime.Parser tries them; all are anchored, so at most one matches.
const FORMS: ReadonlyArray<readonly [XsdDateTimeForm, RegExp]> = [
  ['dateTime', new RegExp(`^${WS}(\\d{4})-(\\d\\d)-(\\d\\d)T${TIME}${ZONE}${WS}$`)],
  ['date', new RegExp(`^${WS}(\\d{4})-(\\d\\d)-(\\d\\d)${ZONE}${WS}$`)],
  ['time', new RegExp(`^${WS}${TIME}${ZONE}${WS}$`)],
  ['gYearMonth', new RegExp(`^${WS}(\\d{4})-(\\d\\d)${ZONE}${WS}$`)],
  ['gYear', new RegExp(`^${WS}(\\d{4})${ZONE}${WS}$`)],
  ['gMonthDay', new RegExp(`^${WS}--(\\d\\d)-(\\d\\d)${ZONE}${WS}$`)],
  // "--MM--" is the pre-Recommendation gMonth form .NET still accepts.
  ['gMonth', new RegExp(`^${WS}--(\\d\\d)(?:--)?${ZONE}${WS}$`)],
  ['gDay', new RegExp(`^${WS}---(\\d\\d)${ZONE}${WS}$`)],
];

/** Which captured groups hold year, month, day and time, per form (-1: absent). */
const LAYOUT: Readonly<Record<XsdDateTimeForm, readonly [number, number, number, number]>> = {
  dateTime: [1, 2, 3, 4],
  date: [1, 2, 3, -1],
  time: [-1, -1, -1, 1],
  gYearMonth: [1, 2, -1, -1],
  gYear: [1, -1, -1, -1],
  gMonthDay: [-1, 1, 2, -1],
  gMonth: [-1, 1, -1, -1],
  gDay: [-1, -1, 1, -1],
};

const LEAP_YEAR = 1904;

function isLeap(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysInMonth(year: number, month: number): number {
  return month === 2 ? (isLeap(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Seven fraction digits, the rest rounded half to even as XsdDateTime.Parser.ParseTime does. */
function fractionTicks(digits: string): number {
  const ticks = Number(digits.slice(0, 7).padEnd(7, '0'));
  const rest = digits.slice(7);
  if (rest === '') return ticks;
  const next = rest.charCodeAt(0) - 48;
  const roundUp = next > 5 || (next === 5 && (/[1-9]/.test(rest.slice(1)) || ticks % 2 === 1));
  return roundUp ? ticks + 1 : ticks;
}

function invalid(text: string): ScalarFormatError {
  return new ScalarFormatError(
    'dateTime',
    text,
    'format',
    `The string '${text}' is not a valid AllXsd value.`,
  );
}

/** Adds one second (a fraction rounded up to 10^7 ticks), carrying as DateTime.AddTicks does. */
function carrySecond(v: XsdDateTime, text: string): XsdDateTime {
  let { year, month, day, hour, minute, second } = v;
  second++;
  if (second === 60) [second, minute] = [0, minute + 1];
  if (minute === 60) [minute, hour] = [0, hour + 1];
  if (hour === 24) [hour, day] = [0, day + 1];
  if (day > daysInMonth(year, month)) [day, month] = [1, month + 1];
  if (month === 13) [month, year] = [1, year + 1];
  if (year > 9999) throw invalid(text);
  // A time of day that rounds past midnight wraps, as the printed xsd:time of .NET does.
  return v.form === 'time'
    ? { ...v, hour: hour % 24, minute, second, ticks: 0 }
    : { ...v, year, month, day, hour, minute, second, ticks: 0 };
}

/**
 * A numeric group of a match, or the fallback when the layout has no such group (-1). A plain
 * function on purpose: this runs for every dateTime written, and closures made per call are costly.
 */
function groupNumber(m: RegExpExecArray, i: number, fallback: number): number {
  const g = i < 0 ? undefined : m[i];
  return g === undefined ? fallback : Number(g);
}

/** Parses any AllXsd form; throws ScalarFormatError "The string '…' is not a valid AllXsd value." */
export function parseXsdDateTime(text: string): XsdDateTime {
  for (const [form, pattern] of FORMS) {
    const m = pattern.exec(text);
    if (m === null) continue;
    const [y, mo, d, t] = LAYOUT[form];
    const year = groupNumber(m, y, LEAP_YEAR);
    const month = groupNumber(m, mo, 1);
    const day = groupNumber(m, d, 1);
    const hour = groupNumber(m, t, 0);
    const minute = groupNumber(m, t < 0 ? -1 : t + 1, 0);
    const second = groupNumber(m, t < 0 ? -1 : t + 2, 0);
    const fraction = t < 0 ? undefined : m[t + 3];
    const zone = m[m.length - 1] ?? null;
    if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) throw invalid(text);
    if (hour > 23 || minute > 59 || second > 59) throw invalid(text);
    const ticks = fraction === undefined ? 0 : fractionTicks(fraction);
    const value: XsdDateTime = {
      form,
      year,
      month,
      day,
      hour,
      minute,
      second,
      ticks,
      zone: zone?.toUpperCase() ?? null,
    };
    return ticks === 10_000_000 ? carrySecond(value, text) : value;
  }
  throw invalid(text);
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function printTime(v: XsdDateTime): string {
  const fraction = v.ticks === 0 ? '' : `.${pad(v.ticks, 7).replace(/0+$/, '')}`;
  return `${pad(v.hour)}:${pad(v.minute)}:${pad(v.second)}${fraction}`;
}

function printBody(v: XsdDateTime): string {
  switch (v.form) {
    case 'dateTime':
      return `${pad(v.year, 4)}-${pad(v.month)}-${pad(v.day)}T${printTime(v)}`;
    case 'date':
      return `${pad(v.year, 4)}-${pad(v.month)}-${pad(v.day)}`;
    case 'time':
      return printTime(v);
    case 'gYearMonth':
      return `${pad(v.year, 4)}-${pad(v.month)}`;
    case 'gYear':
      return pad(v.year, 4);
    case 'gMonthDay':
      return `--${pad(v.month)}-${pad(v.day)}`;
    case 'gMonth':
      return `--${pad(v.month)}`;
    case 'gDay':
      return `---${pad(v.day)}`;
  }
}

/** The lexical form of a value in its own XSD form (XsdDateTime.ToString), zone normalised to `Z`. */
export function printXsdDateTime(v: XsdDateTime): string {
  return `${printBody(v)}${v.zone ?? ''}`;
}

/**
 * The JavaScript value of an incoming dateTime: the canonical lexical form of what was sent, in its
 * own XSD form (`2024-01-02T03:04:05.5Z`, `2024-01-02`, `13:00:00`…).
 */
export function parseDateTime(text: string): string {
  return printXsdDateTime(parseXsdDateTime(text));
}

/**
 * The DateTime .NET makes of a value (XsdDateTime's implicit conversion): gDay and gMonth take the
 * current year, a time takes today's date, other forms keep .NET's fill-ins (gMonthDay: 1904).
 * The zone is kept as written (.NET would convert an offset to server-local time).
 */
export function toDateTime(v: XsdDateTime, now: Date = new Date()): XsdDateTime {
  if (v.form === 'time') {
    return { ...v, form: 'dateTime', year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() };
  }
  if (v.form === 'gDay' || v.form === 'gMonth') {
    // gDay is always in January and gMonth on day 1, so the current year never makes a bad date.
    return { ...v, form: 'dateTime', year: now.getFullYear() };
  }
  return { ...v, form: 'dateTime' };
}

// A full dateTime as printXsdDateTime writes it: no white space, fraction of 1–7 digits without
// trailing zeros, zone `Z` or ±hh:mm or none. Fields are checked by isCanonicalDateTime.
const CANONICAL_DATE_TIME =
  /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.\d{0,6}[1-9])?(?:Z|[+-]\d\d:\d\d)?$/;

/**
 * True when `text` is a valid full dateTime already in the form formatDateTime writes, so writing
 * it is copying it (issue 18: a list answer writes one per item). Anything else takes the full path.
 */
function isCanonicalDateTime(text: string): boolean {
  const m = CANONICAL_DATE_TIME.exec(text);
  if (m === null) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  return (
    year >= 1 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    Number(m[4]) <= 23 &&
    Number(m[5]) <= 59 &&
    Number(m[6]) <= 59
  );
}

/**
 * A dateTime for output, ASMX-style (XmlConvert.ToString with RoundtripKind): the full dateTime
 * form, fraction up to 7 digits with trailing zeros trimmed, `Z` for UTC, the offset as given, none
 * for an unspecified value. A JavaScript Date is an instant, so it is written in UTC with `Z`.
 */
export function formatDateTime(value: string | Date, now?: Date): string {
  if (typeof value === 'string' && isCanonicalDateTime(value)) return value;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw invalid(String(value));
    const ticks = value.getUTCMilliseconds() * 10_000;
    return printXsdDateTime({
      form: 'dateTime',
      year: value.getUTCFullYear(),
      month: value.getUTCMonth() + 1,
      day: value.getUTCDate(),
      hour: value.getUTCHours(),
      minute: value.getUTCMinutes(),
      second: value.getUTCSeconds(),
      ticks,
      zone: 'Z',
    });
  }
  return printXsdDateTime(toDateTime(parseXsdDateTime(value), now));
}
