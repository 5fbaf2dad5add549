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
] as const;
