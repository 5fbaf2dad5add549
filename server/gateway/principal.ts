import type { OperationName } from '../../shared/contract/operations.ts';

/**
 * Who may call an operation at all (what it may touch is checked by `actOn` and the handlers):
 *   - `public`: anyone;
 *   - `merchant`: a merchant's credential only;
 *   - `merchantOrService`: a merchant (its own data) or the checkout server's service credential
 *     (the hosted-payment operations, DESIGN.md §6);
 *   - `service`: the checkout server only — the shopper's cross-merchant wallet and its codes are
 *     reached after the shopper proved a contact with a one-time code (DESIGN.md §9), which a
 *     merchant's credential cannot show; signing under any merchant's key; paying a session and
 *     listing ended sessions for the checkout's own flows;
 *   - `user`: a merchant user's Login session (the dashboard), whether or not its second factor is
 *     verified yet. A user whose second factor is verified also acts as its merchant wherever a
 *     merchant may (`merchant`, `merchantOrService`); before that, only `user` operations answer;
 *   - `merchantUser`: a merchant user whose second factor is verified, never a TransactionKey — the
 *     keys, the webhook secret and the team (issue 16): a leaked key must not swap itself for one
 *     the merchant lacks, send the merchant's events elsewhere, or make itself a dashboard user.
 */
export type Access = 'public' | 'merchant' | 'merchantOrService' | 'service' | 'user' | 'merchantUser';

/** Every operation's access, checked by the compiler to name each operation once. */
export const OPERATION_ACCESS: Record<OperationName, Access> = {
  ProcessTransaction: 'merchantOrService',
  SettleTransaction: 'merchant',
  CreatePaymentProfile: 'merchant',
  UpdatePaymentProfile: 'merchant',
  DelelePaymentProfile: 'merchant',
  GetCustomerPaymentProfile: 'merchant',
  GetCustomerPaymentProfileList: 'merchant',
  GetRecurringCustomerDetail: 'merchant',
  // A spec-only checkout finds a payment whose answer it lost by its CustomValue1 (issue 20).
  GetTransactionHistories: 'merchantOrService',
  GetMerchantInfo: 'merchant',
  GetMerchantDetails: 'merchantOrService',
  CreateInvoice: 'merchant',
  Verify3DSecureMerchant: 'merchantOrService',
  Login: 'public',
  ForgotPassword: 'public',
  GetCardDetailsFromEncryptedData: 'merchant',
  UpdateToken: 'merchantOrService',
  GetCardInfo: 'merchant',
  GetHostedPaymentDetails: 'merchantOrService',
  GetStoredCards: 'service',
  SendVerificationCode: 'service',
  CreateHostedPayment: 'merchant',
  RemoveStoredCard: 'service',
  CancelHostedPayment: 'merchantOrService',
  SignForMerchant: 'service',
  GetCheckoutSession: 'merchantOrService',
  PayCheckoutSession: 'service',
  ListEndedCheckoutSessions: 'service',
  // A merchant's own list: the checkout server has no merchant to list for.
  ListCheckoutSessions: 'merchant',
  // The dashboard's own session: a signed-in user, before or after its second factor.
  GetUserSession: 'user',
  BeginSecondFactorEnrolment: 'user',
  VerifySecondFactor: 'user',
  EndUserSession: 'user',
  ListPayments: 'merchant',
  GetPayment: 'merchant',
  GetPaymentOverview: 'merchant',
  GetSettlementSummary: 'merchant',
  ListAuditEvents: 'merchant',
  RollTransactionKey: 'merchantUser',
  GetTransactionKeyStatus: 'merchantUser',
  GetWebhookSettings: 'merchant',
  SetWebhookEndpoint: 'merchantUser',
  RollWebhookSecret: 'merchantUser',
  SignWebhook: 'service',
  AuthorizeWebhookDelivery: 'merchantUser',
  // The team (issue 16); an invitation's link is the invitee's only credential: public, throttled.
  ListUsers: 'merchant',
  InviteUser: 'merchantUser',
  RevokeInvitation: 'merchantUser',
  ChangeUserRole: 'merchantUser',
  DisableUser: 'merchantUser',
  EnableUser: 'merchantUser',
  ResetUserSecondFactor: 'merchantUser',
  GetInvitation: 'public',
  AcceptInvitation: 'public',
  GetMerchantSettings: 'merchant',
  UpdateMerchantSettings: 'merchantUser',
};

/** The access of an operation named by a caller (SOAPAction, URL path); unknown names: merchant. */
export function accessOf(operation: string): Access {
  return Object.hasOwn(OPERATION_ACCESS, operation)
    ? OPERATION_ACCESS[operation as OperationName]
    : 'merchant';
}
