/**
 * What each operation does to the service's state: `read` operations only answer; `change`
 * operations create, change, send or remove something (a payment, a token, a code, a session's
 * state). The HTTP GET binding serves `read` operations only, unless the operator turns on ASMX's
 * behaviour (`SOAP_HTTP_GET_CHANGES`; docs/transaction-service.md "Bindings"): a GET is what a link,
 * an image tag, a prefetch or a crawler sends, and must change nothing (security.md CSRF-2).
 *
 * Declared per operation name, so the compiler checks that every operation has one.
 */
import type { OperationName } from './operations.ts';

export type Effect = 'read' | 'change';

export const OPERATION_EFFECT: Record<OperationName, Effect> = {
  ProcessTransaction: 'change',
  SettleTransaction: 'change',
  CreatePaymentProfile: 'change',
  UpdatePaymentProfile: 'change',
  DelelePaymentProfile: 'change',
  GetCustomerPaymentProfile: 'read',
  GetCustomerPaymentProfileList: 'read',
  GetRecurringCustomerDetail: 'read',
  GetTransactionHistories: 'read',
  GetMerchantInfo: 'read',
  GetMerchantDetails: 'read',
  CreateInvoice: 'change',
  Verify3DSecureMerchant: 'read',
  // A session token, a failure count and a lock-out: a sign-in is never a GET.
  Login: 'change',
  ForgotPassword: 'change',
  GetCardDetailsFromEncryptedData: 'read',
  UpdateToken: 'change',
  GetCardInfo: 'read',
  GetHostedPaymentDetails: 'read',
  GetStoredCards: 'read',
  // Draws fresh one-time codes on every call: never one a link or a prefetch may repeat.
  SendVerificationCode: 'change',
  CreateHostedPayment: 'change',
  RemoveStoredCard: 'change',
  CancelHostedPayment: 'change',
  // Computes a signature; stores nothing.
  SignForMerchant: 'read',
  GetCheckoutSession: 'read',
  PayCheckoutSession: 'change',
  ListEndedCheckoutSessions: 'read',
  ListCheckoutSessions: 'read',
  GetUserSession: 'read',
  // A pending secret; a code marked used and a session verified; a session ended.
  BeginSecondFactorEnrolment: 'change',
  VerifySecondFactor: 'change',
  EndUserSession: 'change',
  ListPayments: 'read',
  GetPayment: 'read',
  GetPaymentOverview: 'read',
  GetSettlementSummary: 'read',
  ListAuditEvents: 'read',
  RollTransactionKey: 'change',
  GetTransactionKeyStatus: 'read',
  // Webhooks (issue 16, Developers).
  GetWebhookSettings: 'read',
  SetWebhookEndpoint: 'change',
  RollWebhookSecret: 'change',
  // Computes signatures; stores nothing (as SignForMerchant).
  SignWebhook: 'read',
  // Records the user's request (audited); the checkout then sends.
  AuthorizeWebhookDelivery: 'change',
  // The team (issue 16): invitations, roles, disabling, second factors. GetInvitation only reads
  // (a wrong token counts against the caller's address, as a failed credential on any read).
  ListUsers: 'read',
  InviteUser: 'change',
  RevokeInvitation: 'change',
  ChangeUserRole: 'change',
  DisableUser: 'change',
  EnableUser: 'change',
  ResetUserSecondFactor: 'change',
  GetInvitation: 'read',
  AcceptInvitation: 'change',
  GetMerchantSettings: 'read',
  UpdateMerchantSettings: 'change',
};

/** True when the operation changes state; unknown names count as changing (the safe side). */
export function changesState(operation: string): boolean {
  return Object.hasOwn(OPERATION_EFFECT, operation)
    ? OPERATION_EFFECT[operation as OperationName] === 'change'
    : true;
}

/** Whether the HTTP GET binding serves the operation: reads always, changes only when allowed. */
export function servedOverGet(operation: string, getMayChangeState: boolean): boolean {
  return getMayChangeState || !changesState(operation);
}
