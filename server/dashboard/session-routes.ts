/**
 * Signing in and out of the dashboard (issue 15 "Signing in"), through the gateway's own
 * operations: Login (public, with its lock-out and throttles), GetUserSession, the second factor
 * (BeginSecondFactorEnrolment, VerifySecondFactor), EndUserSession and ForgotPassword.
 *
 *   POST /sign-in                  {username, password} → {secondFactor} + a new session cookie
 *   GET  /session                  → who, which merchant, the role, the second factor, the session's ends
 *   POST /second-factor/enrolment  → {setupKey, otpauthUri, qrSvg}
 *   POST /second-factor/verify     {code} → {recoveryCodes?}; 400 invalid_code
 *   POST /sign-out                 → 204, the cookie cleared
 *   POST /forgot-password          {username, email} → {message}
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseOr400 } from '../checkout/field-errors.ts';
import { PayframeError } from '../errors.ts';
import { qrSvg } from './qr.ts';
import { anonymousContext, bearerContext, type DashboardDeps, signedIn } from './user-context.ts';

const SignInBody = z.strictObject({
  username: z.string().max(100),
  password: z.string().max(256),
});

const ForgotPasswordBody = z.strictObject({
  username: z.string().max(100),
  email: z.string().max(254),
});

const VerifyBody = z.strictObject({
  // Six digits, or a recovery code as printed (with or without its dash): the gateway decides.
  code: z.string().trim().min(1, 'code must not be empty.').max(32),
});

const EmptyBody = z.strictObject({});

/** One answer for every failed sign-in: unknown user, wrong password, locked (PCI DSS 8.3). */
const SIGN_IN_FAILED = 'sign_in_failed';

async function signIn(deps: DashboardDeps, request: FastifyRequest, reply: FastifyReply) {
  const body = parseOr400(SignInBody, request.body);
  const port = deps.checkout.port;
  const result = await port.Login(
    { loginRequest: { UserName: body.username, Password: body.password, ProfileInfo: false } },
    anonymousContext(deps, request),
  );
  if (!result.Status || !result.Data) throw new PayframeError(SIGN_IN_FAILED);
  const token = result.Data;
  // A session the browser held before is ended: each sign-in has a token of its own (no fixation).
  const previous = deps.cookie.read(request);
  if (previous !== null && previous !== token) {
    await port.EndUserSession({}, bearerContext(deps, request, previous)).catch(() => undefined);
  }
  const session = await port.GetUserSession({}, bearerContext(deps, request, token));
  deps.cookie.set(reply, token, new Date(session.ExpiresAt), deps.checkout.now());
  return { secondFactor: session.SecondFactor };
}

async function readSession(deps: DashboardDeps, request: FastifyRequest) {
  const { context } = signedIn(deps, request);
  const s = await deps.checkout.port.GetUserSession({}, context);
  return {
    user: { name: s.UserName ?? '', email: s.Email ?? null },
    merchant: { id: s.MerchantID, name: s.MerchantName ?? '' },
    secondFactor: s.SecondFactor,
    role: s.Role, // what the page offers; the gateway refuses the rest whatever the page shows
    expiresAt: new Date(s.ExpiresAt).toISOString(),
    idleExpiresAt: new Date(s.IdleExpiresAt).toISOString(),
  };
}

async function beginEnrolment(deps: DashboardDeps, request: FastifyRequest) {
  const { context } = signedIn(deps, request);
  parseOr400(EmptyBody, request.body);
  const setup = await deps.checkout.port.BeginSecondFactorEnrolment({}, context);
  const uri = setup.OtpAuthUri ?? '';
  return { setupKey: setup.SetupKey ?? '', otpauthUri: uri, qrSvg: await qrSvg(uri) };
}

async function verify(deps: DashboardDeps, request: FastifyRequest) {
  const { context } = signedIn(deps, request);
  const body = parseOr400(VerifyBody, request.body);
  const result = await deps.checkout.port.VerifySecondFactor({ code: body.code }, context);
  if (!result.Verified) throw new PayframeError('invalid_code');
  const codes = result.RecoveryCodes ?? [];
  return codes.length > 0 ? { recoveryCodes: codes } : {};
}

async function signOut(deps: DashboardDeps, request: FastifyRequest, reply: FastifyReply) {
  const { context } = signedIn(deps, request);
  parseOr400(EmptyBody, request.body);
  await deps.checkout.port.EndUserSession({}, context);
  deps.cookie.clear(reply);
  return reply.code(204).send();
}

async function forgotPassword(deps: DashboardDeps, request: FastifyRequest) {
  const body = parseOr400(ForgotPasswordBody, request.body);
  const result = await deps.checkout.port.ForgotPassword(
    { request: { UserName: body.username, Email: body.email } },
    anonymousContext(deps, request),
  );
  return { message: result.Message ?? '' };
}

export async function sessionRoutes(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  app.post('/sign-in', (request, reply) => signIn(deps, request, reply));
  app.get('/session', (request) => readSession(deps, request));
  app.post('/second-factor/enrolment', (request) => beginEnrolment(deps, request));
  app.post('/second-factor/verify', (request) => verify(deps, request));
  app.post('/sign-out', (request, reply) => signOut(deps, request, reply));
  app.post('/forgot-password', (request) => forgotPassword(deps, request));
}
