/**
 * Every complex type of the Transaction Service, declared once (DESIGN.md §1), from
 * spec/transaction-service.md "Resources and their fields". docs/transaction-service.md restates
 * every type and field in the repository, and contract.test.ts compares this table with it.
 *
 * Field order is the spec's listing order; it is the XML Schema sequence the WSDL, the encoder and
 * the help page use. Where the spec lists groups (Request: "Required: …" then "Optional (all
 * string): …") the groups keep that order: the real ASMX order is unknown, so the spec's is kept.
 *
 * minOccurs (asmx-compatibility.md §1.6): strings are 0 unless the spec says Required; value types
 * (long, int, decimal, boolean, dateTime) the spec marks Required are 1; a nillable dateTime
 * ("dateTime, nillable", "yes (may be nil)") is minOccurs 1 + nillable, as ASMX writes `DateTime?`.
 * Where the spec gives no Required column (PaymentDetail), value types are 1 (ASMX writes every value
 * type with minOccurs="1") and strings 0.
 */
import { extensionEnumerations, extensionTypes } from './extensions.ts';
import {
  type ComplexType,
  complexType,
  type EnumFieldType,
  type Field,
  field,
  fields,
  flattenFields,
  listOf,
} from './model.ts';

const required = { required: true } as const;
const requiredNillable = { required: true, nillable: true } as const;

