/**
 * The merchant's team (issue 16; docs/dashboard.md "Team"): ListUsers (Admin and Owner), and the
 * Owner's changes — InviteUser, RevokeInvitation, ChangeUserRole, DisableUser, EnableUser,
 * ResetUserSecondFactor — each on the merchant's own users only (another merchant's user is not
 * found) and under the last-owner rule (users/team.ts). The roles are checked before a handler
 * runs (user-roles.ts); each change is recorded by the gateway as `operation.<Name>` with the user
 * it acted on as the event's subject (`call.auditSubject`).
 *
 * The invitee's side is public, the link's token its only credential: GetInvitation and
 * AcceptInvitation. A token that cannot be used counts as a failed attempt of the caller's
 * address; 30 in the throttle's window (auth.ts) and the address waits, as Login's.
 */
import type { UserRole as ContractUserRole } from '../../../shared/contract/extensions.ts';
import type { OperationParams, OperationResult } from '../../../shared/contract/service.ts';
import type { ValueOf } from '../../../shared/contract/values.ts';
import { PayframeError } from '../../errors.ts';
import type { NotificationMessage } from '../../notify/notifier.ts';
import { recordFailure, throttledFor } from '../auth.ts';
import type { GatewayCall, GatewayDeps } from '../gateway-call.ts';
import { escapeHtml } from '../three-ds/three-ds-page.ts';
import { roleTitle, type UserRole } from '../user-roles.ts';
import { recordAudit, userResource } from '../users/audit.ts';
import {
  acceptInvitation as accept,
  createInvitation,
  INVITATION_HOURS,
  INVITATION_UNUSABLE,
  type Invitation,
  pendingInvitations,
  revokeInvitation as revoke,
  usableInvitation,
} from '../users/invitations.ts';
import { changeMember, listMembers, type TeamChange, type TeamMember } from '../users/team.ts';

/** Attempts with a token that cannot be used, per address, before the address waits. */
export const INVITATION_FAILURES_PER_ADDRESS = 30;

const ID = /^[1-9]\d{0,17}$/;

const toContract = (role: UserRole) => roleTitle(role) as ContractUserRole;
const fromContract = (role: ContractUserRole) => role.toLowerCase() as UserRole;

function memberValue(m: TeamMember): ValueOf<'TeamUser'> {
  return {
    UserID: m.id,
    UserName: m.username,
    Email: m.email ?? undefined,
    Role: toContract(m.role),
    SecondFactorEnrolled: m.secondFactorEnrolled,
    Disabled: m.disabled,
    Locked: m.locked,
    LastSignInAt: m.lastSignInAt?.toISOString(),
    CreatedAt: m.createdAt.toISOString(),
  };
}

function invitationValue(i: Invitation): ValueOf<'TeamInvitation'> {
  return {
    InvitationID: i.id,
    Email: i.email,
    Role: toContract(i.role),
    InvitedBy: i.invitedBy ?? undefined,
    CreatedAt: i.createdAt.toISOString(),
    ExpiresAt: i.expiresAt.toISOString(),
  };
}

/** The signed-in user behind a team call (a TransactionKey is no one's: it has no team to run). */
function signedInUser(call: GatewayCall, operation: string): { merchantId: string; userId: string } {
  if (call.principal.kind !== 'merchant' || !call.principal.user)
    throw new PayframeError('forbidden', `${operation} is for a signed-in user of the dashboard.`);
  return { merchantId: call.principal.merchantId, userId: call.principal.user.userId };
}

function idOf(value: string | null | undefined, name: string): string {
  const v = value?.trim() ?? '';
  if (!ID.test(v)) throw new PayframeError('invalid_request', `${name} must be given, as a number.`);
  return v;
}

function roleOf(value: ContractUserRole | null | undefined): UserRole {
  if (!value) {
    const message = 'Choose a role: Owner, Admin, Staff or Viewer.';
    throw new PayframeError('validation_failed', message, [{ field: 'role', code: 'required', message }]);
  }
  return fromContract(value);
}

