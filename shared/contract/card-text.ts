/**
 * No card number in free text, whoever calls the Transaction Service (DESIGN.md §18; issue 13):
 * every string element of every operation's parameters is read with the one detector
 * (shared/card/card-number-in-text.ts), except the elements that hold card data or a secret by
 * design. The gateway runs this on each call before its handler (server/gateway/gateway.ts), so
 * SOAP 1.1/1.2, HTTP GET/POST, the checkout's in-process calls and the CLI meet the same rule; a
 * stored order number, name or custom value is then never a card number in the clear.
 *
 * Pure: no I/O, no Node imports.
 */
import { containsCardNumber } from '../card/card-number-in-text.ts';
import type { Field, FieldType } from './model.ts';
import { isScalarType } from './model.ts';
import { getOperation, type OperationName } from './operations.ts';
import { type ComplexTypeName, type ComplexTypeNamed, fieldsOf, findComplexType } from './types.ts';

type FieldNameOf<T extends ComplexTypeName> = ComplexTypeNamed<T>['fields'][number]['name'];
type ParamNameOf<N extends OperationName> = ReturnType<typeof getOperation<N>>['params'][number]['name'];

/**
 * String elements whose content is card or bank data by design (encrypted in the vault, or only
 * passed to the processor) or a secret compared and never stored in clear: these are not free
 * text. The compiler checks every name against the contract.
 */
export const CARD_DATA_ELEMENTS: { readonly [T in ComplexTypeName]?: readonly FieldNameOf<T>[] } = {
  // ArqcData is the chip's cryptogram data, which may hold the card number (EMV tag 57).
  Request: ['CardNumber', 'CVV2', 'ArqcData', 'AccountNumber', 'TransactionKey'],
  TokenRequest: ['CardNumber', 'CVV2', 'TransactionKey'],
  CardInfoRequest: ['CardNumber'],
  HostedPaymentRequest: ['TransactionKey'],
  InvoiceRequest: ['TransactionKey'],
  LoginRequest: ['Password'],
};

/** Operation parameters (strings) that carry card data by design. */
export const CARD_DATA_PARAMS: { readonly [N in OperationName]?: readonly ParamNameOf<N>[] } = {
  // The card reader's encrypted block: the card number, encrypted under the merchant's reader key.
  GetCardDetailsFromEncryptedData: ['encryptedData'],
};

function exempt(list: readonly string[] | undefined, name: string): boolean {
  return list !== undefined && list.includes(name);
}

function findInValue(value: unknown, type: FieldType, path: string): string | null {
  if (value === null || value === undefined) return null;
  switch (type.kind) {
    case 'scalar':
      return type.type === 'string' && typeof value === 'string' && containsCardNumber(value) ? path : null;
    case 'enum':
      return null; // one of the enumeration's names
    case 'complex':
      return findInComplex(value, type.type, path);
    case 'list': {
      if (!Array.isArray(value)) return null;
      const item: FieldType = isScalarType(type.item)
        ? { kind: 'scalar', type: type.item }
        : { kind: 'complex', type: type.item };
      for (let i = 0; i < value.length; i++) {
        const found = findInValue(value[i], item, `${path}/${type.itemElement}[${i + 1}]`);
        if (found !== null) return found;
      }
      return null;
    }
  }
}

function findInComplex(value: unknown, typeName: string, path: string): string | null {
  const type = findComplexType(typeName);
  if (type === undefined || typeof value !== 'object' || value === null) return null;
  const skip = CARD_DATA_ELEMENTS[typeName as ComplexTypeName] as readonly string[] | undefined;
  const record = value as Record<string, unknown>;
  for (const field of fieldsOf(type)) {
    if (exempt(skip, field.name) || !Object.hasOwn(record, field.name)) continue;
    const found = findInValue(record[field.name], field.type, `${path}/${field.name}`);
    if (found !== null) return found;
  }
  return null;
}

/**
 * The path of the first free-text element of `params` that holds a card number, in the fault
 * strings' form (`request/CustomValue1`, `invoiceRequest/Invoices/InvoiceDetails[2]/InvoiceNumber`),
 * or null when there is none.
 */
export function cardNumberElement(operation: OperationName, params: unknown): string | null {
  if (typeof params !== 'object' || params === null) return null;
  const skip = CARD_DATA_PARAMS[operation] as readonly string[] | undefined;
  const record = params as Record<string, unknown>;
  const op = getOperation(operation);
  for (const param of op.params as readonly Field[]) {
    if (exempt(skip, param.name) || !Object.hasOwn(record, param.name)) continue;
    const found = findInValue(record[param.name], param.type, param.name);
    if (found !== null) return found;
  }
  return null;
}
