/**
 * Invitations to a merchant's team (issue 16; docs/dashboard.md "Team"), as password reset links
 * are made (password-reset.ts): a link `${PUBLIC_URL}/dashboard/invite#iv_…` carries a 256-bit
 * random token, stored only as its SHA-256 digest. The token is in the fragment, so it never reaches
 * a server's request log or a Referer. It works once, for 72 hours, unless revoked; a new invitation
 * to the same e-mail replaces the merchant's pending one; at most 20 are made per merchant per hour
 * (no mail bombing from a dashboard).
 *
 * Accepting spends the token and makes the user in one transaction: of two concurrent acceptances
 * one makes the user, the other finds the link used. A user name that is taken or a weak password
 * refuses the acceptance before anything is spent, so the invitee tries again with the same link.
 */
import crypto from 'node:crypto';
import type { Database, Queryable } from '../../db/database.ts';
import { PayframeError } from '../../errors.ts';
import { isUserRole, type UserRole } from '../user-roles.ts';
import { createUser, passwordProblem, tokenHash } from './user-store.ts';

export const INVITATION_HOURS = 72;
export const MAX_INVITATIONS_PER_HOUR = 20;
const TOKEN = /^iv_[A-Za-z0-9_-]{43}$/;
const EMAIL = /^[^\s@<>()[\],;:"\\]{1,64}@[^\s@<>()[\],;:"\\]+\.[^\s@<>()[\],;:"\\]+$/;

/** One answer for a token that is unknown, used, revoked or expired: the link does not say which. */
export const INVITATION_UNUSABLE =
  'This invitation link cannot be used: it is not complete, was used or revoked, or has expired. Ask the person who invited you for a new one.';

export interface Invitation {
  id: string;
  merchantId: string;
  merchantName: string;
  email: string;
  role: UserRole;
  invitedBy: string | null;
  createdAt: Date;
  expiresAt: Date;
}

interface InvitationRow {
  id: string;
  merchant_id: string;
  merchant_name: string;
  email: string;
  role: string;
  invited_by_name: string | null;
  created_at: Date;
  expires_at: Date;
}

const invitationOf = (r: InvitationRow): Invitation => ({
  id: String(r.id),
  merchantId: String(r.merchant_id),
  merchantName: r.merchant_name,
  email: r.email,
  role: isUserRole(r.role) ? r.role : 'viewer',
  invitedBy: r.invited_by_name,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});

const SELECT = `select i.id, i.merchant_id, m.name as merchant_name, i.email, i.role,
    u.username as invited_by_name, i.created_at, i.expires_at
  from user_invitations i join merchants m on m.id = i.merchant_id
  left join merchant_users u on u.id = i.invited_by`;

const PENDING = 'i.accepted_at is null and i.revoked_at is null and i.expires_at > $2';

/** The merchant's invitations that can still be accepted, newest first. */
export async function pendingInvitations(q: Queryable, merchantId: string, now: Date): Promise<Invitation[]> {
  const { rows } = await q.query<InvitationRow>(
    `${SELECT} where i.merchant_id = $1 and ${PENDING} order by i.id desc`,
    [merchantId, now],
  );
  return rows.map(invitationOf);
}

export interface NewInvitation {
  merchantId: string;
  email: string;
  role: UserRole;
  /** The Owner who sends it. */
  invitedBy: string;
}

/** The e-mail address as invitations keep it, or a `validation_failed` naming the field. */
export function invitationEmail(email: string | undefined): string {
  const e = email?.trim() ?? '';
  if (!e || e.length > 254 || !EMAIL.test(e)) {
    const message = 'Give the e-mail address of the person to invite.';
    throw new PayframeError('validation_failed', message, [{ field: 'email', code: 'invalid', message }]);
  }
  return e;
}

/**
 * A new invitation and its token (answered once, to be e-mailed). Refuses an address that an
 * enabled user of the merchant has, and a merchant that sent 20 in the last hour (`rate_limited`).
 */
export async function createInvitation(
  db: Database,
  input: NewInvitation,
  now: Date,
): Promise<{ invitation: Invitation; token: string }> {
  const email = invitationEmail(input.email);
  const token = `iv_${crypto.randomBytes(32).toString('base64url')}`;
  const id = await db.transaction(async (tx) => {
    // One invitation at a time per merchant, so the hourly count holds under concurrency.
    await tx.query('select id from merchants where id = $1 for no key update', [input.merchantId]);
    const taken = await tx.query(
      `select 1 from merchant_users where merchant_id = $1 and lower(email) = lower($2) and disabled_at is null`,
      [input.merchantId, email],
    );
    if (taken.rows.length > 0) {
      const message = 'A user of your account already has this e-mail address.';
      throw new PayframeError('validation_failed', message, [{ field: 'email', code: 'taken', message }]);
    }
    const { rows } = await tx.query<{ n: string }>(
      `select count(*) as n from user_invitations
       where merchant_id = $1 and created_at > $2::timestamptz - interval '1 hour'`,
      [input.merchantId, now],
    );
    if (Number(rows[0]?.n ?? 0) >= MAX_INVITATIONS_PER_HOUR) {
      throw new PayframeError(
        'rate_limited',
        `Your account sent ${MAX_INVITATIONS_PER_HOUR} invitations in the last hour. Wait, then try again.`,
        undefined,
        { retryAfterSeconds: 3600 },
      );
    }
    // The newest invitation to an address is the one that works.
    await tx.query(
      `update user_invitations set revoked_at = $3
       where merchant_id = $1 and lower(email) = lower($2) and accepted_at is null and revoked_at is null`,
      [input.merchantId, email, now],
    );
    const inserted = await tx.query<{ id: string }>(
      `insert into user_invitations (merchant_id, token_hash, email, role, invited_by, expires_at, created_at)
       values ($1, $2, $3, $4, $5, $6, $7) returning id`,
      [
        input.merchantId,
        tokenHash(token),
        email,
        input.role,
        input.invitedBy,
        new Date(now.getTime() + INVITATION_HOURS * 3600_000),
        now,
      ],
    );
    return String(inserted.rows[0]!.id);
  });
  const { rows } = await db.query<InvitationRow>(`${SELECT} where i.id = $1`, [id]);
  return { invitation: invitationOf(rows[0]!), token };
}

/** Revokes a pending invitation of the merchant; false when it has none by that id. */
export async function revokeInvitation(
  q: Queryable,
  merchantId: string,
  invitationId: string,
  now: Date,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `update user_invitations i set revoked_at = $2
     where i.id = $3 and i.merchant_id = $1 and ${PENDING}`,
    [merchantId, now, invitationId],
  );
  return rowCount === 1;
}

