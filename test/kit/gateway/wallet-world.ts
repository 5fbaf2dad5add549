/**
 * Test support for the wallet and one-time-code tests: the real app on a test database (as
 * gateway-kit's `openWorld`), served by a gateway with a clock the test
 * can move (the processor simulator keeps the real time); and short calls for the tests.
 */
import type { TransactionService } from '../../../shared/contract/service.ts';
import type { CallContext } from '../../../server/gateway/port.ts';
import { buildTestApp } from '../app.ts';
import type { DatabaseTarget } from '../databases.ts';
import { createGateway } from '../../../server/gateway/gateway.ts';
import type { GatewayDeps } from '../../../server/gateway/gateway-call.ts';
import { call, createMerchant, type GatewayWorld, SERVICE_KEY } from './gateway-kit.ts';
import type { As } from './soap-call.ts';

export interface WalletWorld extends GatewayWorld {
  /** The gateway's dependencies, with the movable clock. */
  deps: GatewayDeps;
  clock: { now: Date };
}

export async function openWalletWorld(target: DatabaseTarget): Promise<WalletWorld> {
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
    { LOG_LEVEL: 'warn', GATEWAY_SERVICE_KEY: SERVICE_KEY },
    { closeDatabase: true, transactionService: forward },
  );
  const clock = { now: new Date() };
  const deps: GatewayDeps = { ...t.gateway.deps, now: () => clock.now };
  gateway = createGateway(deps);
  const a = await createMerchant(t, db, 'Alpha Outfitters', true);
  const b = await createMerchant(t, db, 'Bravo Bikes', false);
  return { db, t, app: t.app, a, b, deps, clock, close: () => t.close() };
}

export const SERVICE = { service: SERVICE_KEY } as const;
const GUID = /TokenGuid=([0-9a-f-]{36})$/;

let shoppers = 0;
/** A shopper of its own (mixed-case e-mail, spaced phone), so tests do not see each other's cards. */
export function newShopper(): { email: string; phone: string } {
  shoppers += 1;
  return { email: `Shopper.${shoppers}@Example.COM`, phone: `+1 415 555 ${String(1000 + shoppers)}` };
}

/** UpdateToken for merchant A (by default as A), with the TokenGuid read from the Message. */
export async function saveCard(w: WalletWorld, fields: Record<string, unknown>, as: As = w.a.as) {
  const token = { MerchantID: w.a.id, IsValidateCard: false, ...fields };
  const status = await call(w.app, 'UpdateToken', { token }, as);
  return { ...status, guid: GUID.exec(status.Message ?? '')?.[1] };
}

/** GetStoredCards as the checkout server. */
export function storedCards(w: WalletWorld, email: string | null, phoneNumber: string | null = null) {
  return call(w.app, 'GetStoredCards', { email, phoneNumber }, SERVICE);
}
