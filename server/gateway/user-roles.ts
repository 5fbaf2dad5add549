/**
 * The team roles of a merchant's users (issue 16), enforced by the gateway on every call a
 * dashboard user makes (`authorizeOperation`), whatever the page shows:
 *   - `owner`: everything;
 *   - `admin`: everything but the team and the keys (none of which has an operation yet);
 *   - `staff`: the payments: sales, refunds, voids, captures, settling, payment links, invoices;
 *   - `viewer`: reads only, and its own session.
 * A merchant's TransactionKey and the checkout server are not users and have no role.
 */
import type { OperationName } from '../../shared/contract/operations.ts';

export const USER_ROLES = ['owner', 'admin', 'staff', 'viewer'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** Each role's rank: a role may do what any role of a lower rank may. */
const RANK: Record<UserRole, number> = { viewer: 0, staff: 1, admin: 2, owner: 3 };

export function isUserRole(value: string): value is UserRole {
  return (USER_ROLES as readonly string[]).includes(value);
}

export function roleAllows(role: UserRole, least: UserRole): boolean {
  return RANK[role] >= RANK[least];
}

/**
 * The least role a user needs for each operation, checked by the compiler to name each operation
 * once. The checkout server's own operations (`service` in principal.ts) never answer a user; they
 * say `owner`, the safe side, should that ever change.
 */
export const OPERATION_LEAST_ROLE: Record<OperationName, UserRole> = {
  // Sales, refunds, voids and captures alike: one operation, the payments' work.
  ProcessTransaction: 'staff',
  SettleTransaction: 'staff',
  // A customer's stored card is kept for later charges the customer agreed to: making, changing or
  // removing one is the account's business, not a payment's.
  CreatePaymentProfile: 'admin',
  UpdatePaymentProfile: 'admin',
  DelelePaymentProfile: 'admin',
  GetCustomerPaymentProfile: 'viewer',
  GetCustomerPaymentProfileList: 'viewer',
  GetRecurringCustomerDetail: 'viewer',
  GetTransactionHistories: 'viewer',
  GetMerchantInfo: 'viewer',
  GetMerchantDetails: 'viewer',
  CreateInvoice: 'staff',
  Verify3DSecureMerchant: 'viewer',
  // Public: no role is asked of anyone (the table names them to be total).
  Login: 'viewer',
  ForgotPassword: 'viewer',
  // Decrypts a card reader's data with the merchant's reader key and answers the card's expiry:
  // part of taking a card-present payment, never a read-only user's.
  GetCardDetailsFromEncryptedData: 'staff',
  // Replaces a stored card's token (a card on file): like the payment profiles, the account's.
  UpdateToken: 'admin',
  GetCardInfo: 'viewer',
  GetHostedPaymentDetails: 'viewer',
  GetStoredCards: 'owner',
  SendVerificationCode: 'owner',
  CreateHostedPayment: 'staff',
  RemoveStoredCard: 'owner',
  CancelHostedPayment: 'staff',
  SignForMerchant: 'owner',
  GetCheckoutSession: 'viewer',
  PayCheckoutSession: 'owner',
  ListEndedCheckoutSessions: 'owner',
  ListCheckoutSessions: 'viewer',
  // The user's own session: every role signs in, verifies its second factor and signs out.
  GetUserSession: 'viewer',
  BeginSecondFactorEnrolment: 'viewer',
  VerifySecondFactor: 'viewer',
  EndUserSession: 'viewer',
  ListPayments: 'viewer',
  GetPayment: 'viewer',
  GetPaymentOverview: 'viewer',
  GetSettlementSummary: 'viewer',
  // A read, but it names the team's members and the addresses they called from: the team's
  // business, which an Admin runs day to day (the team's changes themselves stay the Owner's).
  ListAuditEvents: 'admin',
  // The keys are the Owner's (Admin: everything but the team and keys).
  RollTransactionKey: 'owner',
  GetTransactionKeyStatus: 'owner',
  // Webhooks: the deliveries (their bodies, the endpoint's answers) are an Admin's to read, resend
  // and test; the endpoint and the signing secret, a key, are the Owner's.
  GetWebhookSettings: 'admin',
  AuthorizeWebhookDelivery: 'admin',
  SetWebhookEndpoint: 'owner',
  RollWebhookSecret: 'owner',
  SignWebhook: 'owner',
  // The team (issue 16): an Admin sees who is on it (it reads the same names in the audit log);
  // every change to it is the Owner's.
  ListUsers: 'admin',
  InviteUser: 'owner',
  RevokeInvitation: 'owner',
  ChangeUserRole: 'owner',
  DisableUser: 'owner',
  EnableUser: 'owner',
  ResetUserSecondFactor: 'owner',
  // Public: the invitee has no user yet (the table names them to be total).
  GetInvitation: 'viewer',
  AcceptInvitation: 'viewer',
  // Settings (issue 16): everyone reads them; the business details, branding and origins are an
  // Admin's to change.
  GetMerchantSettings: 'viewer',
  UpdateMerchantSettings: 'admin',
};

/** The least role for an operation named by a caller; unknown names: owner (the safe side). */
export function leastRoleOf(operation: string): UserRole {
  return Object.hasOwn(OPERATION_LEAST_ROLE, operation)
    ? OPERATION_LEAST_ROLE[operation as OperationName]
    : 'owner';
}

/** A role as people read it: "Staff". */
export function roleTitle(role: UserRole): string {
  return role.charAt(0).toUpperCase() + role.slice(1);
}
