/**
 * The signed-in user's role (docs/dashboard.md "Roles"): the pages offer only what it may do. This
 * is for the page's sake alone; the gateway refuses whatever the role does not allow on every call.
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { UserRole } from './api-types.ts';

const RANK: Record<UserRole, number> = { Viewer: 0, Staff: 1, Admin: 2, Owner: 3 };

export const RoleContext = createContext<UserRole>('Viewer');

/** Whether the user may act on payments: refund, void, capture, settle, make or cancel a link. */
export function useMayActOnPayments(): boolean {
  return RANK[useContext(RoleContext)] >= RANK.Staff;
}

/** Whether the user may see and roll the TransactionKey (RollTransactionKey, GetTransactionKeyStatus: Owner). */
export function useMayManageKeys(): boolean {
  return useContext(RoleContext) === 'Owner';
}

/** Whether the role may see the team (ListUsers: Admin and Owner); only an Owner changes it. */
export const mayReadTeam = (role: UserRole): boolean => RANK[role] >= RANK.Admin;
export const mayChangeTeam = (role: UserRole): boolean => role === 'Owner';

/** Whether the role may read the audit log (ListAuditEvents: Admin and Owner, server/gateway/user-roles.ts). */
export const mayReadAuditLog = (role: UserRole): boolean => RANK[role] >= RANK.Admin;

/** Whether the role may change the settings (UpdateMerchantSettings: Admin and Owner; all may read). */
export const mayChangeSettings = (role: UserRole): boolean => RANK[role] >= RANK.Admin;

/**
 * Whether the user may read the webhook deliveries, resend one and send a test event
 * (GetWebhookSettings, AuthorizeWebhookDelivery: Admin and Owner); the endpoint and the signing
 * secret are the Owner's (useMayManageKeys).
 */
export function useMayReadWebhooks(): boolean {
  return RANK[useContext(RoleContext)] >= RANK.Admin;
}
