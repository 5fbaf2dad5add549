/**
 * The split wiring under faults (issue 19 §1): a gateway process and a checkout process, each on a
 * PostgreSQL database of its own, with a fault-injecting proxy between them (fault-proxy.ts: delays,
 * stalls, resets, answers cut mid-way, requests delivered after the checkout gave up). Under a
 * stream of pays the gateway, the checkout, or both are killed with SIGKILL and restarted. Then:
 *   - no shopper was told "paid" whose payment is not recorded on both sides (the gateway's approved
 *     transaction, the checkout's payment record, the same transaction id);
 *   - no session was charged twice (the processor's ledger, the gateway's transactions);
 *   - every pay that went in doubt ended with its true outcome, retried with its own key.
 * `SPLIT_FAULT_CYCLES` (default 1) repeats the three kills; `npm run test:system` runs one cycle.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../../../server/config.ts';
import { openPostgres } from '../../../server/db/postgres.ts';
import { freshDatabase, tempDir } from '../../kit/databases.ts';
import { FaultProxy } from './fault-proxy.ts';
import { checkInvariants, Traffic } from './harness.ts';
import {
  freePort,
  randomKey,
  readDemoMerchant,
  type ServerProcess,
  STALE_PAYMENT_SECONDS,
  sleep,
  startPayframe,
} from './servers.ts';

const adminUrl = testDatabaseUrl();
const CYCLES = Number(process.env.SPLIT_FAULT_CYCLES ?? 1);
/** The checkout's limit for a call to the gateway in this test (below the stale time, 10 s). */
const CALL_TIMEOUT_SECONDS = 3;
/** The share of the checkout's calls that meet a fault while the traffic runs. */
const FAULT_RATE = 0.25;

type Victim = 'gateway' | 'checkout' | 'both';

describe.skipIf(!adminUrl)(
  `split wiring through a faulty network${adminUrl ? '' : ' (skipped: TEST_DATABASE_URL is not set)'}`,
  () => {
    const cleanup: (() => Promise<void> | void)[] = [];

    afterEach(async () => {
      for (const step of cleanup.splice(0).reverse()) await step();
    });

    it(
      'faults between checkout and gateway and kill -9 of either or both: every payment exactly once',
      { timeout: 120_000 + CYCLES * 90_000 },
      async () => {
        const gatewayDb = await freshDatabase(adminUrl!, 'payframe_split_gateway');
        cleanup.push(() => gatewayDb.drop());
        const checkoutDb = await freshDatabase(adminUrl!, 'payframe_split_checkout');
        cleanup.push(() => checkoutDb.drop());
        const dirs = [tempDir('payframe-split-'), tempDir('payframe-split-')];
        cleanup.push(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

        const [gatewayPort, checkoutPort] = [await freePort(), await freePort()];
        const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
        const checkoutUrl = `http://127.0.0.1:${checkoutPort}`;
        const serviceKey = crypto.randomBytes(24).toString('hex');
        const proxy = await FaultProxy.start({
          targetPort: gatewayPort,
          lateMs: (CALL_TIMEOUT_SECONDS + 1) * 1000,
        });
        cleanup.push(() => proxy.close());
        const gatewayEnv = {
          DATABASE_URL: gatewayDb.url,
          DATA_DIR: dirs[0]!,
          CARD_ENCRYPTION_KEY: randomKey(),
          GATEWAY_SERVICE_KEY: serviceKey,
          PUBLIC_URL: gatewayUrl,
          CHECKOUT_PUBLIC_URL: checkoutUrl,
        };
        const checkoutEnv = {
          DATABASE_URL: checkoutDb.url,
          DATA_DIR: dirs[1]!,
          GATEWAY_SERVICE_KEY: serviceKey,
          PUBLIC_URL: checkoutUrl,
          TRANSACTION_SERVICE_URL: proxy.url,
          // Named, not read from the WSDL (auto): a restart must not wait on a WSDL the proxy breaks.
          TRANSACTION_SERVICE_MODE: 'payframe',
          GATEWAY_PUBLIC_URL: gatewayUrl,
          TRANSACTION_SERVICE_TIMEOUT_SECONDS: String(CALL_TIMEOUT_SECONDS),
          CHECKOUT_SECRET: crypto.randomBytes(32).toString('base64'),
        };
        const servers: Record<'gateway' | 'checkout', ServerProcess> = {
          gateway: await startPayframe(gatewayEnv, gatewayPort, ['--role', 'gateway']),
          checkout: await startPayframe(checkoutEnv, checkoutPort, ['--role', 'checkout']),
        };
        cleanup.push(() => Promise.all([servers.gateway.kill9(), servers.checkout.kill9()]).then(() => {}));
        const restart = {
          gateway: () => startPayframe(gatewayEnv, gatewayPort, ['--role', 'gateway']),
          checkout: () => startPayframe(checkoutEnv, checkoutPort, ['--role', 'checkout']),
        };

        const traffic = new Traffic([checkoutUrl], readDemoMerchant(gatewayEnv.DATA_DIR), 3);
        proxy.rate = FAULT_RATE;
        traffic.start();
        const kills: Victim[] = [];
        try {
          for (let cycle = 0; cycle < CYCLES; cycle++) {
            for (const victim of ['gateway', 'checkout', 'both'] as const) {
              await sleep(1500 + Math.random() * 1500);
              // A pay on its way: the kill lands while it is between the shopper, checkout and gateway.
              expect(await traffic.payInFlight(checkoutUrl)).toBe(true);
              await sleep(Math.random() * 400);
              const dead = victim === 'both' ? (['gateway', 'checkout'] as const) : [victim];
              await Promise.all(dead.map((d) => servers[d].kill9()));
              kills.push(victim);
              for (const d of dead) servers[d] = await restart[d]();
            }
          }
          await sleep(1500);
          proxy.rate = 0;
          await traffic.stop();
          const open = await traffic.settle(Date.now() + (STALE_PAYMENT_SECONDS + 20) * 1000);
          expect(open.map((p) => p.token)).toEqual([]);
        } finally {
          proxy.rate = 0;
          await traffic.stop();
        }

        const gateway = await openPostgres({ url: gatewayDb.url, poolSize: 2 });
        const checkout = await openPostgres({ url: checkoutDb.url, poolSize: 2 });
        try {
          const findings = await checkInvariants(gateway, traffic.payments, checkout);
          expect(traffic.errors).toEqual([]);
          expect(findings.problems).toEqual([]);
          expect(findings.acknowledged).toBeGreaterThanOrEqual(10);
          expect(findings.inDoubt).toBeGreaterThan(0);
          const faults = Object.entries(proxy.counts)
            .filter(([f]) => f !== 'pass')
            .map(([f, n]) => `${f} ${n}`)
            .join(', ');
          process.stdout.write(
            `split wiring, faults and kill -9 (${kills.join(', ')}): ${traffic.payments.length} payments, ${findings.acknowledged} acknowledged, ${findings.inDoubt} in doubt and retried, 0 lost, 0 charged twice; calls ${proxy.counts.pass} passed, faults: ${faults}\n`,
          );
        } finally {
          await gateway.close();
          await checkout.close();
        }
      },
    );
  },
);
