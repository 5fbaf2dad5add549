/**
 * A merchant's team (issue 16; docs/dashboard.md "Team"): its users as the team list shows them,
 * and the changes an Owner makes to them — a role, disabled or enabled, a second factor reset.
 *
 * **The last owner stays.** Every change locks the merchant's users (`select … for update`, in id
 * order, so two changes never deadlock) and decides on what it then reads: of two concurrent
 * demotions of a merchant's two owners, the second sees the first one done and is refused. On
 * PostgreSQL the lock is what makes that so; on PGlite transactions run one at a time.
 *
 * Disabling a user and resetting its second factor end all its sessions in the same transaction;
 * disabling a user, or changing an Owner's role to another, also revokes the invitations it sent
 * and still pending (an invitation is only as good as its sender's authority);
 * a disabled user's token is refused from its next call on (login-sessions.ts `useSession` reads
 * `disabled_at` on every call), and its sign-in is refused like a locked user's.
 */
import type { Database, Queryable } from '../../db/database.ts';
import { PayframeError } from '../../errors.ts';
import { isUserRole, roleTitle, type UserRole } from '../user-roles.ts';

export interface TeamMember {
  id: string;
  username: string;
  email: string | null;
  role: UserRole;
  secondFactorEnrolled: boolean;
  disabled: boolean;
  locked: boolean;
  lastSignInAt: Date | null;
  createdAt: Date;
}

interface MemberRow {
  id: string;
  username: string;
  email: string | null;
  role: string;
  totp_enrolled_at: Date | null;
  disabled_at: Date | null;
  locked_until: Date | null;
  last_login_at: Date | null;
  created_at: Date;
}

const MEMBER_COLUMNS =
  'id, username, email, role, totp_enrolled_at, disabled_at, locked_until, last_login_at, created_at';

const roleOf = (role: string): UserRole => (isUserRole(role) ? role : 'viewer');

function memberOf(r: MemberRow, now: Date): TeamMember {
  return {
    id: String(r.id),
    username: r.username,
    email: r.email,
    role: roleOf(r.role),
    secondFactorEnrolled: r.totp_enrolled_at !== null,
    disabled: r.disabled_at !== null,
    locked: r.locked_until !== null && r.locked_until.getTime() > now.getTime(),
    lastSignInAt: r.last_login_at,
    createdAt: r.created_at,
  };
}

/** The merchant's users, by user name. */
export async function listMembers(q: Queryable, merchantId: string, now: Date): Promise<TeamMember[]> {
  const { rows } = await q.query<MemberRow>(
    `select ${MEMBER_COLUMNS} from merchant_users where merchant_id = $1 order by lower(username), id`,
    [merchantId],
  );
  return rows.map((r) => memberOf(r, now));
}

export const LAST_OWNER =
  'This is the last Owner of the account: it keeps the Owner role and stays enabled. Make another user an Owner first.';
export const NOT_YOURSELF_DISABLE =
  'You cannot disable your own user. Another Owner can, if that is what you want.';
export const NOT_YOURSELF_RESET =
  'You cannot reset your own second factor here. Another Owner can; or sign in with a recovery code.';
export const NO_SUCH_USER = 'Your account has no such user.';
export const NO_LONGER_OWNER = 'Only an enabled Owner of the account changes its team.';

export type TeamChange =
  | { kind: 'role'; role: UserRole }
  | { kind: 'disable' }
  | { kind: 'enable' }
  | { kind: 'reset-second-factor' };

/**
 * Applies one change of an Owner (`actorId`) to a user of its merchant, under the last-owner rule.
 * Throws `forbidden` (NO_LONGER_OWNER) unless the actor is, under the lock, still an enabled
 * Owner; `not_found` for a user of another merchant or none; `conflict` (LAST_OWNER) when it would
 * leave the merchant without an enabled owner; `invalid_request` when an Owner would disable or
 * reset itself. Resolves to the user as it is now.
 */
export async function changeMember(
  db: Database,
  merchantId: string,
  actorId: string,
  targetId: string,
  change: TeamChange,
  now: Date,
): Promise<TeamMember> {
  return db.transaction(async (tx) => {
    // Every user of the merchant, locked in id order: concurrent changes of one team take turns,
    // and each reads the others' committed outcome (rows locked are re-read at their newest).
    const { rows } = await tx.query<MemberRow>(
      `select ${MEMBER_COLUMNS} from merchant_users where merchant_id = $1 order by id for update`,
      [merchantId],
    );
    // The actor's own row, read under the same lock: an Owner demoted or disabled by a concurrent
    // change (its session checked before this transaction) no longer changes the team.
    const actor = rows.find((r) => String(r.id) === actorId);
    if (!actor || actor.role !== 'owner' || actor.disabled_at !== null) {
      throw new PayframeError('forbidden', NO_LONGER_OWNER);
    }
    const target = rows.find((r) => String(r.id) === targetId);
    if (!target) throw new PayframeError('not_found', NO_SUCH_USER);
    const enabledOwners = rows.filter((r) => r.role === 'owner' && r.disabled_at === null);
    const isLastOwner = target.role === 'owner' && target.disabled_at === null && enabledOwners.length <= 1;
    const self = targetId === actorId;

    switch (change.kind) {
      case 'role':
        if (isLastOwner && change.role !== 'owner') throw new PayframeError('conflict', LAST_OWNER);
        await tx.query('update merchant_users set role = $2 where id = $1', [targetId, change.role]);
        if (target.role === 'owner' && change.role !== 'owner')
          await revokeInvitationsSent(tx, targetId, now);
        break;
      case 'disable':
        if (self) throw new PayframeError('invalid_request', NOT_YOURSELF_DISABLE);
        if (isLastOwner) throw new PayframeError('conflict', LAST_OWNER);
        await tx.query('update merchant_users set disabled_at = coalesce(disabled_at, $2) where id = $1', [
          targetId,
          now,
        ]);
        await endSessions(tx, targetId, now);
        await revokeInvitationsSent(tx, targetId, now);
        break;
      case 'enable':
        await tx.query('update merchant_users set disabled_at = null where id = $1', [targetId]);
        break;
      case 'reset-second-factor':
        if (self) throw new PayframeError('invalid_request', NOT_YOURSELF_RESET);
        await tx.query(
          `update merchant_users set totp_secret_enc = null, totp_enrolled_at = null, totp_last_step = null
           where id = $1`,
          [targetId],
        );
        await tx.query('delete from user_recovery_codes where user_id = $1', [targetId]);
        await endSessions(tx, targetId, now);
        break;
    }
    const after = await tx.query<MemberRow>(`select ${MEMBER_COLUMNS} from merchant_users where id = $1`, [
      targetId,
    ]);
    return memberOf(after.rows[0]!, now);
  });
}

async function endSessions(q: Queryable, userId: string, now: Date): Promise<void> {
  await q.query('update login_sessions set ended_at = $2 where user_id = $1 and ended_at is null', [
    userId,
    now,
  ]);
}

/** The invitations a user sent and still pending, revoked: its authority ended with its role. */
async function revokeInvitationsSent(q: Queryable, userId: string, now: Date): Promise<void> {
  await q.query(
    `update user_invitations set revoked_at = $2
     where invited_by = $1 and accepted_at is null and revoked_at is null`,
    [userId, now],
  );
}

/** "Owner", "Staff": a role as the answers name it. */
export const roleName = (role: UserRole): string => roleTitle(role);