export async function listUsers(
  _params: OperationParams<'ListUsers'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'ListUsers'>> {
  if (call.principal.kind !== 'merchant')
    throw new PayframeError('forbidden', 'ListUsers answers a merchant about its own users.');
  const merchantId = call.principal.merchantId;
  const now = deps.now();
  const [members, invitations] = await Promise.all([
    listMembers(deps.db, merchantId, now),
    pendingInvitations(deps.db, merchantId, now),
  ]);
  return { Users: members.map(memberValue), Invitations: invitations.map(invitationValue) };
}

/** The invitation e-mail: who invites, to what, the link, its lifetime. */
export function invitationMessage(
  invitation: Invitation,
  link: string,
): NotificationMessage & { to: string } {
  const role = roleTitle(invitation.role);
  const who = invitation.invitedBy ?? 'An Owner';
  const lines = [
    `${who} invites you to the Payframe dashboard of ${invitation.merchantName}, as ${role}.`,
    `To accept, open this link within ${INVITATION_HOURS} hours and choose a user name and a password. It works once.`,
    link,
    'You will then sign in and set up a second factor (an authenticator app).',
    'If you did not expect this, ignore this e-mail.',
  ];
  const html = [
    `<p>${escapeHtml(who)} invites you to the Payframe dashboard of <strong>${escapeHtml(invitation.merchantName)}</strong>, as ${role}.</p>`,
    `<p>To accept, open this link within ${INVITATION_HOURS} hours and choose a user name and a password. It works once.</p>`,
    `<p><a href="${escapeHtml(link)}">Accept the invitation</a></p>`,
    '<p>You will then sign in and set up a second factor (an authenticator app).</p>',
    '<p>If you did not expect this, ignore this e-mail.</p>',
  ].join('\n');
  return {
    channel: 'email',
    to: invitation.email,
    subject: `Join ${invitation.merchantName} on Payframe`,
    text: `${lines.join('\n\n')}\n`,
    html,
    purpose: 'invitation',
  };
}

export async function inviteUser(
  params: OperationParams<'InviteUser'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'InviteUser'>> {
  const { merchantId, userId } = signedInUser(call, 'InviteUser');
  const role = roleOf(params.role);
  const { invitation, token } = await createInvitation(
    deps.db,
    { merchantId, email: params.email ?? '', role, invitedBy: userId },
    deps.now(),
  );
  // Sent before the answer: the Owner learns at once when the e-mail could not go out. The link is
  // the dashboard's, served where the checkout is (CHECKOUT_PUBLIC_URL when the roles are split).
  const link = `${deps.checkoutPublicUrl ?? deps.publicUrl}/dashboard/invite#${token}`;
  try {
    await deps.notifier.send(invitationMessage(invitation, link));
  } catch (err) {
    await revoke(deps.db, merchantId, invitation.id, deps.now());
    call.context.log.error({ err, invitation: invitation.id }, 'invitation e-mail failed');
    throw new PayframeError(
      'internal',
      'The invitation e-mail could not be sent, so no invitation was made. Try again later.',
    );
  }
  return invitationValue(invitation);
}

export async function revokeInvitation(
  params: OperationParams<'RevokeInvitation'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'RevokeInvitation'>> {
  const { merchantId } = signedInUser(call, 'RevokeInvitation');
  const id = idOf(params.invitationID, 'invitationID');
  if (!(await revoke(deps.db, merchantId, id, deps.now())))
    throw new PayframeError('not_found', 'Your account has no pending invitation by that number.');
  return { Status: true, Message: 'The invitation was revoked: its link no longer works.' };
}

async function change(
  userIdParam: string | null | undefined,
  what: TeamChange,
  operation: string,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<ValueOf<'TeamUser'>> {
  const { merchantId, userId } = signedInUser(call, operation);
  const target = idOf(userIdParam, 'userID');
  // The subject is recorded once it is known to be the merchant's (changeMember's not_found).
  const member = await changeMember(deps.db, merchantId, userId, target, what, deps.now()).catch(
    (err: unknown) => {
      // Refused for a reason about that user (the last owner, oneself): it is the merchant's.
      if (err instanceof PayframeError && (err.code === 'conflict' || err.code === 'invalid_request'))
        call.auditSubject = target;
      throw err;
    },
  );
  call.auditSubject = member.id;
  return memberValue(member);
}

export const changeUserRole = (
  params: OperationParams<'ChangeUserRole'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'ChangeUserRole'>> =>
  change(params.userID, { kind: 'role', role: roleOf(params.role) }, 'ChangeUserRole', call, deps);

export const disableUser = (
  params: OperationParams<'DisableUser'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'DisableUser'>> =>
  change(params.userID, { kind: 'disable' }, 'DisableUser', call, deps);

export const enableUser = (
  params: OperationParams<'EnableUser'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'EnableUser'>> =>
  change(params.userID, { kind: 'enable' }, 'EnableUser', call, deps);

export const resetUserSecondFactor = (
  params: OperationParams<'ResetUserSecondFactor'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'ResetUserSecondFactor'>> =>
  change(params.userID, { kind: 'reset-second-factor' }, 'ResetUserSecondFactor', call, deps);

/** Refuses an address that tried too many unusable tokens, as Login does. */
async function throttle(call: GatewayCall, deps: GatewayDeps): Promise<string> {
  const subject = `invitation:${call.clientAddress}`;
  const wait = await throttledFor(deps.db, subject, deps.now(), INVITATION_FAILURES_PER_ADDRESS);
  if (wait > 0)
    throw new PayframeError('rate_limited', 'Too many attempts. Please wait and try again.', undefined, {
      retryAfterSeconds: wait,
    });
  return subject;
}

export async function getInvitation(
  params: OperationParams<'GetInvitation'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'GetInvitation'>> {
  const subject = await throttle(call, deps);
  const invitation = await usableInvitation(deps.db, params.token?.trim() ?? '', deps.now());
  if (!invitation) {
    await recordFailure(deps.db, subject, deps.now());
    throw new PayframeError('invalid_request', INVITATION_UNUSABLE);
  }
  return {
    Email: invitation.email,
    Role: toContract(invitation.role),
    MerchantName: invitation.merchantName,
    ExpiresAt: invitation.expiresAt.toISOString(),
  };
}

export async function acceptInvitation(
  params: OperationParams<'AcceptInvitation'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'AcceptInvitation'>> {
  const subject = await throttle(call, deps);
  const now = deps.now();
  let accepted: Awaited<ReturnType<typeof accept>>;
  try {
    accepted = await accept(
      deps.db,
      params.token?.trim() ?? '',
      params.userName ?? '',
      params.password ?? '',
      now,
    );
  } catch (err) {
    if (err instanceof PayframeError && err.code === 'invalid_request')
      await recordFailure(deps.db, subject, now);
    throw err;
  }
  const { userId, invitation } = accepted;
  await recordAudit(deps.db, {
    actor: userResource(userId),
    action: 'user.invitation_accepted',
    resource: userResource(userId),
    outcome: 'success',
    origin: call.clientAddress,
    detail: { InvitationID: invitation.id, Role: roleTitle(invitation.role) },
    at: now,
  });
  return { Status: true, Message: 'Your user is ready. Sign in to set up your second factor.' };
}

export const TEAM_HANDLERS = {
  ListUsers: listUsers,
  InviteUser: inviteUser,
  RevokeInvitation: revokeInvitation,
  ChangeUserRole: changeUserRole,
  DisableUser: disableUser,
  EnableUser: enableUser,
  ResetUserSecondFactor: resetUserSecondFactor,
  GetInvitation: getInvitation,
  AcceptInvitation: acceptInvitation,
};
