/**
 * The checkout server as one Fastify plugin: merchant REST (/v1/checkout-sessions, /v1/payments), the OpenAPI
 * document (/v1/openapi.json) and the widget's API (/api/checkout/…), each in its own scope with
 * its own hooks. Registration is described in server/checkout/README.md.
 */
import type { FastifyInstance } from 'fastify';
import type { Notifier } from '../notify/notifier.ts';
import type { Checkout } from './checkout.ts';
import { checkoutSessionsRoutes } from './checkout-sessions-routes.ts';
import { paymentRoutes } from './payment-routes.ts';
import { openApiRoute } from './openapi.ts';
import { payPageRoutes } from './pages.ts';
import { checkoutApiRoutes } from './pay-routes.ts';
import { walletRoutes } from './wallet-routes.ts';

export interface CheckoutPluginOptions {
  checkout: Checkout;
  /** Run recovery, webhook delivery and expiry announcements every `intervalMs` (0: don't). */
  workerIntervalMs?: number;
  /** Delivers one-time codes; with it, the wallet API (wallet-routes.ts) is registered. */
  notifier?: Notifier;
}

export async function checkoutPlugin(app: FastifyInstance, options: CheckoutPluginOptions): Promise<void> {
  const { checkout } = options;
  await app.register(checkoutSessionsRoutes, { checkout });
  await app.register(paymentRoutes, { checkout });
  await app.register(openApiRoute, { publicUrl: checkout.deps.publicUrl });
  await app.register(checkoutApiRoutes, { checkout });
  await app.register(payPageRoutes, { checkout });
  if (options.notifier) await app.register(walletRoutes, { checkout, notifier: options.notifier });
  if (options.workerIntervalMs) {
    const stop = checkout.startWorkers(options.workerIntervalMs);
    app.addHook('onClose', async () => stop());
  }
}
