/**
 * Every operation of the Transaction Service, declared once (DESIGN.md §1), in the order of the
 * operations table of spec/transaction-service.md "Endpoints › Operations".
 *
 * Parameter names are the spec's, case included (`customerID`, `merchantID` but `merchantId` in
 * GetMerchantDetails): ASMX matches them by exact name (asmx-compatibility.md §1.5). Complex
 * parameters are optional (minOccurs 0, ASMX passes null when absent); the spec leaves open whether
 * the string parameters of GetHostedPaymentDetails, GetStoredCards and SendVerificationCode are
 * required, and strings are minOccurs 0 in ASMX, so they are optional.
 *
 * Payframe extension operations (DESIGN.md §7: CreateHostedPayment) go into `extensionOperations`
 * with `extension: true`; the spec-conformance test checks every other entry against the spec.
 */
import { extensionOperationList } from './extensions.ts';
import { field, listOf, type Operation, operation } from './model.ts';

const required = { required: true } as const;

export const specOperations = [
  operation({
    name: 'ProcessTransaction',
    doc: 'Authorises, captures, voids or refunds a card or bank (ACH) payment.',
    params: [field('request', 'Request')],
    result: 'Response',
  }),
  operation({
    name: 'SettleTransaction',
    doc: "Settles an approved transaction, or all of the merchant's pending ones, in a batch.",
    params: [field('request', 'CaptureRequest')],
    result: 'CaptureResponse',
  }),
  operation({
    name: 'CreatePaymentProfile',
    doc: "Stores a card as a payment profile of a merchant's customer.",
    params: [field('paymentProfileRequest', 'PaymentProfileRequest')],
    result: 'PaymentProfileResponse',
  }),
  operation({
    name: 'UpdatePaymentProfile',
    doc: "Changes a stored payment profile of a merchant's customer.",
    params: [field('paymentProfileRequest', 'PaymentProfileRequest')],
    result: 'PaymentProfileResponse',
  }),
  operation({
    // Spelling as the interface has it.
    name: 'DelelePaymentProfile',
    doc: "Deletes a stored payment profile of a merchant's customer.",
    params: [field('paymentProfileRequest', 'PaymentProfileRequest')],
    result: 'PaymentProfileResponse',
  }),
  operation({
    name: 'GetCustomerPaymentProfile',
    doc: "Returns one stored payment profile of a merchant's customer.",
    params: [field('customerProfileRequest', 'CustomerProfileRequest')],
    result: 'CustomerProfileResponse',
  }),
  operation({
    name: 'GetCustomerPaymentProfileList',
    doc: "Lists the stored payment profiles of a merchant's customer.",
    params: [field('customerID', 'long', required), field('merchantID', 'long', required)],
    result: listOf('CustomerProfileResponse'),
  }),
  operation({
    name: 'GetRecurringCustomerDetail',
    doc: "Lists the merchant's recurring billing schedules.",
    params: [field('merchantID', 'long', required)],
    result: listOf('RecurringBillingInfo'),
  }),
  operation({
    name: 'GetTransactionHistories',
    doc: "Lists the merchant's transactions between two dates.",
    params: [
      field('startDate', 'dateTime', required),
      field('endDate', 'dateTime', required),
      field('merchantID', 'long', required),
    ],
    result: listOf('TransactionHistory'),
  }),
  operation({
    name: 'GetMerchantInfo',
    doc: "Returns the merchant's id and name.",
    params: [field('merchantID', 'long', required)],
    result: 'MerchantInfo',
  }),
  operation({
    name: 'GetMerchantDetails',
    doc: "Returns the merchant's business details and branding.",
    params: [field('merchantId', 'string'), field('code', 'string')],
    result: 'MerchantDetails',
  }),
  operation({
    name: 'CreateInvoice',
    doc: 'Records invoices and returns a token that pays them.',
    params: [field('invoiceRequest', 'InvoiceRequest')],
    result: 'InvoiceResponse',
  }),
  operation({
    name: 'Verify3DSecureMerchant',
    doc: 'Tells whether the merchant is enrolled in 3-D Secure.',
    params: [field('merchantID', 'long', required)],
    result: 'boolean',
  }),
  operation({
    name: 'Login',
    doc: 'Signs a merchant user in.',
    params: [field('loginRequest', 'LoginRequest')],
    result: 'LoginResponse',
  }),
  operation({
    name: 'ForgotPassword',
    doc: 'Sends a merchant user a password reset link.',
    params: [field('request', 'ForgotPasswordRequest')],
    result: 'OperationStatus',
  }),
  operation({
    name: 'GetCardDetailsFromEncryptedData',
    doc: "Decrypts card-reader data and returns the card's masked number, expiry and type.",
    params: [
      field('encryptedData', 'string'),
      field('deviceName', 'string'),
      field('merchantID', 'long', required),
    ],
    result: 'CardDetail',
  }),
  operation({
    name: 'UpdateToken',
    doc: "Creates or updates a stored card token in the shopper's wallet.",
    params: [field('token', 'TokenRequest')],
    result: 'OperationStatus',
  }),
  operation({
    name: 'GetCardInfo',
    doc: 'Returns the brand of a card number.',
    params: [field('request', 'CardInfoRequest')],
    result: 'CardInfo',
  }),
  operation({
    name: 'GetHostedPaymentDetails',
    doc: 'Returns the details of a hosted payment (checkout session) by its token.',
    params: [field('token', 'string')],
    result: 'PaymentDetail',
  }),
  operation({
    name: 'GetStoredCards',
    doc: "Lists the shopper's stored cards, found by e-mail and phone number.",
    params: [field('email', 'string'), field('phoneNumber', 'string')],
    result: listOf('StoredCardDetail'),
  }),
  operation({
    name: 'SendVerificationCode',
    doc: "Creates one-time codes for the shopper's phone and e-mail.",
    params: [field('email', 'string'), field('phoneNumber', 'string')],
    result: 'VerificationResponse',
  }),
] as const;

/** Payframe's own operations, beyond the spec (each with `extension: true`). */
export const extensionOperations = extensionOperationList;

/** All operations: the spec's in table order, then Payframe's extensions. */
export const operations = [...specOperations, ...extensionOperations] as const;

export type OperationEntry = (typeof operations)[number];
export type OperationName = OperationEntry['name'];
export type OperationNamed<N extends OperationName> = Extract<OperationEntry, { readonly name: N }>;

// A Map, not an object: names come from SOAPAction headers and URL paths.
const byName: ReadonlyMap<string, Operation> = new Map(
  operations.map((op): [string, Operation] => [op.name, op]),
);

/** The operation of this exact name (ASMX method names are case-sensitive, §1.1). */
export function findOperation(name: string): Operation | undefined {
  return byName.get(name);
}

export function getOperation<N extends OperationName>(name: N): OperationNamed<N> {
  return byName.get(name) as OperationNamed<N>;
}

/**
 * The operation whose name differs only in case, for ASMX's GET/POST message "Invalid method name
 * 'x', method names are case sensitive. The method name 'X' with the same name but different casing
 * was found." (asmx-compatibility.md §1.1).
 */
export function findOperationIgnoringCase(name: string): Operation | undefined {
  const lower = name.toLowerCase();
  return operations.find((op) => op.name.toLowerCase() === lower);
}
