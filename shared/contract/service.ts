/**
 * The TransactionService port (DESIGN.md "Parts and how data flows"): one typed async method per
 * operation, derived from `operations.ts` at the type level. The in-process gateway and the SOAP
 * client implement it; the checkout server and the SOAP bindings call it.
 *
 * Methods are named exactly as the operations, so a binding can dispatch with `service[op.name]`.
 */
import type { Field, FieldType } from './model.ts';
import type { OperationName, OperationNamed } from './operations.ts';
import type { FieldsValue, TypeValue } from './values.ts';

/** The parameters of an operation, by parameter name, e.g. `{ startDate, endDate, merchantID }`. */
export type OperationParams<N extends OperationName> = FieldsValue<
  OperationNamed<N>['params'][number] & Field
>;

/** What `<Op>Result` holds: `boolean` for Verify3DSecureMerchant, an array for list results. */
export type OperationResult<N extends OperationName> = OperationNamed<N>['result'] extends infer R
  ? R extends FieldType
    ? TypeValue<R>
    : undefined
  : never;

/** One operation's implementation; `context` carries what the caller knows (credential, request id). */
export type OperationHandler<N extends OperationName, Ctx = unknown> = (
  params: OperationParams<N>,
  context: Ctx,
) => Promise<OperationResult<N>>;

type Methods<Ctx> = { readonly [N in OperationName]: OperationHandler<N, Ctx> };

/** The Transaction Service as a typed port; `Ctx` is the call context type of the implementation. */
export interface TransactionService<Ctx = unknown> extends Methods<Ctx> {}
