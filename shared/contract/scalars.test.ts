import { describe, expect, it } from 'vitest';
import {
  formatDateTime,
  formatInt32,
  formatInt64,
  formatScalar,
  parseBoolean,
  parseDateTime,
  parseDecimal,
  parseInt32,
  parseInt64,
  parseScalar,
  parseXsdDateTime,
  ScalarFormatError,
} from './scalars.ts';

/** The error a parser throws, checked to be a ScalarFormatError. */
function failure(parse: () => unknown): ScalarFormatError {
  try {
    parse();
  } catch (e) {
    expect(e).toBeInstanceOf(ScalarFormatError);
    return e as ScalarFormatError;
  }
  throw new Error('expected a ScalarFormatError');
}

const BAD_FORMAT = 'Input string was not in a correct format.';

describe('boolean (XmlConvert.ToBoolean)', () => {
  it.each([
    ['true', true],
    ['false', false],
    ['1', true],
    ['0', false],
    [' \t\r\ntrue\n ', true],
  ])('%j is %s', (text, value) => expect(parseBoolean(text)).toBe(value));

  it.each(['True', 'FALSE', 'yes', '', '2', '\u00a0true'])('refuses %j', (text) => {
    const e = failure(() => parseBoolean(text));
    expect([e.type, e.kind, e.value]).toEqual(['boolean', 'format', text]);
  });

  it('names the trimmed value in the message, as .NET Framework does', () => {
    expect(failure(() => parseBoolean(' yes ')).message).toBe(
      "The string 'yes' is not a valid Boolean value.",
    );
  });
});

describe('int (XmlConvert.ToInt32)', () => {
  it.each([
    ['42', 42],
    [' -7 ', -7],
    ['+5', 5],
    ['007', 7],
    ['-0', 0],
    ['2147483647', 2147483647],
    ['-2147483648', -2147483648],
  ])('%j is %d', (text, value) => expect(parseInt32(text)).toBe(value));

  it.each(['', ' ', '-', '1.0', '1e3', '1,000', '- 5', '1 2', '0x10', '\u0663', '５'])(
    'refuses %j',
    (text) => {
      expect(failure(() => parseInt32(text)).message).toBe(BAD_FORMAT);
    },
  );

  it.each(['2147483648', '-2147483649', '99999999999999999999'])('refuses %s as out of range', (text) => {
    const e = failure(() => parseInt32(text));
    expect([e.kind, e.message]).toEqual([
      'overflow',
      'Value was either too large or too small for an Int32.',
    ]);
  });

  it('formats', () => {
    expect(formatInt32(-12)).toBe('-12');
    expect(() => formatInt32(2 ** 31)).toThrow(ScalarFormatError);
    expect(() => formatInt32(1.5)).toThrow(ScalarFormatError);
  });
});

describe('long (XmlConvert.ToInt64), kept as a digit string', () => {
  it('keeps longs above 2^53 exact', () => {
    expect(parseInt64('9007199254740993')).toBe('9007199254740993');
    expect(formatInt64(9007199254740993n)).toBe('9007199254740993');
  });

  it.each([
    ['9223372036854775807', '9223372036854775807'],
    ['-9223372036854775808', '-9223372036854775808'],
    ['+0001', '1'],
    ['-0', '0'],
    [' 00 ', '0'],
    ['\t-42\n', '-42'],
  ])('%j is %s', (text, value) => expect(parseInt64(text)).toBe(value));

  it.each(['9223372036854775808', '-9223372036854775809', '18446744073709551616'])('refuses %s', (text) => {
    expect(failure(() => parseInt64(text)).message).toBe(
      'Value was either too large or too small for an Int64.',
    );
  });

  it.each(['', '12a', '1.0', '--1'])('refuses %j as badly formed', (text) => {
    expect(failure(() => parseInt64(text)).message).toBe(BAD_FORMAT);
  });

  it('formats strings and bigints canonically and checks the range', () => {
    expect(formatInt64('+0012')).toBe('12');
    expect(formatInt64(-(2n ** 63n))).toBe('-9223372036854775808');
    expect(() => formatInt64(2n ** 63n)).toThrow('Value was either too large or too small for an Int64.');
  });
});

describe('decimal (XmlConvert.ToDecimal), kept as a string with its scale', () => {
  it.each([
    ['10.50', '10.50'],
    ['+1.0', '1.0'],
    ['.5', '0.5'],
    ['5.', '5'],
    ['-.25', '-0.25'],
    [' 007.10 ', '7.10'],
    ['-12.340', '-12.340'],
    ['-0.00', '0.00'],
    ['0', '0'],
    ['79228162514264337593543950335', '79228162514264337593543950335'],
    [`0.${'1'.repeat(28)}`, `0.${'1'.repeat(28)}`],
    [`1.${'0'.repeat(28)}`, `1.${'0'.repeat(28)}`],
  ])('%j is %s', (text, value) => expect(parseDecimal(text)).toBe(value));

  it.each(['', '.', '1e5', '1E-2', '1,000.00', '1.2.3', '$1', '(1)', '1-', 'NaN', 'Infinity'])(
    'refuses %j',
    (text) => {
      expect(failure(() => parseDecimal(text)).message).toBe(BAD_FORMAT);
    },
  );

  it.each(['79228162514264337593543950336', `0.${'1'.repeat(29)}`, `9.${'9'.repeat(28)}`])(
    'refuses %s beyond System.Decimal rather than rounding it',
    (text) => {
      const e = failure(() => parseDecimal(text));
      expect([e.kind, e.message]).toEqual([
        'overflow',
        'Value was either too large or too small for a Decimal.',
      ]);
    },
  );
});

