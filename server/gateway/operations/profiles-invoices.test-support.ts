/**
 * The gateway world of gateway-kit.ts, with the payment-profile and invoice handlers merged into
 * GATEWAY_HANDLERS (harmless once gateway.ts lists them itself), for their SOAP tests.
 */
import type { TransactionService } from '../../../shared/contract/service.ts';
import type { CallContext } from '../../soap/call-context.ts';
import { buildTestApp } from '../../testing/app.ts';
import type { DatabaseTarget } from '../../testing/databases.ts';
import { createGateway, GATEWAY_HANDLERS } from '../gateway.ts';
import { createMerchant, type GatewayWorld, SERVICE_KEY } from '../testing/gateway-kit.ts';
import { INVOICE_HANDLERS } from './invoice-operations.ts';
import { PAYMENT_PROFILE_HANDLERS } from './payment-profile-operations.ts';

export async function openProfilesWorld(target: DatabaseTarget): Promise<GatewayWorld> {
  const db = await target.open();
  // The bindings look a handler up on each call, so the service can be filled in once the app exists.
  const service = {} as TransactionService<CallContext>;
  const t = await buildTestApp(
    db,
    { LOG_LEVEL: 'warn', GATEWAY_SERVICE_KEY: SERVICE_KEY },
    { closeDatabase: true, transactionService: service },
  );
  Object.assign(
    service,
    createGateway(t.gateway.deps, { ...GATEWAY_HANDLERS, ...PAYMENT_PROFILE_HANDLERS, ...INVOICE_HANDLERS }),
  );
  const a = await createMerchant(t, db, 'Alpha Outfitters', true);
  const b = await createMerchant(t, db, 'Bravo Bikes', false);
  return { db, t, app: t.app, a, b, close: () => t.close() };
}