export const specTypes = [
  complexType('Request', [
    field('TestRequest', 'boolean', required),
    field('MerchantID', 'long', required),
    field('CreateToken', 'boolean', required),
    field('IsSwipe', 'boolean', required),
    field('Amount', 'decimal', required),
    field('OriginalTransactionID', 'long', required),
    field('IsRecurring', 'boolean', required),
    field('RecurringAmount', 'decimal', required),
    field('RecurringStartDate', 'dateTime', required),
    field('RecurringEndDate', 'dateTime', required),
    field('MerchantReceipt', 'boolean', required),
    field('CardHolderReceipt', 'boolean', required),
    field('MagensaLogID', 'long', required),
    field('CustomerID', 'long', required),
    field('IsCitTransaction', 'boolean', required),
    // Spelling as the interface has it (spec: "IsPartialRevesal").
    field('IsPartialRevesal', 'boolean', required),
    field('SettlementAmount', 'decimal', required),
    field('IsAchTransaction', 'boolean', required),
    field('IsAddDSRPValue', 'boolean', required),
    field('InAppTransaction', 'boolean', required),
    field('IsRegisteredUser', 'boolean', required),
    ...fields(
      [
        'CardNumber',
        'ExpirationDate',
        'CardName',
        'Street',
        'City',
        'State',
        'Zip',
        'Country',
        'Email',
        'Phone',
        'CVV2',
        'CardType',
        'TransactionType',
        'TransactionKey',
        'RecurringFrequency',
        'ApprovalCode',
        'CustomValue1',
        'CustomValue2',
        'CustomValue3',
        'IPPW',
        'SaveCardID',
        'CitCardAuthenticationId',
        'CAVV',
        'XID',
        'ECI',
        'CardReaderName',
        'SerialNumber',
        'ArqcData',
        'AccountNumber',
        'RoutingNumber',
        'AccountType',
        'BankAccountType',
        'NameOnAccount',
        'Source',
        'AuthorizationType',
        'HostedPaymentToken',
        'FirstName',
        'LastName',
        'DisplayName',
        'DirectoryServerTransactionId',
        'TransactionLinkIdentifier',
      ],
      'string',
    ),
  ]),
  complexType('Response', [
    field('TransactionID', 'long', required),
    ...fields(
      [
        'ResponseCode',
        'ResponseMessage',
        'ResponseMessageDetail',
        'ApprovalCode',
        'Token',
        'AvsResponseCode',
        'AvsResponse',
        'RecurringResponse',
        'RecurringAmount',
        'RecurringStartDate',
        'RecurringEndDate',
        'CustomValue1',
        'CustomValue2',
        'CustomValue3',
        'CustomField1',
        'CustomField2',
        'CustomField3',
        'MaskedCardNumber',
        'TransactionDate',
      ],
      'string',
    ),
  ]),
  complexType('CaptureRequest', fields(['MerchantID', 'TransactionID'], 'string')),
  complexType('CaptureResponse', [
    ...fields(['MerchantID', 'ResponseCode', 'BatchNumber', 'ResponseMessage'], 'string'),
    field('SettlementID', 'long', required),
  ]),
  complexType('PaymentProfileRequest', [
    field('PaymentProfileId', 'string'),
    field('CustomerId', 'long', required),
    field('MerchantId', 'long', required),
    // A long in the interface, not a string: card numbers travel as xsd:long here.
    field('CardNumber', 'long', required),
    field('NameOnCard', 'string'),
    field('CardExpirationMonth', 'int', required),
    field('CardExpirationYear', 'int', required),
    field('CardType', 'string'),
  ]),
  complexType('PaymentProfileResponse', fields(['PaymentProfileId', 'ResultCode', 'Message'], 'string')),
  complexType('CustomerProfileRequest', [
    field('MerchantId', 'long', required),
    field('CustomerId', 'long', required),
    field('PaymentProfileId', 'string'),
  ]),
  complexType('CustomerProfileResponse', [
    field('CustomerId', 'long', required),
    ...fields(
      [
        'ResultCode',
        'Message',
        'PaymentProfileId',
        'CardNumber',
        'NameOnCard',
        'CardExpirationMonth',
        'CardExpirationYear',
        'CardType',
      ],
      'string',
    ),
  ]),
  complexType('RecurringBillingInfo', [
    ...fields(['MerchantID', 'RecurringInfoID', 'PaymentInfoID'], 'long', required),
    field('NextProcessDate', 'dateTime', required),
    field('Amount', 'decimal', required),
    ...fields(
      [
        'FirstName',
        'LastName',
        'CardName',
        'CardEmail',
        'CardNumberLast4Digit',
        'ExpirationDate',
        'TimeFrame',
      ],
      'string',
    ),
  ]),
  complexType('TransactionHistory', [
    ...fields(['TransactionHistoryID', 'MerchantID', 'TransactionID'], 'long', required),
    field('TransactionAmount', 'decimal', required),
    field('TransactionDate', 'dateTime', requiredNillable),
    ...fields(
      [
        'NameOnCard',
        'CardNumberLast4Digit',
        'SettlementStatus',
        'Source',
        'ApprovalCode',
        'CustomValue1',
        'CustomValue2',
        'CustomValue3',
      ],
      'string',
    ),
  ]),
  complexType('MerchantInfo', [
    field('MerchantID', 'long', required),
    ...fields(['TransactionKey', 'Name'], 'string'),
  ]),
  complexType('MerchantDetails', [
    field('MerchantId', 'long', required),
    ...fields(
      [
        'TransactionKey',
        'Logo',
        'BusinessName',
        'Address1',
        'Address2',
        'City',
        'State',
        'Country',
        'Zip',
        'Phone',
        'Email',
        'Website',
        'PaymentMethods',
      ],
      'string',
    ),
  ]),
  complexType('InvoiceRequest', [
    field('MerchantID', 'long', required),
    field('ConvenienceFee', 'decimal', required),
    field('ConvenienceFeePercentage', 'boolean', required),
    ...fields(['TransactionKey', 'QbCustomerId', 'QbARAccountId'], 'string'),
    // Wrapper element <Invoices> holding zero or more <InvoiceDetails>.
    field('Invoices', listOf('InvoiceDetails')),
  ]),
  complexType('InvoiceDetails', [
    field('InvoiceNumber', 'string'),
    field('InvoiceAmount', 'decimal', required),
    field('InvoiceDate', 'dateTime', requiredNillable),
  ]),
  complexType('InvoiceResponse', [
    field('Success', 'boolean', required),
    ...fields(['Message', 'InvoiceRandomNumber'], 'string'),
    // Wrapper element <Errors> holding zero or more <string>.
    field('Errors', listOf('string')),
  ]),
  complexType('LoginRequest', [
    ...fields(['UserName', 'Password'], 'string'),
    field('ProfileInfo', 'boolean', required),
  ]),
  complexType('OperationStatus', [field('Status', 'boolean', required), field('Message', 'string')]),
  complexType('LoginResponse', [field('Data', 'string')], { base: 'OperationStatus' }),
  complexType('ForgotPasswordRequest', fields(['UserName', 'Email'], 'string')),
  complexType('CardDetail', fields(['MaskedCardNumber', 'ExpirationDate', 'CardType'], 'string')),
  complexType('TokenRequest', [
    field('MerchantID', 'long', required),
    field('IsValidateCard', 'boolean', required),
    ...fields(
      [
        'TokenGuid',
        'TransactionKey',
        'CardNumber',
        'ExpirationDate',
        'CVV2',
        'NameOnCard',
        'CardAddress',
        'CardCity',
        'StateID',
        'CardZip',
        'CardEmail',
        'PhoneNumber',
        'DisplayName',
      ],
      'string',
    ),
  ]),
  complexType('CardInfoRequest', fields(['MerchantID', 'CardNumber'], 'string')),
  // The spec: "Any field of CardInfo after ErrorMessage: not shown".
  complexType('CardInfo', fields(['Type', 'ErrorMessage'], 'string')),
  complexType('PaymentDetail', [
    field('Success', 'boolean', required),
    field('Message', 'string'),
    field('Amount', 'decimal', required),
    ...fields(
      [
        'MerchantName',
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
      ],
      'string',
    ),
  ]),
  complexType('StoredCardDetail', [
    ...fields(['TokenGuid', 'MaskedCardNumber', 'NameOnCard', 'CardType', 'DisplayName'], 'string'),
    // Payframe's addition (issue 14 §6): the card's expiry, 'MMYY' as CardDetail.ExpirationDate
    // writes it. Appended last and optional (a client from an older WSDL meets an unknown trailing
    // element: docs/transaction-service.md "StoredCardDetail" says which clients skip it).
    field('ExpirationDate', 'string'),
  ]),
  complexType(
    'VerificationResponse',
    fields(['OneTimePasswordForPhone', 'OneTimePasswordForEmail'], 'string'),
  ),
] as const;

