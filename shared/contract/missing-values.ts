/**
 * What a missing value-type element of a request comes to (issue 18 §4). ASMX never refuses one:
 * XmlSerializer fills in default(T) — 0, false, 0001-01-01T00:00:00, null for `DateTime?`
 * (asmx-compatibility.md §1.4) — and node-soap, PHP's SoapClient and JAX-WS (for `BigDecimal` and
 * `XMLGregorianCalendar` left null) leave such elements out when the caller does not set them.
 * Payframe takes the default where it cannot move money or change whom or what the call acts on,
 * and refuses the message, naming the element, where it could (DESIGN.md §2: Required elements).
 *
 * One rule per Required value-type element of every request: per complex type that requests carry
 * (`Request` holds the same rules in ProcessTransaction and PayCheckoutSession) and per operation
 * for scalar parameters. The mapped types below make the compiler ask for every such element and
 * for no other; missing-values.test.ts checks that the types named here are exactly those the
 * operations' parameters reach. docs/gateway.md's table is generated from this one
 * (missing-values-doc.ts), and a test compares them.
 *
 * HTTP GET and POST are not concerned: ASMX refuses any missing parameter there ("Missing
 * parameter: x."), and so does Payframe.
 *
 * Pure: no I/O, no Node imports.
 */
import type { ComplexFieldType, EnumFieldType, Field, ListFieldType, ScalarFieldType } from './model.ts';
import type { OperationName, OperationNamed } from './operations.ts';
import type { ComplexTypeName } from './types.ts';
import type { FieldsOfType } from './values.ts';

/** Why a missing element is refused: what its default would decide in the caller's place. */
export type RefusedBecause =
  /** an amount: the default would move another sum of money (or none, or all that is left) */
  | 'amount'
  /** a merchant or a customer: the default would name another party than the caller meant */
  | 'party'
  /** the transaction or card the call acts on */
  | 'reference'
  /** TestRequest: false would turn a test into a live payment */
  | 'live';

/** A sibling element's value under which a missing element is refused instead of defaulted. */
export type MissingCondition<S extends string = string> =
  /** a boolean sibling (sent, or itself defaulted to false) is true */
  | { readonly element: S; readonly isTrue: true }
  /** a string sibling, trimmed and in any case, is one of these (absent counts as empty) */
  | { readonly element: S; readonly oneOf: readonly [string, ...string[]] };

export type MissingRule<S extends string = string> =
  /** ASMX's default is taken: it cannot move money or change whom or what the call acts on */
  | { readonly missing: 'default' }
  /** always refused */
  | { readonly missing: 'refuse'; readonly because: RefusedBecause }
  /** defaulted, except when one of the conditions holds: then refused */
  | {
      readonly missing: 'default-unless';
      readonly unless: readonly [MissingCondition<S>, ...MissingCondition<S>[]];
      readonly because: RefusedBecause;
    };

const take = { missing: 'default' } as const;
const refuse = (because: RefusedBecause) => ({ missing: 'refuse', because }) as const;
const unless = <S extends string>(
  because: RefusedBecause,
  ...conditions: [MissingCondition<S>, ...MissingCondition<S>[]]
): MissingRule<S> => ({ missing: 'default-unless', unless: conditions, because });

/** A Required field that is not a string: what ASMX would default when it is missing. */
type ValueField<F> =
  F extends Field<infer N, infer T, 1>
    ? T extends ScalarFieldType<'string'>
      ? never
      : T extends ScalarFieldType | EnumFieldType
        ? N
        : never
    : never;

/** Complex types a field holds, directly or as list items. */
type NestedType<F> =
  F extends Field<string, infer T>
    ? T extends ComplexFieldType<infer C>
      ? C
      : T extends ListFieldType<infer I>
        ? Extract<I, ComplexTypeName>
        : never
    : never;

type ParamTypeName = NestedType<OperationNamed<OperationName>['params'][number]>;
/** The complex types requests carry (two levels deep: InvoiceRequest → InvoiceDetails). */
export type RequestTypeName = ParamTypeName | NestedType<FieldsOfType<ParamTypeName>>;

/** Compile-time: no request nests a third level, so the two steps above reach every request type. */
type Holds<T extends true> = T;
export type RequestTypesReached = Holds<
  [NestedType<FieldsOfType<RequestTypeName>>] extends [RequestTypeName] ? true : false
>;

type ValueFieldsOf<N extends ComplexTypeName> = ValueField<FieldsOfType<N>>;
type FieldNamesOf<N extends ComplexTypeName> = FieldsOfType<N>['name'];
type ValueParamsOf<O extends OperationName> = ValueField<OperationNamed<O>['params'][number]>;
type ParamNamesOf<O extends OperationName> = OperationNamed<O>['params'][number]['name'];

export type TypeMissingRules = {
  readonly [N in RequestTypeName as ValueFieldsOf<N> extends never ? never : N]: {
    readonly [F in ValueFieldsOf<N>]: MissingRule<FieldNamesOf<N>>;
  };
};

export type ParamMissingRules = {
  readonly [O in OperationName as ValueParamsOf<O> extends never ? never : O]: {
    readonly [P in ValueParamsOf<O>]: MissingRule<ParamNamesOf<O>>;
  };
};

// Follow-ons name the transaction they act on (docs/gateway.md "Capture, void, refund…").
const followOn: MissingCondition<'TransactionType'> = {
  element: 'TransactionType',
  oneOf: ['capture', 'void', 'refund'],
};

