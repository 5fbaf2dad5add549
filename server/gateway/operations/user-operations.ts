/**
 * Login and ForgotPassword (DESIGN.md "What the spec leaves open"; docs/gateway-users.md). Both are
 * public: the caller may be anonymous.
 *
 * Login answers one message for every failure — unknown user, wrong password, locked user —, and
 * costs one scrypt verification in every case, so neither the answer nor its time tells whether a
 * user exists. Data holds an opaque session token, or with ProfileInfo a JSON document:
 *   {"token":"ls_…","expiresAt":"…Z","profile":{"userName","email","merchantId","merchantName"}}
 *
 * ForgotPassword answers the same Status and Message whether or not the user exists and the e-mail
 * matches; when both match, the reset link is made and sent after the answer (Notifier.sendLater),
 * so the answer's time does not depend on it either.
 */

import type { OperationParams, OperationResult } from '../../../shared/contract/service.ts';
import { PayframeError } from '../../errors.ts';
import type { NotificationMessage } from '../../notify/notifier.ts';
import { recordFailure, throttledFor } from '../auth.ts';
import type { GatewayCall, GatewayDeps } from '../gateway-call.ts';
import { escapeHtml } from '../three-ds/three-ds-page.ts';
import { recordAudit, userResource } from '../users/audit.ts';
import { dummyHash, verifyPassword } from '../users/password-hash.ts';
import { createResetToken, RESET_MINUTES } from '../users/password-reset.ts';
import {
  createLoginSession,
  findUserByName,
  isLocked,
  type MerchantUser,
  PASSWORD_MAX_LENGTH,
  recordFailedLogin,
  recordSuccessfulLogin,
} from '../users/user-store.ts';

export const LOGIN_FAILED = 'Invalid user name or password.';
export const LOGIN_OK = 'Signed in.';
export const FORGOT_PASSWORD_SENT =
  'If the user name and e-mail address match a user, a password reset link has been sent to that e-mail address.';
export const FORGOT_PASSWORD_MISSING = 'Give both your user name and your e-mail address.';

/** The profile Login returns in Data (as JSON, with the token) when ProfileInfo is true. */
export interface LoginProfile {
  userName: string;
  email: string | null;
  merchantId: string;
  merchantName: string;
}

/**
 * Failed Logins allowed from one address in the throttle window (auth.ts) before that address is
 * refused with 429: the per-user lock-out alone would let one address try a password on many users.
 */
export const LOGIN_FAILURES_PER_ADDRESS = 30;

