/**
 * The gateway: Payframe's implementation of the Transaction Service. Every call is authenticated
 * (DESIGN.md §6) and authorised for its operation before its handler runs; handlers then check
 * which merchant they may touch.
 */
import { applyTextPolicy } from '../../shared/contract/text-elements.ts';
import { TEXT_PROBLEM_CODES, TEXT_PROBLEM_MESSAGES } from '../../shared/text/text-policy.ts';
import { cardNumberElement } from '../../shared/contract/card-text.ts';
import { operations } from '../../shared/contract/index.ts';
import type { OperationName } from '../../shared/contract/operations.ts';
import type { OperationParams, OperationResult, TransactionService } from '../../shared/contract/service.ts';
import { PayframeError } from '../errors.ts';
import type { CallContext, SignedInUser } from './port.ts';
import { type Authenticated, authenticate, authorizeOperation } from './auth.ts';
import type { GatewayCall, GatewayDeps } from './gateway-call.ts';
import { authenticatedBeforeReading } from './pre-auth.ts';
import { getCardDetailsFromEncryptedData, getCardInfo } from './operations/card-operations.ts';
import {
  cancelHostedPayment,
  createHostedPayment,
  getHostedPaymentDetails,
} from './operations/hosted-payment-operations.ts';
import {
  getCheckoutSession,
  listCheckoutSessions,
  listEndedCheckoutSessions,
  payCheckoutSession,
} from './operations/checkout-session-operations.ts';
import { AUDIT_HANDLERS } from './operations/audit-operations.ts';
import { KEY_HANDLERS } from './operations/key-operations.ts';
import { TEAM_HANDLERS } from './operations/team-operations.ts';
import { WEBHOOK_HANDLERS } from './operations/webhook-operations.ts';
import { SETTINGS_HANDLERS } from './operations/settings-operations.ts';
import { INVOICE_HANDLERS } from './operations/invoice-operations.ts';
import {
  getMerchantDetails,
  getMerchantInfo,
  verify3DSecureMerchant,
} from './operations/merchant-operations.ts';
import { PAYMENT_HANDLERS } from './operations/payment-operations.ts';
import { PAYMENT_PROFILE_HANDLERS } from './operations/payment-profile-operations.ts';
import { processTransaction } from './operations/process-transaction.ts';
import { getRecurringCustomerDetail, getTransactionHistories } from './operations/reporting-operations.ts';
import { settleTransaction } from './operations/settlement-operations.ts';
import { signForMerchant } from './operations/sign-operations.ts';
import { SECOND_FACTOR_HANDLERS } from './operations/second-factor-operations.ts';
import { auditsUserCall, recordUserCall } from './users/user-call-audit.ts';
import { updateToken } from './operations/update-token.ts';
import { forgotPassword, login } from './operations/user-operations.ts';
import { sendVerificationCode } from './operations/verification-operations.ts';
import { getStoredCards, removeStoredCard } from './operations/wallet-operations.ts';

/** One handler per operation: the compiler checks that none is missing. */
type Handlers = {
  [N in OperationName]: (
    params: OperationParams<N>,
    call: GatewayCall,
    deps: GatewayDeps,
  ) => Promise<OperationResult<N>>;
};

export const GATEWAY_HANDLERS: Handlers = {
  ...PAYMENT_PROFILE_HANDLERS,
  ...INVOICE_HANDLERS,
  ...SECOND_FACTOR_HANDLERS,
  ...PAYMENT_HANDLERS,
  ...AUDIT_HANDLERS,
  ...KEY_HANDLERS,
  ...TEAM_HANDLERS,
  ...WEBHOOK_HANDLERS,
  ...SETTINGS_HANDLERS,
  Login: login,
  ForgotPassword: forgotPassword,
  UpdateToken: updateToken,
  GetStoredCards: getStoredCards,
  RemoveStoredCard: removeStoredCard,
  SendVerificationCode: sendVerificationCode,
  ProcessTransaction: processTransaction,
  SettleTransaction: settleTransaction,
  GetTransactionHistories: getTransactionHistories,
  GetRecurringCustomerDetail: getRecurringCustomerDetail,
  GetCardInfo: getCardInfo,
  GetCardDetailsFromEncryptedData: getCardDetailsFromEncryptedData,
  GetMerchantInfo: getMerchantInfo,
  GetMerchantDetails: getMerchantDetails,
  Verify3DSecureMerchant: verify3DSecureMerchant,
  CreateHostedPayment: createHostedPayment,
  CancelHostedPayment: cancelHostedPayment,
  GetHostedPaymentDetails: getHostedPaymentDetails,
  SignForMerchant: signForMerchant,
  GetCheckoutSession: getCheckoutSession,
  PayCheckoutSession: payCheckoutSession,
  ListEndedCheckoutSessions: listEndedCheckoutSessions,
  ListCheckoutSessions: listCheckoutSessions,
};