export const TYPE_MISSING_RULES: TypeMissingRules = {
  Request: {
    TestRequest: refuse('live'),
    MerchantID: refuse('party'),
    CreateToken: take,
    IsSwipe: take,
    Amount: refuse('amount'),
    OriginalTransactionID: unless('reference', followOn, { element: 'IsPartialRevesal', isTrue: true }),
    IsRecurring: take,
    RecurringAmount: unless('amount', { element: 'IsRecurring', isTrue: true }),
    RecurringStartDate: unless('amount', { element: 'IsRecurring', isTrue: true }),
    RecurringEndDate: unless('amount', { element: 'IsRecurring', isTrue: true }),
    MerchantReceipt: take,
    CardHolderReceipt: take,
    MagensaLogID: take,
    // A label kept on the transaction for the merchant's own records; it charges no one.
    CustomerID: take,
    IsCitTransaction: take,
    IsPartialRevesal: take,
    // What stays authorised after a partial reversal: 0 would give back the whole authorisation.
    SettlementAmount: unless('amount', { element: 'IsPartialRevesal', isTrue: true }),
    // false is a card payment; a message without card data is then answered ResponseCode 30.
    IsAchTransaction: take,
    IsAddDSRPValue: take,
    InAppTransaction: take,
    IsRegisteredUser: take,
  },
  PaymentProfileRequest: {
    CustomerId: refuse('party'),
    MerchantId: refuse('party'),
    // 0 is no card: CreatePaymentProfile refuses it, UpdatePaymentProfile keeps the stored one.
    CardNumber: take,
    CardExpirationMonth: take,
    CardExpirationYear: take,
  },
  CustomerProfileRequest: {
    MerchantId: refuse('party'),
    CustomerId: refuse('party'),
  },
  InvoiceRequest: {
    MerchantID: refuse('party'),
    ConvenienceFee: refuse('amount'),
    // Whether ConvenienceFee is an amount or a percentage of the invoices.
    ConvenienceFeePercentage: refuse('amount'),
  },
  InvoiceDetails: {
    InvoiceAmount: refuse('amount'),
    // Nillable: missing is nil, which the invoice's Errors entry then names.
    InvoiceDate: take,
  },
  LoginRequest: {
    ProfileInfo: take,
  },
  TokenRequest: {
    MerchantID: refuse('party'),
    IsValidateCard: take,
  },
  HostedPaymentRequest: {
    MerchantID: refuse('party'),
    Amount: refuse('amount'),
  },
  // The whole settings (UpdateMerchantSettings): a switch left out is off, as an unticked box on
  // the dashboard's Settings page; no payment method at all is refused by the operation itself.
  MerchantSettingsInput: {
    NameOnCardRequired: take,
    ThreeDSecureEnrolled: take,
    AcceptsCard: take,
    AcceptsAch: take,
  },
};

export const PARAM_MISSING_RULES: ParamMissingRules = {
  GetCustomerPaymentProfileList: { customerID: refuse('party'), merchantID: refuse('party') },
  GetRecurringCustomerDetail: { merchantID: refuse('party') },
  // A read: the earliest date lists from the beginning, or nothing when it is the end.
  GetTransactionHistories: { startDate: take, endDate: take, merchantID: refuse('party') },
  GetMerchantInfo: { merchantID: refuse('party') },
  Verify3DSecureMerchant: { merchantID: refuse('party') },
  GetCardDetailsFromEncryptedData: { merchantID: refuse('party') },
  SignForMerchant: { merchantID: refuse('party') },
  SignWebhook: { merchantID: refuse('party') },
  // A read; maxCount 0 lists one session.
  ListEndedCheckoutSessions: { endedAfter: take, endedBefore: take, maxCount: take },
  GetPayment: { transactionID: refuse('reference') },
  // The default (None) would end the key in use at once: a roll names its overlap.
  RollTransactionKey: { overlap: refuse('reference') },
  // The default (Resend) would send an event again: the user names what it asks for.
  AuthorizeWebhookDelivery: { kind: refuse('reference') },
};

/** Rules by element name, for one complex type or one operation's parameters. */
export type MissingRules = Readonly<Record<string, MissingRule>>;

const typeRules = new Map(Object.entries(TYPE_MISSING_RULES) as [string, MissingRules][]);
const paramRules = new Map(Object.entries(PARAM_MISSING_RULES) as [string, MissingRules][]);

export function missingRulesOfType(typeName: string): MissingRules | undefined {
  return typeRules.get(typeName);
}

export function missingRulesOfParams(operation: string): MissingRules | undefined {
  return paramRules.get(operation);
}

/** The first condition that holds over the decoded siblings, or null (the default is taken). */
export function heldCondition(
  rule: Extract<MissingRule, { missing: 'default-unless' }>,
  siblings: Readonly<Record<string, unknown>>,
): MissingCondition | null {
  for (const c of rule.unless) {
    const v = siblings[c.element];
    if ('isTrue' in c) {
      if (v === true) return c;
    } else {
      const s = typeof v === 'string' ? v.trim().toLowerCase() : '';
      if (c.oneOf.includes(s)) return c;
    }
  }
  return null;
}

/** The condition as a person reads it: "IsRecurring is true", "TransactionType is capture, void or refund". */
export function conditionText(c: MissingCondition): string {
  if ('isTrue' in c) return `${c.element} is true`;
  const values = c.oneOf;
  const list = values.length === 1 ? values[0] : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
  return `${c.element} is ${list}`;
}