describe('dateTime (XmlConvert.ToDateTime with XsdDateTimeFlags.AllXsd)', () => {
  it.each([
    ['2024-01-02T03:04:05', '2024-01-02T03:04:05'],
    ['2024-01-02T03:04:05.1230000Z', '2024-01-02T03:04:05.123Z'],
    ['2024-01-02T03:04:05z', '2024-01-02T03:04:05Z'],
    ['2024-01-02T03:04:05-03:00', '2024-01-02T03:04:05-03:00'],
    ['2026-10-02T15:09:01.1691795-03:00', '2026-10-02T15:09:01.1691795-03:00'],
    [' 2024-01-02\n', '2024-01-02'],
    ['2024-01-02+05:30', '2024-01-02+05:30'],
    ['13:00:00', '13:00:00'],
    ['13:00:00.5Z', '13:00:00.5Z'],
    ['2024-05', '2024-05'],
    ['2024', '2024'],
    ['--05-31', '--05-31'],
    ['--02-29', '--02-29'],
    ['--05', '--05'],
    ['--05--', '--05'],
    ['---15', '---15'],
    ['2024-02-29T00:00:00', '2024-02-29T00:00:00'],
  ])('accepts %j as %s', (text, value) => expect(parseDateTime(text)).toBe(value));

  it('keeps 7 fraction digits, rounding the 8th half to even', () => {
    expect(parseDateTime('2024-01-02T03:04:05.12345678')).toBe('2024-01-02T03:04:05.1234568');
    expect(parseDateTime('2024-01-02T03:04:05.12345675')).toBe('2024-01-02T03:04:05.1234568');
    expect(parseDateTime('2024-01-02T03:04:05.12345665')).toBe('2024-01-02T03:04:05.1234566');
    expect(parseDateTime('2024-01-02T03:04:05.123456651')).toBe('2024-01-02T03:04:05.1234567');
    expect(parseDateTime('2024-12-31T23:59:59.99999999')).toBe('2025-01-01T00:00:00');
  });

  it.each([
    '',
    ' ',
    'x',
    '2023-02-29',
    '2024-13-01',
    '2024-00-10',
    '2024-04-31',
    '0000-01-01',
    '24:00:00',
    '12:60:00',
    '12:00:60',
    '2024-01-02T03:04',
    '2024-01-02 03:04:05',
    '2024-1-2',
    '12024',
    '-2024',
    '2024-01-02T03:04:05.',
    '2024-01-02T03:04:05+5:00',
    '2024-01-02T03:04:05 Z',
    '--13',
    '---32',
    '--02-30',
    '2024-01-02T03:04:05Zjunk',
  ])('refuses %j', (text) => {
    const e = failure(() => parseDateTime(text));
    expect([e.type, e.message]).toEqual(['dateTime', `The string '${text}' is not a valid AllXsd value.`]);
  });

  it('exposes the parsed parts with .NET fill-ins', () => {
    expect(parseXsdDateTime('--05-31')).toEqual({
      form: 'gMonthDay',
      year: 1904,
      month: 5,
      day: 31,
      hour: 0,
      minute: 0,
      second: 0,
      ticks: 0,
      zone: null,
    });
    expect(parseXsdDateTime('10:11:12.25+01:00')).toMatchObject({
      form: 'time',
      ticks: 2_500_000,
      zone: '+01:00',
    });
  });

  it('formats output ASMX-style: full dateTime, fraction trimmed, zone kept', () => {
    const now = new Date(2030, 4, 6, 12, 0, 0);
    expect(formatDateTime('2024-01-02T03:04:05.1000000')).toBe('2024-01-02T03:04:05.1');
    expect(formatDateTime('2024-01-02T03:04:05.0000000')).toBe('2024-01-02T03:04:05');
    expect(formatDateTime('2024-01-02')).toBe('2024-01-02T00:00:00');
    expect(formatDateTime('2024-01-02Z')).toBe('2024-01-02T00:00:00Z');
    expect(formatDateTime('2024')).toBe('2024-01-01T00:00:00');
    expect(formatDateTime('--05-31')).toBe('1904-05-31T00:00:00');
    expect(formatDateTime('---15', now)).toBe('2030-01-15T00:00:00');
    expect(formatDateTime('13:00:00', now)).toBe('2030-05-06T13:00:00');
    expect(formatDateTime(new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 120)))).toBe('2024-01-02T03:04:05.12Z');
    expect(formatDateTime(new Date(Date.UTC(2024, 0, 2)))).toBe('2024-01-02T00:00:00Z');
    expect(() => formatDateTime(new Date(Number.NaN))).toThrow(ScalarFormatError);
  });
});

describe('parseScalar / formatScalar', () => {
  it('dispatch on the XSD type', () => {
    expect(parseScalar('long', '9007199254740993')).toBe('9007199254740993');
    expect(parseScalar('int', ' 12 ')).toBe(12);
    expect(parseScalar('decimal', '10.50')).toBe('10.50');
    expect(parseScalar('boolean', '1')).toBe(true);
    expect(parseScalar('dateTime', '2024-01-02')).toBe('2024-01-02');
    expect(formatScalar('boolean', false)).toBe('false');
    expect(formatScalar('decimal', '+10.50')).toBe('10.50');
    expect(formatScalar('dateTime', '2024-01-02')).toBe('2024-01-02T00:00:00');
  });

  it('keeps strings verbatim, white space included (§1.4)', () => {
    expect(parseScalar('string', '  a\tb  ')).toBe('  a\tb  ');
    expect(formatScalar('string', ' x ')).toBe(' x ');
  });
});
