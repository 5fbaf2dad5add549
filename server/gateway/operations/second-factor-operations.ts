/**
 * A merchant user's own session (the dashboard, issue 15): who is signed in, the second factor's
 * enrolment and verification, signing out. The caller is the user's Login session token
 * (`Authorization: Bearer ls_…`, auth.ts); these four answer before the second factor is verified,
 * everything else only after (principal.ts `user`).
 */
import type { OperationParams, OperationResult } from '../../../shared/contract/service.ts';
import type { SecondFactorState } from '../../../shared/contract/extensions.ts';
import { PayframeError } from '../../errors.ts';
import { bearerToken } from '../../http/authorization.ts';
import type { GatewayCall, GatewayDeps } from '../gateway-call.ts';
import type { SignedInUser } from '../port.ts';
import { type AuditEvent, recordAudit, userResource } from '../users/audit.ts';
import { endSession, endUserSessions, useSession, verifySession } from '../users/login-sessions.ts';
import {
  acceptTotp,
  beginEnrolment,
  isRecoveryCodeShape,
  newRecoveryCodes,
  secondFactorOf,
  useRecoveryCode,
} from '../users/second-factor.ts';
import { otpAuthUri } from '../users/totp.ts';
import { recordFailedLogin, recordSuccessfulLogin } from '../users/user-store.ts';

export const CODE_INVALID = 'The code is not valid. Try the current code from your authenticator app.';
export const CODE_VERIFIED = 'Verified.';
/** The issuer an authenticator app shows beside the account. */
const ISSUER = 'Payframe';

function signedInUser(call: GatewayCall): SignedInUser {
  const p = call.principal;
  if ((p.kind === 'merchant' || p.kind === 'user') && p.user) return p.user;
  throw new PayframeError('forbidden', "This operation is for a merchant user's own session.");
}

/** The session as the authentication found it a moment ago (a second read also refreshes it). */
async function sessionOf(call: GatewayCall, deps: GatewayDeps) {
  const token = bearerToken(call.context.authorization) ?? '';
  const session = await useSession(deps.db, token, deps.now(), deps.userIdleMinutes);
  if (!session) throw new PayframeError('unauthorized');
  return session;
}

async function merchantNameOf(deps: GatewayDeps, merchantId: string): Promise<string | undefined> {
  const { rows } = await deps.db.query<{ name: string }>('select name from merchants where id = $1', [
    merchantId,
  ]);
  return rows[0]?.name;
}

export async function getUserSession(
  _params: OperationParams<'GetUserSession'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'GetUserSession'>> {
  signedInUser(call);
  const session = await sessionOf(call, deps);
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
    ExpiresAt: session.expiresAt.toISOString(),
    IdleExpiresAt: session.idleExpiresAt.toISOString(),
  };
}

export async function beginSecondFactorEnrolment(
  _params: OperationParams<'BeginSecondFactorEnrolment'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'BeginSecondFactorEnrolment'>> {
  const user = signedInUser(call);
  const setupKey = await beginEnrolment(deps.db, deps.secrets, user.userId);
  if (!setupKey) {
    throw new PayframeError('conflict', 'A second factor is already set up for this user.');
  }
  const session = await sessionOf(call, deps);
  const merchantName = await merchantNameOf(deps, session.merchantId);
  const issuer = merchantName ? `${ISSUER} (${merchantName})` : ISSUER;
  return { SetupKey: setupKey, OtpAuthUri: otpAuthUri(issuer, user.userName, setupKey) };
}

/**
 * A TOTP code (six digits) or a recovery code for the caller's session. Right: the session is
 * verified, the failure count cleared, and an enrolment answers the ten recovery codes. Wrong: a
 * failed sign-in; the tenth in a row locks the user and ends its sessions.
 */
export async function verifySecondFactor(
  params: OperationParams<'VerifySecondFactor'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'VerifySecondFactor'>> {
  const user = signedInUser(call);
  const now = deps.now();
  const code = (params.code ?? '').trim();
  const row = await secondFactorOf(deps.db, user.userId);
  if (!row) throw new PayframeError('unauthorized');
  const enrolling = row.totp_enrolled_at === null;
  const audit = {
    actor: userResource(user.userId),
    resource: userResource(user.userId),
    origin: call.context.remoteAddress,
    at: now,
  } satisfies Partial<AuditEvent>;

  const byRecovery = !enrolling && isRecoveryCodeShape(code);
  const accepted = byRecovery
    ? await useRecoveryCode(deps.db, user.userId, code, now)
    : await acceptTotp(deps.db, deps.secrets, user.userId, row, code.replace(/\s/g, ''), now);

  if (!accepted || !(await recordSuccessfulLogin(deps.db, user.userId, now))) {
    const locked = accepted ? true : await recordFailedLogin(deps.db, user.userId, now);
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
  await verifySession(deps.db, user.sessionId, now);
  const recoveryCodes = enrolling ? await newRecoveryCodes(deps.db, user.userId, now) : undefined;
  await recordAudit(deps.db, {
    ...audit,
    action: enrolling ? 'user.second_factor_enrolled' : 'user.second_factor',
    outcome: 'success',
    detail: { method: byRecovery ? 'recovery_code' : 'totp' },
  });
  return {
    Verified: true,
    Message: CODE_VERIFIED,
    ...(recoveryCodes ? { RecoveryCodes: recoveryCodes } : {}),
  };
}

export async function endUserSession(
  _params: OperationParams<'EndUserSession'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'EndUserSession'>> {
  const user = signedInUser(call);
  const now = deps.now();
  await endSession(deps.db, user.sessionId, now);
  await recordAudit(deps.db, {
    actor: userResource(user.userId),
    action: 'user.logout',
    resource: userResource(user.userId),
    outcome: 'success',
    origin: call.context.remoteAddress,
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
