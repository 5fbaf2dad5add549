/**
 * The Transaction Service contract (DESIGN.md §1): the table (types, operations), the types
 * derived from it, and the scalar rules of the wire format. Pure: no I/O, no Node imports.
 */
export * from './enum-values.ts';
export {
  CheckoutPaymentOutcome,
  CheckoutReturnMode,
  CheckoutSessionStatus,
  DeclineReason,
  PaymentMethodKind,
} from './extensions.ts';
export * from './http-params.ts';
export * from './model.ts';
export * from './operations.ts';
export * from './scalars.ts';
export type * from './service.ts';
export * from './types.ts';
export type * from './values.ts';
export * from './neutral.ts';