export async function login(
  params: OperationParams<'Login'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'Login'>> {
  const subject = `login:${call.clientAddress}`;
  const wait = await throttledFor(deps.db, subject, deps.now(), LOGIN_FAILURES_PER_ADDRESS);
  if (wait > 0) {
    throw new PayframeError(
      'rate_limited',
      'Too many failed sign-ins. Please wait and try again.',
      undefined,
      {
        retryAfterSeconds: wait,
      },
    );
  }
  const result = await attemptLogin(params, call, deps);
  if (!result.Status) await recordFailure(deps.db, subject, deps.now());
  return result;
}

async function attemptLogin(
  params: OperationParams<'Login'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'Login'>> {
  const r = params.loginRequest;
  const userName = r?.UserName?.trim() ?? '';
  const password = r?.Password ?? '';
  const now = deps.now();
  const origin = call.clientAddress;
  const failed = { Status: false, Message: LOGIN_FAILED };

  const user = userName && userName.length <= 100 ? await findUserByName(deps.db, userName) : null;
  // The same scrypt work whatever happens next (an over-long password is cut for hashing only).
  // The dummy hash is awaited on every path, so making it on first use costs every path alike.
  const dummy = await dummyHash();
  const matches = await verifyPassword(password.slice(0, PASSWORD_MAX_LENGTH), user?.passwordHash ?? dummy);
  const ok = matches && !!user && password.length <= PASSWORD_MAX_LENGTH;

  if (!user) {
    await recordAudit(deps.db, {
      actor: 'anonymous',
      action: 'user.login',
      outcome: 'failure',
      origin,
      detail: { reason: 'unknown_user' },
      at: now,
    });
    return failed;
  }
  const audit = { actor: userResource(user.id), resource: userResource(user.id), origin, at: now };
  if (isLocked(user, now)) {
    // Not counted: the lock runs 30 minutes from the 10th failure, whatever is tried meanwhile.
    await recordAudit(deps.db, {
      ...audit,
      action: 'user.login',
      outcome: 'failure',
      detail: { reason: 'locked' },
    });
    return failed;
  }
  if (user.disabled) {
    // Disabled by an Owner: the same answer as any failure, not counted (no lock-out to add).
    await recordAudit(deps.db, {
      ...audit,
      action: 'user.login',
      outcome: 'failure',
      detail: { reason: 'disabled' },
    });
    return failed;
  }
  if (!ok) {
    const locked = await recordFailedLogin(deps.db, user.id, now);
    await recordAudit(deps.db, {
      ...audit,
      action: 'user.login',
      outcome: 'failure',
      detail: { reason: 'password' },
    });
    if (locked) {
      await recordAudit(deps.db, { ...audit, action: 'user.locked', outcome: 'info' });
      call.context.log.warn({ user: user.id }, 'merchant user locked after repeated failed sign-ins');
    }
    return failed;
  }
  if (!(await recordSuccessfulLogin(deps.db, user.id, now, true))) {
    await recordAudit(deps.db, {
      ...audit,
      action: 'user.login',
      outcome: 'failure',
      detail: { reason: 'locked' },
    });
    return failed;
  }
  const session = await createLoginSession(deps.db, user.id, now);
  await recordAudit(deps.db, { ...audit, action: 'user.login', outcome: 'success' });
  return { Status: true, Message: LOGIN_OK, Data: loginData(user, session, r?.ProfileInfo === true) };
}

function loginData(
  user: MerchantUser,
  session: { token: string; expiresAt: Date },
  withProfile: boolean,
): string {
  if (!withProfile) return session.token;
  const profile: LoginProfile = {
    userName: user.username,
    email: user.email,
    merchantId: user.merchantId,
    merchantName: user.merchantName,
  };
  return JSON.stringify({ token: session.token, expiresAt: session.expiresAt.toISOString(), profile });
}

export async function forgotPassword(
  params: OperationParams<'ForgotPassword'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'ForgotPassword'>> {
  const userName = params.request?.UserName?.trim() ?? '';
  const email = params.request?.Email?.trim() ?? '';
  if (!userName || !email) return { Status: false, Message: FORGOT_PASSWORD_MISSING };
  const now = deps.now();
  const user = userName.length <= 100 ? await findUserByName(deps.db, userName) : null;
  // A disabled user gets no link (a new password would not let it sign in); the answer is the same.
  const matched = !!user?.email && !user.disabled && user.email.toLowerCase() === email.toLowerCase();
  await recordAudit(deps.db, {
    actor: 'anonymous',
    action: 'user.password_reset_requested',
    resource: matched ? userResource(user.id) : null,
    outcome: 'info',
    origin: call.clientAddress,
    detail: { matched },
    at: now,
  });
  if (matched) {
    const log = call.context.log;
    deps.notifier.sendLater(
      async () => {
        const token = await createResetToken(deps.db, user.id, now);
        if (!token) {
          log.warn({ user: user.id }, 'password reset link not sent: hourly limit reached');
          return null;
        }
        return resetMessage(user, `${deps.publicUrl}/reset-password?token=${token}`);
      },
      (err) => log.error({ err, user: user.id }, 'password reset e-mail failed'),
      (delivery) => log.info({ user: user.id, delivery: delivery.transport }, 'password reset e-mail sent'),
    );
  }
  return { Status: true, Message: FORGOT_PASSWORD_SENT };
}

/** The reset e-mail: the link, its lifetime, and what to do if the request was not yours. */
export function resetMessage(user: MerchantUser, link: string): NotificationMessage & { to: string } {
  const lines = [
    `Someone asked to reset the password of the Payframe user ${user.username} (${user.merchantName}).`,
    `To choose a new password, open this link within ${RESET_MINUTES} minutes. It works once.`,
    link,
    'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  ];
  const html = [
    `<p>Someone asked to reset the password of the Payframe user <strong>${escapeHtml(user.username)}</strong> (${escapeHtml(user.merchantName)}).</p>`,
    `<p>To choose a new password, open this link within ${RESET_MINUTES} minutes. It works once.</p>`,
    `<p><a href="${escapeHtml(link)}">Choose a new password</a></p>`,
    '<p>If you did not ask for this, ignore this e-mail: your password stays as it is.</p>',
  ].join('\n');
  return {
    channel: 'email',
    to: user.email ?? '',
    subject: 'Reset your Payframe password',
    text: `${lines.join('\n\n')}\n`,
    html,
    purpose: 'password_reset',
  };
}
