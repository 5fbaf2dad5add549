/**
 * A merchant's refund over REST when the network between the checkout and the gateway fails
 * (server/checkout/payment-actions.ts): a gateway process and a checkout process, each on a
 * PostgreSQL database of its own when TEST_DATABASE_URL is set (else PGlite, a data directory each),
 * with the fault proxy between them, which breaks exactly the refund's
 * ProcessTransaction call:
 *   - `stall-answer`: the gateway refunds, its answer never comes back (the checkout times out);
 *   - `cut-answer`: the gateway refunds, a few bytes of its answer arrive, then the connection closes;
 *   - `reset-request`: the gateway never sees it.
 * Each time the merchant gets 503 with Retry-After, 409 on the same key until then, and then the
 * true outcome: the refund the gateway made, never a second one; a refund that never arrived is
 * made, once. The gateway's own SOAP answers (GetPayment as the merchant) are the proof.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requiredDefaults } from '../../../shared/contract/neutral.ts';
import { TransactionServiceClient } from '../../../server/soap/client/transaction-service-client.ts';
import { futureExpiry } from '../../kit/gateway/gateway-kit.ts';
import { testDatabaseUrl } from '../../../server/config.ts';
import { freshDatabase, tempDir } from '../../kit/databases.ts';
import { type Fault, FaultProxy } from './fault-proxy.ts';
import {
  freePort,
  type Merchant,
  randomKey,
  readDemoMerchant,
  type ServerProcess,
  sleep,
  startPayframe,
} from './servers.ts';

/** The checkout's limit for a call to the gateway here (below the stale time, 10 s). */
const CALL_TIMEOUT_SECONDS = 3;

describe('a REST refund through a faulty network between checkout and gateway', () => {
  const dirs = [tempDir('payframe-refund-gw-'), tempDir('payframe-refund-co-')];
  let gateway: ServerProcess;
  let checkout: ServerProcess;
  let proxy: FaultProxy;
  let merchant: Merchant;
  let soap: TransactionServiceClient;
  const drops: (() => Promise<unknown>)[] = [];

  /** The role's own database: a fresh PostgreSQL database, or PGlite in its data directory. */
  async function databaseUrl(prefix: string): Promise<string> {
    const adminUrl = testDatabaseUrl();
    if (!adminUrl) return '';
    const db = await freshDatabase(adminUrl, prefix);
    drops.push(db.drop);
    return db.url;
  }

  beforeAll(async () => {
    const [gatewayPort, checkoutPort] = [await freePort(), await freePort()];
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    const checkoutUrl = `http://127.0.0.1:${checkoutPort}`;
    const serviceKey = crypto.randomBytes(24).toString('hex');
    gateway = await startPayframe(
      {
        DATA_DIR: dirs[0]!,
        DATABASE_URL: await databaseUrl('payframe_refund_gateway'),
        CARD_ENCRYPTION_KEY: randomKey(),
        GATEWAY_SERVICE_KEY: serviceKey,
        PUBLIC_URL: gatewayUrl,
        CHECKOUT_PUBLIC_URL: checkoutUrl,
      },
      gatewayPort,
      ['--role', 'gateway'],
    );
    proxy = await FaultProxy.start({ targetPort: gatewayPort, lateMs: (CALL_TIMEOUT_SECONDS + 1) * 1000 });
    checkout = await startPayframe(
      {
        DATA_DIR: dirs[1]!,
        DATABASE_URL: await databaseUrl('payframe_refund_checkout'),
        GATEWAY_SERVICE_KEY: serviceKey,
        PUBLIC_URL: checkoutUrl,
        TRANSACTION_SERVICE_URL: proxy.url,
        TRANSACTION_SERVICE_MODE: 'payframe',
        GATEWAY_PUBLIC_URL: gatewayUrl,
        TRANSACTION_SERVICE_TIMEOUT_SECONDS: String(CALL_TIMEOUT_SECONDS),
        CHECKOUT_SECRET: crypto.randomBytes(32).toString('base64'),
      },
      checkoutPort,
      ['--role', 'checkout'],
    );
    merchant = readDemoMerchant(dirs[0]!);
    soap = new TransactionServiceClient({
      baseUrl: gateway.url,
      namespace: 'http://tempuri.org/',
      username: merchant.merchantId,
      password: merchant.transactionKey,
    });
  }, 120_000);

  afterAll(async () => {
    await Promise.all([checkout?.stop(), gateway?.stop()]);
    await proxy?.close();
    for (const drop of drops) await drop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }, 30_000);

  /** A card sale of the merchant, made over SOAP straight at the gateway: its id. */
  async function sale(amount: string): Promise<string> {
    const r = await soap.ProcessTransaction({
      request: {
        ...requiredDefaults('Request'),
        MerchantID: merchant.merchantId,
        CardNumber: '4242424242424242',
        ExpirationDate: futureExpiry(),
        Amount: amount,
        TransactionType: 'sale',
      },
    });
    expect(r.ResponseCode).toBe('00');
    return r.TransactionID;
  }

  const refund = (id: string, key: string, amount: string) =>
    fetch(`${checkout.url}/v1/payments/${id}/refunds`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${merchant.merchantId}:${merchant.transactionKey}`).toString('base64')}`,
        'content-type': 'application/json',
        'idempotency-key': key,
      },
      body: JSON.stringify({ amount }),
    });

  const refunded = async (id: string) =>
    (await soap.GetPayment({ transactionID: id })).Payment!.RefundedAmount;

  it.each([
    ['stall-answer', '4.00'],
    ['cut-answer', '4.00'],
    ['reset-request', '0.00'],
  ] as [Fault, string][])(
    '%s: 503, 409 on the key, then the true outcome, refunded once',
    async (fault, afterFault) => {
      const id = await sale('10.00');
      const key = crypto.randomUUID();
      proxy.faultNext('/ProcessTransaction"', fault);
      const lost = await refund(id, key, '4.00');
      expect(lost.status, await lost.clone().text()).toBe(503);
      const retryAfter = Number(lost.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(await refunded(id)).toBe(afterFault);

      const early = await refund(id, key, '4.00');
      expect(early.status).toBe(409);

      await sleep(retryAfter * 1000 + 500);
      const settled = await refund(id, key, '4.00');
      const body = (await settled.json()) as { transactionIds: string[] };
      expect(settled.status, JSON.stringify(body)).toBe(200);
      expect(body).toMatchObject({
        status: 'succeeded',
        amount: '4.00',
        payment: { amountRefunded: '4.00' },
      });
      expect(body.transactionIds).toHaveLength(1);
      expect(await refunded(id)).toBe('4.00');
      const replay = await refund(id, key, '4.00');
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(await refunded(id)).toBe('4.00');
    },
    60_000,
  );
});
