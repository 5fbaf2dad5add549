/**
 * The merchant dashboard's team extensions. Team (issue 16): the merchant's users and their roles;
 * invitations by e-mail, disabling a user, resetting a second factor, changing a role.
 * Declared with the contract's builders (model.ts); extensions.ts adds them to the extension lists,
 * so the WSDL, codec, help page and types derive from them. docs/dashboard.md says what each means.
 */
import { complexType, field, listOf, operation } from './model.ts';
import { UserRole } from './user-role.ts';

const required = { required: true } as const;

/** The enumerations of this part, each declared once in the WSDL (UserRole is extensions.ts's). */
export const teamEnumerations = [] as const;

/** The complex types of this part. */
export const teamTypes = [
  // One user of the merchant as its team list shows it.
  complexType('TeamUser', [
    field('UserID', 'long', required),
    field('UserName', 'string'),
    field('Email', 'string'),
    field('Role', UserRole, required),
    field('SecondFactorEnrolled', 'boolean', required),
    field('Disabled', 'boolean', required),
    // Locked out for now after ten failed sign-ins in a row (it ends by itself).
    field('Locked', 'boolean', required),
    field('LastSignInAt', 'dateTime'), // absent: never signed in
    field('CreatedAt', 'dateTime', required),
  ]),
  // An invitation sent and not yet accepted, revoked or expired.
  complexType('TeamInvitation', [
    field('InvitationID', 'long', required),
    field('Email', 'string'),
    field('Role', UserRole, required),
    field('InvitedBy', 'string'), // the user name of who sent it
    field('CreatedAt', 'dateTime', required),
    field('ExpiresAt', 'dateTime', required),
  ]),
  complexType('TeamList', [
    field('Users', listOf('TeamUser')), // by user name
    field('Invitations', listOf('TeamInvitation')), // pending ones, newest first
  ]),
  // What an invitation link is for, shown to the invitee before it chooses a user name.
  complexType('InvitationDetail', [
    field('Email', 'string'),
    field('Role', UserRole, required),
    field('MerchantName', 'string'),
    field('ExpiresAt', 'dateTime', required),
  ]),
] as const;

/**
 * The operations of this part (each with `extension: true`). Their parameters are optional in the
 * schema: a missing one is refused by name by the handler (no default could stand for a user or a
 * role).
 */
export const teamOperations = [
  operation({
    name: 'ListUsers',
    doc: "The merchant's users with their roles and second factors, and its pending invitations (merchant only).",
    params: [],
    result: 'TeamList',
    extension: true,
  }),
  operation({
    name: 'InviteUser',
    doc: 'E-mails a single-use link (72 hours) to join the merchant with a role (an Owner only).',
    params: [field('email', 'string'), field('role', UserRole)],
    result: 'TeamInvitation',
    extension: true,
  }),
  operation({
    name: 'RevokeInvitation',
    doc: 'Makes a pending invitation unusable (an Owner only).',
    params: [field('invitationID', 'long')],
    result: 'OperationStatus',
    extension: true,
  }),
  operation({
    name: 'ChangeUserRole',
    doc: "Changes a user's role; the merchant's last enabled Owner keeps its role (an Owner only).",
    params: [field('userID', 'long'), field('role', UserRole)],
    result: 'TeamUser',
    extension: true,
  }),
  operation({
    name: 'DisableUser',
    doc: 'Stops a user from signing in and ends all its sessions; never the caller itself or the last Owner (an Owner only).',
    params: [field('userID', 'long')],
    result: 'TeamUser',
    extension: true,
  }),
  operation({
    name: 'EnableUser',
    doc: 'Lets a disabled user sign in again (an Owner only).',
    params: [field('userID', 'long')],
    result: 'TeamUser',
    extension: true,
  }),
  operation({
    name: 'ResetUserSecondFactor',
    doc: "Clears a user's second factor and recovery codes and ends its sessions (an Owner only).",
    params: [field('userID', 'long')],
    result: 'TeamUser',
    extension: true,
  }),
  // The invitee's side: public, the link's token is the credential.
  operation({
    name: 'GetInvitation',
    doc: 'What an invitation link is for, while it can still be accepted (public; the token is the credential).',
    params: [field('token', 'string')],
    result: 'InvitationDetail',
    extension: true,
  }),
  operation({
    name: 'AcceptInvitation',
    doc: 'Accepts an invitation once: makes the user with the invited e-mail and role, the user name and password chosen (public).',
    params: [field('token', 'string'), field('userName', 'string'), field('password', 'string')],
    result: 'OperationStatus',
    extension: true,
  }),
] as const;
