import { describe, expect, it } from 'vitest';
import { convertHttpParam } from './http-params.ts';
import type { ScalarType } from './model.ts';
import { ChangeTypeError } from './scalar-error.ts';

function failure(type: ScalarType, text: string): ChangeTypeError {
  try {
    convertHttpParam(type, text);
  } catch (e) {
    expect(e).toBeInstanceOf(ChangeTypeError);
    return e as ChangeTypeError;
  }
  throw new Error('expected a ChangeTypeError');
}

describe('HTTP GET/POST parameters (Convert.ChangeType, asmx-compatibility.md §1.5)', () => {
  it('reads booleans case-insensitively, but not 1/0', () => {
    expect(convertHttpParam('boolean', 'True')).toBe(true);
    expect(convertHttpParam('boolean', ' FALSE ')).toBe(false);
    expect(convertHttpParam('boolean', 'true')).toBe(true);
    const e = failure('boolean', '1');
    expect([e.message, e.innerMessage]).toEqual([
      'Cannot convert 1 to System.Boolean.',
      'String was not recognized as a valid Boolean.',
    ]);
  });

  it('reads int and long like XmlConvert, with the Convert message', () => {
    expect(convertHttpParam('int', ' -12 ')).toBe(-12);
    expect(convertHttpParam('long', '9007199254740993')).toBe('9007199254740993');
    expect([failure('int', 'abc').message, failure('int', 'abc').innerMessage]).toEqual([
      'Cannot convert abc to System.Int32.',
      'Input string was not in a correct format.',
    ]);
    expect(failure('long', '9223372036854775808').innerMessage).toBe(
      'Value was either too large or too small for an Int64.',
    );
  });

  it('reads decimals with NumberStyles.Number: thousands separators and a trailing sign', () => {
    expect(convertHttpParam('decimal', '1,000.50')).toBe('1000.50');
    expect(convertHttpParam('decimal', '5-')).toBe('-5');
    expect(convertHttpParam('decimal', ' 10.50 ')).toBe('10.50');
    expect(failure('decimal', '1e3').message).toBe('Cannot convert 1e3 to System.Decimal.');
    expect(failure('decimal', ',5').innerMessage).toBe('Input string was not in a correct format.');
    expect(failure('decimal', '-5-').message).toBe('Cannot convert -5- to System.Decimal.');
  });

  it.each([
    ['2024-01-02', '2024-01-02T00:00:00'],
    ['2024-01-02 13:45', '2024-01-02T13:45:00'],
    ['2024-01-02T03:04:05.25Z', '2024-01-02T03:04:05.25Z'],
    ['2024-01-02T03:04:05+0530', '2024-01-02T03:04:05+05:30'],
    ['2024-01-02T03:04:05-03', '2024-01-02T03:04:05-03:00'],
    ['2024/1/2', '2024-01-02T00:00:00'],
    ['1/2/2024', '2024-01-02T00:00:00'],
    ['1/2/2024 3:04 PM', '2024-01-02T15:04:00'],
    ['12/31/2024 12:00:00 AM', '2024-12-31T00:00:00'],
  ])('reads the date %j as %s', (text, value) => expect(convertHttpParam('dateTime', text)).toBe(value));

  it.each(['yesterday', '', '2023-02-29', '13/01/2024', '1/2/2024 13:00 PM', '2024-01-02T25:00'])(
    'refuses the date %j',
    (text) => {
      const e = failure('dateTime', text);
      expect([e.message, e.innerMessage]).toEqual([
        `Cannot convert ${text} to System.DateTime.`,
        'String was not recognized as a valid DateTime.',
      ]);
    },
  );

  it('passes strings through untouched', () => {
    expect(convertHttpParam('string', ' a+b ')).toBe(' a+b ');
  });
});
