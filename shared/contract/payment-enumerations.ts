/**
 * Why a payment was declined and how a session was paid, declared apart from extensions.ts so the
 * dashboard's payments module (dashboard-payments.ts), which extensions.ts itself imports, can use
 * them too. Meanings are in docs/gateway.md.
 */
import type { EnumValue } from './enum-values.ts';
import { enumeration } from './model.ts';

/** Why a payment was declined, for the shopper's message and the merchant's webhook. */
export const DeclineReason = enumeration('DeclineReason', [
  'CardDeclined',
  'InsufficientFunds',
  'PartialApproval',
  'ExpiredCard',
  'InvalidCardNumber',
  'IncorrectCvc',
  'AuthenticationFailed',
  'MethodNotAccepted',
  // The merchant asks for the name on the card (NameOnCardRequired) and the payment had none.
  'NameOnCardRequired',
  'BankDeclined',
  'InvalidAccount',
  'InvalidRoutingNumber',
  'InvalidRequest',
  'ProcessorError',
]);

/** How a session was paid. */
export const PaymentMethodKind = enumeration('PaymentMethodKind', ['Card', 'Ach']);

export type DeclineReason = EnumValue<typeof DeclineReason>;
export type PaymentMethodKind = EnumValue<typeof PaymentMethodKind>;
