import { describe, expect, it } from 'vitest';
import { EnumValueError, isEnumValue, parseEnum } from './enum-values.ts';
import { CheckoutSessionStatus } from './extensions.ts';
import { enumeration } from './model.ts';

describe('enumeration', () => {
  it('keeps its name and values, frozen', () => {
    expect(CheckoutSessionStatus).toEqual({
      kind: 'enum',
      type: 'CheckoutSessionStatus',
      values: ['Open', 'Paid', 'Expired', 'Canceled'],
    });
    expect(Object.isFrozen(CheckoutSessionStatus)).toBe(true);
    expect(Object.isFrozen(CheckoutSessionStatus.values)).toBe(true);
  });

  it('refuses duplicate or empty values', () => {
    expect(() => enumeration('Twice', ['A', 'A'])).toThrow(/distinct, non-empty/);
    expect(() => enumeration('Blank', ['A', ''])).toThrow(/distinct, non-empty/);
  });
});

describe('parseEnum', () => {
  it('accepts each value exactly', () => {
    for (const v of CheckoutSessionStatus.values) expect(parseEnum(CheckoutSessionStatus, v)).toBe(v);
  });

  it.each(['open', ' Open', 'Open ', '', 'Closed', '0', '__proto__'])(
    'refuses %j, naming the allowed values',
    (text) => {
      const err = (() => {
        try {
          parseEnum(CheckoutSessionStatus, text);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(err).toBeInstanceOf(EnumValueError);
      expect((err as EnumValueError).message).toBe(
        `Instance validation error: '${text}' is not a valid value for CheckoutSessionStatus. ` +
          'Allowed values: Open, Paid, Expired, Canceled.',
      );
      expect(err).toMatchObject({ type: 'CheckoutSessionStatus', value: text });
    },
  );

  it('isEnumValue refuses non-strings', () => {
    expect(isEnumValue(CheckoutSessionStatus, 'Paid')).toBe(true);
    expect(isEnumValue(CheckoutSessionStatus, 0)).toBe(false);
    expect(isEnumValue(CheckoutSessionStatus, null)).toBe(false);
  });
});
