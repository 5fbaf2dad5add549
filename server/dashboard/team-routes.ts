/**
 * The merchant's team in the dashboard (issue 16 "Team"; docs/dashboard.md "Team"), through the
 * Transaction Service as the signed-in user: the gateway checks the role on every call (reading the
 * team: Admin or Owner; changing it: Owner) and keeps the last owner, whatever this server sends.
 *
 *   GET  /team                              ListUsers → {users, invitations}
 *   POST /team/invitations                  {email, role} InviteUser → {invitation}
 *   POST /team/invitations/:id/revoke       RevokeInvitation → 204
 *   POST /team/users/:id/role               {role} ChangeUserRole → {user}
 *   POST /team/users/:id/disable            DisableUser → {user}
 *   POST /team/users/:id/enable             EnableUser → {user}
 *   POST /team/users/:id/reset-second-factor ResetUserSecondFactor → {user}
 *
 * The invitee's side, before any session (public operations, no cookie needed). The token travels
 * in a JSON body only, never in a URL: the invitation page reads it from the link's fragment.
 *   POST /invitation                        {token} GetInvitation → {email, role, merchantName, expiresAt}
 *   POST /invitation/accept                 {token, username, password} AcceptInvitation → {message}
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { UserRole } from '../../shared/contract/extensions.ts';
import type { ValueOf } from '../../shared/contract/values.ts';
import { parseOr400 } from '../checkout/field-errors.ts';
import { anonymousContext, type DashboardDeps, verified } from './user-context.ts';

const ID = z.string().regex(/^[1-9]\d{0,17}$/, 'The id must be a number.');
const Role = z.enum(UserRole.values);
const EmptyBody = z.strictObject({});
const InviteBody = z.strictObject({ email: z.string().trim().max(254), role: Role });
const RoleBody = z.strictObject({ role: Role });
const TOKEN = z.string().trim().max(100);
const TokenBody = z.strictObject({ token: TOKEN });
const AcceptBody = z.strictObject({
  token: TOKEN,
  username: z.string().max(100),
  password: z.string().max(256),
});

export interface TeamUserView {
  id: string;
  name: string;
  email: string | null;
  role: UserRole;
  secondFactor: boolean;
  disabled: boolean;
  locked: boolean;
  lastSignInAt: string | null;
  createdAt: string;
}

export interface InvitationView {
  id: string;
  email: string;
  role: UserRole;
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
}

const iso = (at: string) => new Date(at).toISOString();

export function teamUserView(u: ValueOf<'TeamUser'>): TeamUserView {
  return {
    id: u.UserID,
    name: u.UserName ?? '',
    email: u.Email ?? null,
    role: u.Role,
    secondFactor: u.SecondFactorEnrolled,
    disabled: u.Disabled,
    locked: u.Locked,
    lastSignInAt: u.LastSignInAt ? iso(u.LastSignInAt) : null,
    createdAt: iso(u.CreatedAt),
  };
}

export function invitationView(i: ValueOf<'TeamInvitation'>): InvitationView {
  return {
    id: i.InvitationID,
    email: i.Email ?? '',
    role: i.Role,
    invitedBy: i.InvitedBy ?? null,
    createdAt: iso(i.CreatedAt),
    expiresAt: iso(i.ExpiresAt),
  };
}

const idParam = (request: FastifyRequest) => parseOr400(ID, (request.params as { id?: string }).id);

type Change = 'DisableUser' | 'EnableUser' | 'ResetUserSecondFactor';

export async function teamRoutes(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const port = deps.checkout.port;

  app.get('/team', async (request) => {
    const user = await verified(deps, request);
    const team = await port.ListUsers({}, user.context);
    return {
      users: (team.Users ?? []).map(teamUserView),
      invitations: (team.Invitations ?? []).map(invitationView),
    };
  });

  app.post('/team/invitations', async (request) => {
    const body = parseOr400(InviteBody, request.body);
    const user = await verified(deps, request);
    const invitation = await port.InviteUser({ email: body.email, role: body.role }, user.context);
    return { invitation: invitationView(invitation) };
  });

  app.post('/team/invitations/:id/revoke', async (request, reply) => {
    const id = idParam(request);
    parseOr400(EmptyBody, request.body ?? {});
    const user = await verified(deps, request);
    await port.RevokeInvitation({ invitationID: id }, user.context);
    return reply.code(204).send();
  });

  app.post('/team/users/:id/role', async (request) => {
    const id = idParam(request);
    const body = parseOr400(RoleBody, request.body);
    const user = await verified(deps, request);
    return { user: teamUserView(await port.ChangeUserRole({ userID: id, role: body.role }, user.context)) };
  });

  const change = (path: string, operation: Change) =>
    app.post(`/team/users/:id/${path}`, async (request) => {
      const id = idParam(request);
      parseOr400(EmptyBody, request.body ?? {});
      const user = await verified(deps, request);
      return { user: teamUserView(await port[operation]({ userID: id }, user.context)) };
    });
  change('disable', 'DisableUser');
  change('enable', 'EnableUser');
  change('reset-second-factor', 'ResetUserSecondFactor');

  app.post('/invitation', async (request) => {
    const body = parseOr400(TokenBody, request.body);
    const i = await port.GetInvitation({ token: body.token }, anonymousContext(deps, request));
    return {
      email: i.Email ?? '',
      role: i.Role,
      merchantName: i.MerchantName ?? '',
      expiresAt: iso(i.ExpiresAt),
    };
  });

  app.post('/invitation/accept', async (request) => {
    const body = parseOr400(AcceptBody, request.body);
    const result = await port.AcceptInvitation(
      { token: body.token, userName: body.username, password: body.password },
      anonymousContext(deps, request),
    );
    return { message: result.Message ?? '' };
  });
}