/** The invitation a token names, while it can be accepted; null otherwise (whatever the reason). */
export async function usableInvitation(q: Queryable, token: string, now: Date): Promise<Invitation | null> {
  if (!TOKEN.test(token)) return null;
  const { rows } = await q.query<InvitationRow>(
    `${SELECT} where i.token_hash = $1 and ${PENDING} and m.disabled_at is null`,
    [tokenHash(token), now],
  );
  return rows[0] ? invitationOf(rows[0]) : null;
}

/**
 * Accepts an invitation once: the user is made with the invitation's merchant, e-mail and role and
 * the chosen user name and password, in the transaction that marks the invitation accepted.
 * Throws `validation_failed` (a weak password, a user name that is taken or malformed) with the
 * link still usable; `invalid_request` (INVITATION_UNUSABLE) when the link cannot be used.
 */
export async function acceptInvitation(
  db: Database,
  token: string,
  username: string,
  password: string,
  now: Date,
): Promise<{ userId: string; invitation: Invitation }> {
  const weak = passwordProblem(password);
  if (weak) throw new PayframeError('validation_failed', weak.message, [weak]);
  const invitation = await usableInvitation(db, token, now);
  if (!invitation) throw new PayframeError('invalid_request', INVITATION_UNUSABLE);
  return db.transaction(async (tx) => {
    // Spends the token: of two concurrent acceptances, one updates the row, the other finds none.
    const { rows } = await tx.query<{ id: string }>(
      `update user_invitations i set accepted_at = $2
       where i.token_hash = $1 and ${PENDING} returning i.id`,
      [tokenHash(token), now],
    );
    if (!rows[0]) throw new PayframeError('invalid_request', INVITATION_UNUSABLE);
    const user = await createUser(tx, {
      merchantId: invitation.merchantId,
      username,
      password,
      email: invitation.email,
      role: invitation.role,
    });
    await tx.query('update user_invitations set accepted_user_id = $2 where id = $1', [
      invitation.id,
      user.id,
    ]);
    return { userId: user.id, invitation };
  });
}
