/**
 * The checkout server as one Fastify plugin: merchant REST (/v1/checkout-sessions), the OpenAPI
 * document (/v1/openapi.json) and the widget's API (/api/checkout/…), each in its own scope with
 * its own hooks. Registration is described in server/checkout/README.md.
 */
import type { FastifyInstance } from 'fastify';
import type { Checkout } from './checkout.ts';
import { checkoutSessionsRoutes } from './checkout-sessions-routes.ts';
import { openApiRoute } from './openapi.ts';
import { checkoutApiRoutes } from './pay-routes.ts';

export interface CheckoutPluginOptions {
  checkout: Checkout;
  /** Run recovery, webhook delivery and expiry announcements every `intervalMs` (0: don't). */
  workerIntervalMs?: number;
}

export async function checkoutPlugin(app: FastifyInstance, options: CheckoutPluginOptions): Promise<void> {
  const { checkout } = options;
  await app.register(checkoutSessionsRoutes, { checkout });
  await app.register(openApiRoute, { publicUrl: checkout.deps.publicUrl });
  await app.register(checkoutApiRoutes, { checkout });
  if (options.workerIntervalMs) {
    const stop = checkout.startWorkers(options.workerIntervalMs);
    app.addHook('onClose', async () => stop());
  }
}
