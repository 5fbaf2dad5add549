import { describe, expect, it } from 'vitest';
import { luhnValid } from '../../../shared/card/luhn.ts';
import { TEST_CARDS } from '../processor/simulator.ts';
import { cardBrand, cvvLength, maskAccount, panParts, validateCard } from './card-checks.ts';

const NOW = new Date('2026-05-15T12:00:00Z');

describe('card brands', () => {
  it.each([
    [TEST_CARDS.visa, 'Visa'],
    [TEST_CARDS.mastercard, 'Mastercard'],
    ['2223003122003222', 'Mastercard'],
    [TEST_CARDS.amex, 'American Express'],
    [TEST_CARDS.declined, 'Visa'],
    [TEST_CARDS.insufficientFunds, 'Visa'],
    [TEST_CARDS.expiredCard, 'Visa'],
    [TEST_CARDS.cvvMismatch, 'Visa'],
    [TEST_CARDS.threeDSecure, 'Visa'],
    [TEST_CARDS.partialApproval, 'Visa'],
    ['6011111111111117', 'Discover'],
    ['36227206271667', 'Diners Club'],
    ['3566002020360505', 'JCB'],
    ['6200000000000005', 'UnionPay'],
    ['6759649826438453', 'Maestro'],
    ['9999999999999995', 'Unknown'],
  ])('%s is %s', (pan, brand) => {
    expect(luhnValid(pan)).toBe(true);
    expect(cardBrand(pan)).toBe(brand);
  });

  it('asks 4 CVV digits of American Express only', () => {
    expect(cvvLength('American Express')).toBe(4);
    expect(cvvLength('Visa')).toBe(3);
  });
});

describe('panParts', () => {
  it('shows at most the first six and the last four', () => {
    expect(panParts('4242424242424242')).toEqual({
      bin: '424242',
      last4: '4242',
      masked: '424242******4242',
    });
    expect(panParts('378282246310005').masked).toBe('378282*****0005');
    expect(panParts('4000000000000000006').masked).toBe('400000*********0006');
    expect(panParts('675964982643').masked).toBe('6759****2643');
  });
});

describe('validateCard', () => {
  it('accepts a good card and returns its parts', () => {
    const r = validateCard({ number: '4242 4242 4242 4242', expiry: '12/30', cvv: '123' }, NOW);
    expect(r).toEqual({
      ok: true,
      pan: '4242424242424242',
      brand: 'Visa',
      bin: '424242',
      last4: '4242',
      masked: '424242******4242',
      expiry: { month: 12, year: 2030 },
    });
  });

  it.each([
    [{ number: '4242424242424241' }, 'invalid_number', 'number'],
    [{ number: '4242' }, 'invalid_number', 'number'],
    [{ number: TEST_CARDS.visa, expiry: '13/30' }, 'invalid_expiry', 'expiry'],
    [{ number: TEST_CARDS.visa, expiry: '12/2099' }, 'invalid_expiry', 'expiry'],
    [{ number: TEST_CARDS.visa, expiry: '04/26' }, 'expired', 'expiry'],
    [{ number: TEST_CARDS.visa, expiry: { month: 4, year: 2026 } }, 'expired', 'expiry'],
    [{ number: TEST_CARDS.visa, cvv: '1234' }, 'invalid_cvv', 'cvv'],
    [{ number: TEST_CARDS.amex, cvv: '123' }, 'invalid_cvv', 'cvv'],
    [{ number: TEST_CARDS.visa, cvv: '12a' }, 'invalid_cvv', 'cvv'],
  ])('%j → %s', (input, reason, field) => {
    const r = validateCard(input, NOW);
    expect(r).toMatchObject({ ok: false, reason, field });
    if (r.ok) return;
    expect(r.message).not.toMatch(/\d{4}/); // never the number (nor the CVV)
  });

  it.each(['12/30', '12 / 30', '12/2030', '1230', '122030', '2030-12'])(
    'reads ExpirationDate %j by the shared rule (shared/card/expiry.ts)',
    (expiry) => {
      expect(validateCard({ number: TEST_CARDS.visa, expiry }, NOW)).toMatchObject({
        ok: true,
        expiry: { month: 12, year: 2030 },
      });
    },
  );

  it.each(['1/30', '12-30', '2030-1'])(
    'refuses ExpirationDate %j, a form the widget does not accept either',
    (expiry) => {
      expect(validateCard({ number: TEST_CARDS.visa, expiry }, NOW)).toMatchObject({
        ok: false,
        reason: 'invalid_expiry',
      });
    },
  );

  it('accepts a 4-digit CVV on American Express', () => {
    expect(validateCard({ number: TEST_CARDS.amex, expiry: '0530', cvv: '1234' }, NOW).ok).toBe(true);
  });
});

describe('bank accounts', () => {
  it('masks an account number to its last four', () => {
    expect(maskAccount('000123456789')).toBe('****6789');
    expect(maskAccount('123')).toBe('****');
  });
});
