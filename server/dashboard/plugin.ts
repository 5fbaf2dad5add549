/**
 * The merchant dashboard's server side (issue 15; docs/dashboard.md) as one Fastify plugin: its
 * page at /dashboard and its JSON API at /dashboard/api. It is one more client of the Transaction
 * Service port — Login, GetUserSession, ProcessTransaction, SettleTransaction, ListPayments,
 * CreateHostedPayment… as the signed-in user — and reads only the checkout's own tables (webhook
 * deliveries), so it runs wherever the checkout does: in process (role all) or over SOAP (role
 * checkout). Registered by server/app.ts beside the checkout plugin, with the same checkout and
 * notifier.
 *
 * Every state-changing API call passes the CSRF guard (checkout/csrf.ts) with
 * `X-Payframe-Client: dashboard` before its body is read; no answer is cached.
 */
import type { FastifyInstance } from 'fastify';
import type { Checkout } from '../checkout/checkout.ts';
import { clientRequestGuard } from '../checkout/csrf.ts';
import type { Notifier } from '../notify/notifier.ts';
import { auditRoutes } from './audit-routes.ts';
import { teamRoutes } from './team-routes.ts';
import { developerRoutes } from './developer-routes.ts';
import { linkRoutes } from './link-routes.ts';
import { dashboardPageRoutes } from './page.ts';
import { paymentRoutes } from './payment-routes.ts';
import { sessionCookie } from './session-cookie.ts';
import { sessionRoutes } from './session-routes.ts';
import { settingsRoutes } from './settings-routes.ts';
import { webhookRoutes } from './webhook-routes.ts';
import { clearCookieOnUnauthorized, type DashboardDeps } from './user-context.ts';

/** The value of `X-Payframe-Client` the dashboard's page sends. */
export const DASHBOARD_CLIENT = 'dashboard';

export interface DashboardPluginOptions {
  checkout: Checkout;
  notifier: Notifier;
  /** Where dashboard.html is built (tests); dist/widget otherwise. */
  distDir?: string;
}

export async function dashboardPlugin(app: FastifyInstance, options: DashboardPluginOptions): Promise<void> {
  const checkout = options.checkout.deps;
  const deps: DashboardDeps = {
    checkout,
    cookie: sessionCookie(checkout.publicUrl),
    notifier: options.notifier,
  };
  await app.register(dashboardPageRoutes, { distDir: options.distDir });
  await app.register(
    async (api) => {
      api.addHook('onRequest', clientRequestGuard(checkout.publicOrigin, DASHBOARD_CLIENT));
      api.addHook('onError', clearCookieOnUnauthorized(deps));
      api.addHook('onSend', async (_request, reply, payload) => {
        reply.header('cache-control', 'no-store');
        return payload;
      });
      await sessionRoutes(api, deps);
      await paymentRoutes(api, deps);
      await linkRoutes(api, deps);
      await auditRoutes(api, deps);
      await teamRoutes(api, deps);
      await developerRoutes(api, deps);
      await settingsRoutes(api, deps);
      await webhookRoutes(api, deps);
    },
    { prefix: '/dashboard/api' },
  );
}
