/**
 * A merchant user's own session (the dashboard, issue 15): who is signed in, the second factor's
 * enrolment and verification, signing out. The caller is the user's Login session token
 * (`Authorization: Bearer ls_…`, auth.ts); these four answer before the second factor is verified,
 * everything else only after (principal.ts `user`).
 */
import type { SecondFactorState, UserRole as ContractUserRole } from '../../../shared/contract/extensions.ts';
import type { OperationParams, OperationResult } from '../../../shared/contract/service.ts';
import { PayframeError } from '../../errors.ts';
import type { GatewayCall, GatewayDeps } from '../gateway-call.ts';
import type { SignedInUser } from '../port.ts';
import { type AuditEvent, recordAudit, userResource } from '../users/audit.ts';
import { endSession, endUserSessions, type SessionState, verifySession } from '../users/login-sessions.ts';
import {
  acceptTotp,
  beginEnrolment,
  isRecoveryCodeShape,
  newRecoveryCodes,
  secondFactorOf,
  useRecoveryCode,
} from '../users/second-factor.ts';
import { otpAuthUri } from '../users/totp.ts';
import type { UserRole } from '../user-roles.ts';
import { recordFailedLogin, recordSuccessfulLogin } from '../users/user-store.ts';

export const CODE_INVALID = 'The code is not valid. Try the current code from your authenticator app.';
export const CODE_VERIFIED = 'Verified.';
/** The issuer an authenticator app shows beside the account. */
const ISSUER = 'Payframe';

const USER_ROLE: Record<UserRole, ContractUserRole> = {
  owner: 'Owner',
  admin: 'Admin',
  staff: 'Staff',
  viewer: 'Viewer',
};

/** The caller's session: authorizeOperation let only a signed-in user's through (principal.ts). */
function sessionOf(call: GatewayCall): { user: SignedInUser; session: SessionState } {
  const session = call.session;
  if (!session) throw new PayframeError('forbidden', "This operation is for a merchant user's own session.");
  return { user: session.principal.user, session };
}

export async function getUserSession(
  _params: OperationParams<'GetUserSession'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'GetUserSession'>> {
  const { user, session } = sessionOf(call);
  const { rows } = await deps.db.query<{ username: string; email: string | null; name: string }>(
    `select u.username, u.email, m.name from merchant_users u join merchants m on m.id = u.merchant_id
     where u.id = $1`,
    [session.userId],
  );
  const r = rows[0];
  const state: SecondFactorState = session.secondFactorVerified
    ? 'Verified'
    : session.enrolled
      ? 'Required'
      : 'EnrolmentRequired';
  return {
    UserName: r?.username,
    Email: r?.email ?? undefined,
    MerchantID: session.merchantId,
    MerchantName: r?.name,
    SecondFactor: state,
    Role: USER_ROLE[user.role],
    ExpiresAt: session.expiresAt.toISOString(),
    IdleExpiresAt: session.idleExpiresAt.toISOString(),
  };
}

export async function beginSecondFactorEnrolment(
  _params: OperationParams<'BeginSecondFactorEnrolment'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'BeginSecondFactorEnrolment'>> {
  const { user, session } = sessionOf(call);
  const setupKey = await beginEnrolment(deps.db, deps.secrets, user.userId, user.sessionId);
  if (!setupKey) {
    throw new PayframeError('conflict', 'A second factor is already set up for this user.');
  }
  const { rows } = await deps.db.query<{ name: string }>('select name from merchants where id = $1', [
    session.merchantId,
  ]);
  const issuer = rows[0] ? `${ISSUER} (${rows[0].name})` : ISSUER;
  return { SetupKey: setupKey, OtpAuthUri: otpAuthUri(issuer, user.userName, setupKey) };
}

/** Thrown inside the verification's transaction to roll it back: the user is locked. */
class LockedWhileVerifying extends Error {}

/**
 * A TOTP code (six digits) or a recovery code for the caller's session. Right: in one transaction
 * the code is spent, the failure count cleared, the session verified and, for an enrolment, the ten
 * recovery codes made — or, when the user is locked meanwhile, none of it. Wrong: a failed sign-in;
 * the tenth in a row locks the user and ends its sessions.
 */
export async function verifySecondFactor(
  params: OperationParams<'VerifySecondFactor'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'VerifySecondFactor'>> {
  const { user } = sessionOf(call);
  const now = deps.now();
  const code = (params.code ?? '').trim();
  const row = await secondFactorOf(deps.db, user.userId, user.sessionId);
  if (!row) throw new PayframeError('unauthorized');
  const enrolling = row.totp_enrolled_at === null;
  const byRecovery = !enrolling && isRecoveryCodeShape(code);
  const audit = {
    actor: userResource(user.userId),
    resource: userResource(user.userId),
    origin: call.clientAddress,
    at: now,
  } satisfies Partial<AuditEvent>;

  let verified: { recoveryCodes?: string[] } | null;
  let locked = false;
  try {
    verified = await deps.db.transaction(async (tx) => {
      const accepted = byRecovery
        ? await useRecoveryCode(tx, user.userId, code, now)
        : await acceptTotp(tx, deps.secrets, user.userId, row, code.replace(/\s/g, ''), now);
      if (!accepted) return null;
      if (!(await recordSuccessfulLogin(tx, user.userId, now))) throw new LockedWhileVerifying();
      await verifySession(tx, user.sessionId, now);
      return enrolling ? { recoveryCodes: await newRecoveryCodes(tx, user.userId, now) } : {};
    });
  } catch (err) {
    if (!(err instanceof LockedWhileVerifying)) throw err;
    verified = null;
    locked = true;
  }

  if (!verified) {
    locked ||= await recordFailedLogin(deps.db, user.userId, now);
    await recordAudit(deps.db, {
      ...audit,
      action: 'user.second_factor',
      outcome: 'failure',
      detail: { reason: locked ? 'locked' : 'code' },
    });
    if (locked) {
      await endUserSessions(deps.db, user.userId, now);
      await recordAudit(deps.db, { ...audit, action: 'user.locked', outcome: 'info' });
      call.context.log.warn({ user: user.userId }, 'merchant user locked after repeated failed codes');
    }
    return { Verified: false, Message: CODE_INVALID };
  }
  await recordAudit(deps.db, {
    ...audit,
    action: enrolling ? 'user.second_factor_enrolled' : 'user.second_factor',
    outcome: 'success',
    detail: { method: byRecovery ? 'recovery_code' : 'totp' },
  });
  return {
    Verified: true,
    Message: CODE_VERIFIED,
    ...(verified.recoveryCodes ? { RecoveryCodes: verified.recoveryCodes } : {}),
  };
}

export async function endUserSession(
  _params: OperationParams<'EndUserSession'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'EndUserSession'>> {
  const { user } = sessionOf(call);
  const now = deps.now();
  await endSession(deps.db, user.sessionId, now);
  await recordAudit(deps.db, {
    actor: userResource(user.userId),
    action: 'user.logout',
    resource: userResource(user.userId),
    outcome: 'success',
    origin: call.clientAddress,
    at: now,
  });
  return { Status: true, Message: 'Signed out.' };
}

export const SECOND_FACTOR_HANDLERS = {
  GetUserSession: getUserSession,
  BeginSecondFactorEnrolment: beginSecondFactorEnrolment,
  VerifySecondFactor: verifySecondFactor,
  EndUserSession: endUserSession,
};
