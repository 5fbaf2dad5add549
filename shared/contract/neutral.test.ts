import { describe, expect, it } from 'vitest';
import { requiredDefaults } from './neutral.ts';
import { fieldsOf } from './types.ts';

describe('requiredDefaults', () => {
  it('gives every Required element of Request its neutral value, and nothing else', () => {
    const r = requiredDefaults('Request') as Record<string, unknown>;
    const required = fieldsOf('Request').filter((f) => f.minOccurs === 1);
    expect(Object.keys(r).sort()).toEqual(required.map((f) => f.name).sort());
    expect(r).toMatchObject({
      TestRequest: false,
      MerchantID: '0',
      Amount: '0',
      RecurringStartDate: '0001-01-01T00:00:00',
      IsPartialRevesal: false,
    });
    expect(r.CardNumber).toBeUndefined();
  });

  it('makes a nillable Required element nil', () => {
    expect(requiredDefaults('TransactionHistory')).toMatchObject({
      TransactionDate: null,
      TransactionAmount: '0',
    });
  });

  it("gives a Required enumeration its first value (ASMX's default of an enum)", () => {
    expect(requiredDefaults('CheckoutPaymentResult')).toEqual({
      Outcome: 'Approved',
      Status: 'Open',
      PaidAt: null,
      Amount: '0',
      MerchantID: '0',
    });
    expect(requiredDefaults('CheckoutSessionDetail')).toMatchObject({
      Status: 'Open',
      PaymentInProgress: false,
    });
  });
});
