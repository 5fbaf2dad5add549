/**
 * Type-level checks of the types derived from the contract table (values.ts, service.ts). They are
 * checked by `tsc -p server` (which includes shared tests); at run time expectTypeOf does nothing.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { CheckoutSessionStatus, DeclineReason } from './extensions.ts';
import type { OperationName } from './operations.ts';
import type { OperationParams, OperationResult, TransactionService } from './service.ts';
import type { ValueOf } from './values.ts';

describe('types derived from the contract table', () => {
  it('ValueOf: Required fields present, optional ones `?: T | null`, nillable `T | null`', () => {
    expectTypeOf<ValueOf<'InvoiceDetails'>>().toEqualTypeOf<{
      InvoiceAmount: string;
      InvoiceDate: string | null;
      InvoiceNumber?: string | null;
    }>();
    expectTypeOf<ValueOf<'Request'>['MerchantID']>().toEqualTypeOf<string>();
    expectTypeOf<ValueOf<'Request'>['TestRequest']>().toEqualTypeOf<boolean>();
    expectTypeOf<ValueOf<'PaymentProfileRequest'>['CardExpirationMonth']>().toEqualTypeOf<number>();
    expectTypeOf<ValueOf<'Request'>['CardNumber']>().toEqualTypeOf<string | null | undefined>();
  });

  it('ValueOf: lists are arrays, derived types include their base', () => {
    expectTypeOf<ValueOf<'InvoiceRequest'>['Invoices']>().toEqualTypeOf<
      ValueOf<'InvoiceDetails'>[] | null | undefined
    >();
    expectTypeOf<ValueOf<'InvoiceResponse'>['Errors']>().toEqualTypeOf<string[] | null | undefined>();
    expectTypeOf<ValueOf<'LoginResponse'>>().toEqualTypeOf<{
      Status: boolean;
      Message?: string | null;
      Data?: string | null;
    }>();
  });

  it('ValueOf: an enumeration is the union of its values', () => {
    expectTypeOf<ValueOf<'CheckoutSessionDetail'>['Status']>().toEqualTypeOf<
      'Open' | 'Paid' | 'Expired' | 'Canceled'
    >();
    expectTypeOf<CheckoutSessionStatus>().toEqualTypeOf<ValueOf<'CheckoutSessionDetail'>['Status']>();
    expectTypeOf<ValueOf<'CheckoutPaymentResult'>['DeclineReason']>().toEqualTypeOf<
      DeclineReason | null | undefined
    >();
    expectTypeOf<ValueOf<'CheckoutSessionDetail'>['PaymentMethod']>().toEqualTypeOf<
      'Card' | 'Ach' | null | undefined
    >();
    expectTypeOf<ValueOf<'CheckoutSessionDetail'>['Origins']>().toEqualTypeOf<string[] | null | undefined>();
  });

  it('OperationParams and OperationResult', () => {
    expectTypeOf<OperationParams<'GetTransactionHistories'>>().toEqualTypeOf<{
      startDate: string;
      endDate: string;
      merchantID: string;
    }>();
    expectTypeOf<OperationParams<'ProcessTransaction'>>().toEqualTypeOf<{
      request?: ValueOf<'Request'> | null;
    }>();
    expectTypeOf<OperationParams<'GetStoredCards'>>().toEqualTypeOf<{
      email?: string | null;
      phoneNumber?: string | null;
    }>();
    expectTypeOf<OperationResult<'Verify3DSecureMerchant'>>().toEqualTypeOf<boolean>();
    expectTypeOf<OperationResult<'GetStoredCards'>>().toEqualTypeOf<ValueOf<'StoredCardDetail'>[]>();
    expectTypeOf<OperationResult<'SendVerificationCode'>>().toEqualTypeOf<ValueOf<'VerificationResponse'>>();
    expectTypeOf<OperationParams<'PayCheckoutSession'>>().toEqualTypeOf<{
      token?: string | null;
      request?: ValueOf<'Request'> | null;
    }>();
    expectTypeOf<OperationResult<'GetCheckoutSession'>>().toEqualTypeOf<ValueOf<'CheckoutSessionDetail'>>();
  });

  it('TransactionService has one typed async method per operation', () => {
    type Service = TransactionService<{ merchant: string }>;
    expectTypeOf<keyof Service>().toEqualTypeOf<OperationName>();
    expectTypeOf<Service['GetMerchantInfo']>().toEqualTypeOf<
      (params: { merchantID: string }, context: { merchant: string }) => Promise<ValueOf<'MerchantInfo'>>
    >();
  });
});
