import { describe, expect, it } from 'vitest';
import { cardNumberElement } from './card-text.ts';
import { requiredDefaults } from './neutral.ts';

const PAN = '4111 1111 1111 1111';

describe('cardNumberElement: the free-text element of a message that holds a card number', () => {
  it('names the element, nested and in lists, in the fault strings’ form', () => {
    const request = (fields: Record<string, unknown>) => ({
      request: { ...requiredDefaults('Request'), ...fields },
    });
    expect(cardNumberElement('ProcessTransaction', request({ CustomValue2: `ref ${PAN}` }))).toBe(
      'request/CustomValue2',
    );
    expect(cardNumberElement('PayCheckoutSession', { token: 'cs_1', ...request({ Street: PAN }) })).toBe(
      'request/Street',
    );
    expect(
      cardNumberElement('CreateInvoice', {
        invoiceRequest: {
          ...requiredDefaults('InvoiceRequest'),
          Invoices: [
            { ...requiredDefaults('InvoiceDetails'), InvoiceNumber: 'INV-2024-000123' },
            { ...requiredDefaults('InvoiceDetails'), InvoiceNumber: PAN.replaceAll(' ', '.') },
          ],
        },
      }),
    ).toBe('invoiceRequest/Invoices/InvoiceDetails[2]/InvoiceNumber');
    expect(cardNumberElement('GetStoredCards', { email: 'a@b.example', phoneNumber: PAN })).toBe(
      'phoneNumber',
    );
  });

  it('leaves the elements that hold card data or a secret by design, and clean messages', () => {
    const request = {
      ...requiredDefaults('Request'),
      CardNumber: PAN,
      CVV2: '123',
      AccountNumber: '4111111111111111',
    };
    expect(cardNumberElement('ProcessTransaction', { request })).toBeNull();
    expect(cardNumberElement('GetCardInfo', { request: { CardNumber: PAN } })).toBeNull();
    expect(
      cardNumberElement('GetCardDetailsFromEncryptedData', { encryptedData: PAN, merchantID: '1' }),
    ).toBeNull();
    expect(
      cardNumberElement('Login', { loginRequest: { UserName: 'ada', Password: PAN, ProfileInfo: false } }),
    ).toBeNull();
    expect(
      cardNumberElement('CreateHostedPayment', {
        request: {
          ...requiredDefaults('HostedPaymentRequest'),
          OrderNumber: 'RT-123456-123456789',
          Email: null,
        },
      }),
    ).toBeNull();
    expect(cardNumberElement('GetTransactionHistories', { merchantID: '4111111111111111' })).toBeNull(); // a long
  });
});
