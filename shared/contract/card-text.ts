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
import type { getOperation, OperationName } from './operations.ts';
import { type ElementExemptions, STOP, walkStringElements } from './string-elements.ts';
import type { ComplexTypeName, ComplexTypeNamed } from './types.ts';

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

/** Both lists, as the string-element walker takes them. */
export const CARD_DATA: ElementExemptions = { elements: CARD_DATA_ELEMENTS, params: CARD_DATA_PARAMS };

/**
 * The path of the first free-text element of `params` that holds a card number, in the fault
 * strings' form (`request/CustomValue1`, `invoiceRequest/Invoices/InvoiceDetails[2]/InvoiceNumber`),
 * or null when there is none.
 */
export function cardNumberElement(operation: OperationName, params: unknown): string | null {
  return walkStringElements(operation, params, CARD_DATA, (value) =>
    containsCardNumber(value) ? STOP : value,
  ).stoppedAt;
}
