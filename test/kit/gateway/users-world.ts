/**
 * Test support for the merchant-user tests (Login, ForgotPassword, the reset page): the real app on
 * a test database, served by a gateway whose clock the test can move,
 * plus the reset routes on an app of their own (same database, same clock), and one merchant user.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { TransactionService } from '../../../shared/contract/service.ts';
import { registerErrorHandling } from '../../../server/http/error-handler.ts';
import { listOutbox } from '../../../server/notify/outbox.ts';
import type { CallContext } from '../../../server/gateway/port.ts';
import { buildTestApp } from '../app.ts';
import type { DatabaseTarget } from '../databases.ts';
import { createGateway } from '../../../server/gateway/gateway.ts';
import type { GatewayDeps } from '../../../server/gateway/gateway-call.ts';
import { passwordResetRoutes } from '../../../server/gateway/users/password-reset-routes.ts';
import { createUser } from '../../../server/gateway/users/user-store.ts';
import type { UserRole } from '../../../server/gateway/user-roles.ts';
import { createMerchant, type GatewayWorld } from './gateway-kit.ts';
import { soapCall } from './soap-call.ts';

export const PUBLIC_URL = 'https://pay.example.test';
export const ANN = {
  username: 'Ann.Admin',
  password: 'correct horse 42 battery',
  email: 'ann@alpha.example',
};

export interface UsersWorld extends GatewayWorld {
  deps: GatewayDeps;
  clock: { now: Date };
  /** An app with only the password reset routes, on the same database and clock. */
  routes: FastifyInstance;
  /** Moves the clock by `minutes`. */
  advance(minutes: number): void;
  /** Login through SOAP 1.1, anonymously. */
  login(userName: string, password: string, profileInfo?: boolean): Promise<LoginResult>;
  forgotPassword(userName: string, email: string): Promise<{ result: unknown; body: string }>;
  /** The reset token in the newest message to `to` in the dev outbox (after pending sends). */
  resetTokenSentTo(to: string): Promise<string | undefined>;
  /** A user of merchant a, an owner unless `role` says otherwise. */
  newUser(username: string, email?: string, role?: UserRole): Promise<void>;
}

export interface LoginResult {
  Status: boolean;
  Message?: string;
  Data?: string;
  /** The SOAP response as sent. */
  body: string;
}

export async function openUsersWorld(target: DatabaseTarget): Promise<UsersWorld> {
  const db = await target.open();
  let gateway: TransactionService<CallContext> | undefined;
  // The app wants its service before the gateway's dependencies exist: hand it one that forwards.
  const forward = new Proxy({} as TransactionService<CallContext>, {
    get: (_target, name) => (params: unknown, context: CallContext) =>
      (gateway as unknown as Record<string, (p: unknown, c: CallContext) => Promise<unknown>>)[
        name as string
      ]?.(params, context),
  });
  const t = await buildTestApp(
    db,
    { LOG_LEVEL: 'warn', PUBLIC_URL },
    { closeDatabase: true, transactionService: forward },
  );
  const clock = { now: new Date() };
  const deps: GatewayDeps = { ...t.gateway.deps, now: () => clock.now };
  gateway = createGateway(deps);
  const routes = Fastify();
  registerErrorHandling(routes);
  await routes.register(passwordResetRoutes, {
    db,
    now: () => clock.now,
    signInUrl: `${PUBLIC_URL}/dashboard`,
  });
  const a = await createMerchant(t, db, 'Alpha Outfitters', false);
  const b = await createMerchant(t, db, 'Bravo Bikes', false);
  await createUser(db, { merchantId: a.id, ...ANN });

  return {
    db,
    t,
    app: t.app,
    a,
    b,
    deps,
    clock,
    routes,
    advance(minutes) {
      clock.now = new Date(clock.now.getTime() + minutes * 60_000);
    },
    async login(userName, password, profileInfo = false) {
      const r = await soapCall(
        t.app,
        'Login',
        { loginRequest: { UserName: userName, Password: password, ProfileInfo: profileInfo } },
        null,
      );
      if (r.status !== 200) throw new Error(`Login answered HTTP ${r.status}: ${r.body}`);
      return { ...(r.result as Omit<LoginResult, 'body'>), body: r.body };
    },
    async forgotPassword(userName, email) {
      const r = await soapCall(
        t.app,
        'ForgotPassword',
        { request: { UserName: userName, Email: email } },
        null,
      );
      if (r.status !== 200) throw new Error(`ForgotPassword answered HTTP ${r.status}: ${r.body}`);
      return { result: r.result, body: r.body };
    },
    async resetTokenSentTo(to) {
      await deps.notifier.flush();
      const [newest] = await listOutbox(db, { to });
      return newest && /\/reset-password\?token=(pr_[A-Za-z0-9_-]{43})\n/.exec(newest.text)?.[1];
    },
    async newUser(username, email, role) {
      await createUser(db, {
        merchantId: a.id,
        username,
        password: ANN.password,
        email: email ?? null,
        ...(role ? { role } : {}),
      });
    },
    close: async () => {
      await deps.notifier.flush();
      await routes.close();
      await t.close();
    },
  };
}