/** Every complex type: the spec's, then Payframe's extension types. */
export const complexTypes = [...specTypes, ...extensionTypes] as const;

export type ComplexTypeEntry = (typeof complexTypes)[number];
export type ComplexTypeName = ComplexTypeEntry['name'];
export type ComplexTypeNamed<N extends ComplexTypeName> = Extract<ComplexTypeEntry, { readonly name: N }>;

/**
 * Every enumeration type (the spec has none; Payframe's extensions do). Fields hold these very
 * objects, so a name stands for one list of values; contract.test.ts checks that.
 */
export const enumTypes = [...extensionEnumerations] as const;

export type EnumTypeName = (typeof enumTypes)[number]['type'];

const enumsByName: ReadonlyMap<string, EnumFieldType> = new Map(
  enumTypes.map((t): [string, EnumFieldType] => [t.type, t]),
);

export function findEnumType(name: string): EnumFieldType | undefined {
  return enumsByName.get(name);
}

// A Map, not an object: names come from untrusted XML (`__proto__`, `constructor`).
const byName: ReadonlyMap<string, ComplexType> = new Map(
  complexTypes.map((t): [string, ComplexType] => [t.name, t]),
);

export function findComplexType(name: string): ComplexType | undefined {
  return byName.get(name);
}

export function getComplexType<N extends ComplexTypeName>(name: N): ComplexTypeNamed<N> {
  return byName.get(name) as ComplexTypeNamed<N>;
}

const flattened = new Map<string, readonly Field[]>();

/** All fields of a type in schema order, inherited ones first (LoginResponse: Status, Message, Data). */
export function fieldsOf(type: ComplexType | ComplexTypeName): readonly Field[] {
  const t = typeof type === 'string' ? getComplexType(type) : type;
  let list = flattened.get(t.name);
  if (list === undefined) {
    list = Object.freeze(flattenFields(t, findComplexType));
    flattened.set(t.name, list);
  }
  return list;
}
