/**
 * Payframe's extensions to the Transaction Service: operations the spec does not have, declared
 * with the same builders so the codec, WSDL (marked as extensions), help page, types and client
 * derive from them like from the spec's own.
 */
import { complexType, field, fields, operation } from './model.ts';

const required = { required: true } as const;

export const extensionTypes = [
  complexType('HostedPaymentRequest', [
    field('MerchantID', 'long', required),
    field('TransactionKey', 'string'),
    field('Amount', 'decimal', required),
    ...fields(
      [
        'Currency',
        'OrderNumber',
        'Email',
        'FirstName',
        'LastName',
        'Address1',
        'Address2',
        'Country',
        'StateProvince',
        'City',
        'ZipCode',
        'PhoneNumber',
        'ReturnUrl',
        'WebhookUrl',
        'Locale',
      ],
      'string',
    ),
  ]),
  complexType('HostedPaymentResponse', [
    field('Success', 'boolean', required),
    field('Message', 'string'),
    field('Token', 'string'),
    field('Url', 'string'),
    field('ExpiresAt', 'dateTime', { required: true, nillable: true }),
  ]),
  complexType('CheckoutMerchant', [
    field('Success', 'boolean', required),
    field('Message', 'string'),
    field('MerchantId', 'long', required),
    // Space-separated: an origin never holds a space (scheme://host[:port]).
    field('Origins', 'string'),
    field('Locale', 'string'),
  ]),
  complexType('MerchantSignature', [
    field('Success', 'boolean', required),
    field('Message', 'string'),
    // Lowercase hex HMAC-SHA256; absent when Success is false.
    field('Signature', 'string'),
  ]),
] as const;

export const extensionOperationList = [
  operation({
    name: 'CreateHostedPayment',
    doc: 'Creates a checkout session and returns its token and hosted-page URL.',
    params: [field('request', 'HostedPaymentRequest')],
    result: 'HostedPaymentResponse',
    extension: true,
  }),
  // The spec has no way to take a card out of the shopper's wallet (docs/gateway-wallet-codes.md).
  operation({
    name: 'RemoveStoredCard',
    doc: "Removes a card from the shopper's wallet (checkout server only).",
    params: [field('email', 'string'), field('phoneNumber', 'string'), field('tokenGuid', 'string')],
    result: 'OperationStatus',
    extension: true,
  }),
  // The merchant's registered origins are what may frame the checkout and receive its events.
  operation({
    name: 'GetCheckoutMerchant',
    doc: "A checkout session's merchant, its registered origins and the session's locale (checkout server only).",
    params: [field('token', 'string')],
    result: 'CheckoutMerchant',
    extension: true,
  }),
  operation({
    name: 'CancelHostedPayment',
    doc: 'Cancels an open checkout session so it can no longer be paid (not while a payment is in progress).',
    params: [field('token', 'string')],
    result: 'OperationStatus',
    extension: true,
  }),
  // A checkout server in its own process holds no TransactionKey, yet signs redirects and webhooks
  // under it (DESIGN.md §10): the gateway signs for it, and the key never leaves the gateway.
  operation({
    name: 'SignForMerchant',
    doc: "Signs a message (UTF-8) with HMAC-SHA256 under the merchant's TransactionKey (checkout server only).",
    params: [field('merchantID', 'long', required), field('message', 'string')],
    result: 'MerchantSignature',
    extension: true,
  }),
] as const;