async function callerOf(deps: GatewayDeps, op: string, context: CallContext): Promise<Authenticated> {
  if (context.binding === 'inProcess' && context.principal) return { principal: context.principal };
  // Checked by the wire layer before the body was read (pre-auth.ts): not twice.
  const before = authenticatedBeforeReading(context);
  if (before) return before;
  return authenticate(
    {
      db: deps.db,
      merchants: deps.merchants,
      serviceKey: deps.serviceKey,
      now: deps.now,
      userIdleMinutes: deps.userIdleMinutes,
    },
    op,
    context.authorization,
    context.remoteAddress,
    context.relay,
  );
}

/**
 * No card number in any free-text element, whatever the binding (DESIGN.md §18, issue 13): a fault
 * naming the element, never quoting its value, before the handler stores or echoes anything.
 */
/**
 * The text policy over every text element, whatever the binding (DESIGN.md §18, issue 13 §4): the
 * parameters with their text in NFC, or a fault naming the element and the problem, never quoting
 * the value, before the handler stores or echoes anything.
 */
function textPolicy(op: OperationName, params: unknown): unknown {
  const checked = applyTextPolicy(op, params);
  if (checked.ok) return checked.params;
  const message = `Element '${checked.element}' ${TEXT_PROBLEM_MESSAGES[checked.problem]}`;
  throw new PayframeError('validation_failed', message, [
    { field: checked.element, code: TEXT_PROBLEM_CODES[checked.problem], message },
  ]);
}

function refuseCardNumbers(op: OperationName, params: unknown): void {
  const element = cardNumberElement(op, params);
  if (element === null) return;
  const message = `Element '${element}' must not contain a card number.`;
  throw new PayframeError('validation_failed', message, [{ field: element, code: 'card_number', message }]);
}

/** Records a user's change refused before its handler; a record that fails is logged instead. */
async function recordRefusal(
  deps: GatewayDeps,
  context: CallContext,
  user: SignedInUser,
  operation: OperationName,
  clientAddress: string | undefined,
  params: unknown,
  error: unknown,
): Promise<void> {
  const origin = clientAddress ?? context.remoteAddress;
  // The request was not checked yet: its references are kept only when it holds no card number
  // and its text passes the text policy (the audit log is append-only: nothing can clean it later).
  const checked = cardNumberElement(operation, params) === null ? applyTextPolicy(operation, params) : null;
  const kept = checked?.ok ? checked.params : {};
  await recordUserCall(deps.db, user, operation, origin, deps.now(), kept, { error }).catch((err: unknown) =>
    context.log.error({ err, user: user.userId, operation }, 'audit of a user change failed'),
  );
}

export function createGateway(
  deps: GatewayDeps,
  handlers: Handlers = GATEWAY_HANDLERS,
): TransactionService<CallContext> {
  const service: Record<string, (params: unknown, context: CallContext) => Promise<unknown>> = {};
  for (const op of operations) {
    const handler = handlers[op.name] as (
      params: unknown,
      call: GatewayCall,
      deps: GatewayDeps,
    ) => Promise<unknown>;
    service[op.name] = async (params, context) => {
      const { principal, merchant, clientAddress, session } = await callerOf(deps, op.name, context);
      const user = principal.kind === 'merchant' ? principal.user : undefined;
      const audited = user !== undefined && auditsUserCall(op.name);
      try {
        authorizeOperation(principal, op.name);
      } catch (error) {
        // A change the user's role does not allow is recorded as refused, like one that failed.
        if (audited) await recordRefusal(deps, context, user, op.name, clientAddress, params, error);
        throw error;
      }
      // A card number first (the graver problem, named as such however it is spelled), then the
      // text policy, which also puts the text in NFC for the handler.
      refuseCardNumbers(op.name, params);
      const text = textPolicy(op.name, params);
      const call: GatewayCall = {
        principal,
        context,
        clientAddress: clientAddress ?? context.remoteAddress,
        ...(merchant ? { merchant } : {}),
        ...(session ? { session } : {}),
      };
      if (!audited) return handler(text, call, deps);
      // A dashboard user's change: recorded with the user, whatever came of it.
      let outcome: { result: unknown } | { error: unknown };
      try {
        outcome = { result: await handler(text, call, deps) };
      } catch (error) {
        outcome = { error };
      }
      // The change stands whatever becomes of its record: answering an error for a refund that was
      // made would invite a second one. A record that fails is logged instead.
      await recordUserCall(
        deps.db,
        user,
        op.name,
        call.clientAddress,
        deps.now(),
        text,
        outcome,
        call.auditSubject,
      ).catch((err: unknown) =>
        context.log.error({ err, user: user.userId, operation: op.name }, 'audit of a user change failed'),
      );
      if ('error' in outcome) throw outcome.error;
      return outcome.result;
    };
  }
  return service as unknown as TransactionService<CallContext>;
}
