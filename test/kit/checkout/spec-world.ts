/**
 * Test support for spec mode (issue 20): a gateway app listening on a loopback port, standing in for
 * a Transaction Service that is not Payframe's, and a checkout app whose port is the spec adapter
 * (spec-port.ts) over real SOAP to it. Every SOAPAction the service is asked is recorded, so a test
 * can show that only the spec's 21 operations were used. Sessions come from the service itself:
 * CreateInvoice's InvoiceRandomNumber, or its own session store for one with a ReturnUrl.
 */
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../server/db/database.ts';
import { TransactionServiceClient } from '../../../server/soap/client/transaction-service-client.ts';
import { buildTestApp, type TestApp } from '../app.ts';
import type { Checkout } from '../../../server/checkout/checkout.ts';
import { portSigner } from '../../../server/checkout/signer.ts';
import { specTransactionService } from '../../../server/checkout/spec-port.ts';
import type { ForeignAuth } from '../../../server/checkout/spec-service.ts';
import { setSpecMerchant, specSecretBox } from '../../../server/checkout/spec-merchants.ts';
import {
  addMerchant,
  CHECKOUT_SECRET,
  PUBLIC_URL,
  SERVICE_KEY,
  SHOP_ORIGIN,
  type WorldMerchant,
} from './checkout-world.ts';

export interface SpecWorld {
  db: Database;
  /** The service: Payframe's gateway, asked only through the spec's operations. */
  service: TestApp;
  serviceUrl: string;
  checkout: TestApp;
  app: FastifyInstance;
  core: Checkout;
  merchant: WorldMerchant & { name: string; redirectSecret: string };
  /** The SOAP operations the service was asked, in order. */
  soapCalls: string[];
  /** A client of the service as the merchant (its own session making: CreateInvoice). */
  merchantClient: TransactionServiceClient;
  close(): Promise<void>;
}

export interface SpecWorldOptions {
  now?: () => Date;
  /** Wraps the adapter's fetch (to lose an answer, or refuse a request). */
  fetch?: typeof fetch;
  auth?: ForeignAuth;
  callLimitMs?: number;
  staleAttemptMs?: number;
  env?: Record<string, string>;
}

export async function openSpecWorld(
  db: Database,
  merchantName: string,
  options: SpecWorldOptions = {},
): Promise<SpecWorld> {
  const env = { CARD_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'), ...options.env };
  const service = await buildTestApp(
    db,
    { LOG_LEVEL: 'warn', GATEWAY_SERVICE_KEY: SERVICE_KEY, CHECKOUT_PUBLIC_URL: PUBLIC_URL, ...env },
    options.now ? { now: options.now } : {},
  );
  const soapCalls: string[] = [];
  service.app.addHook('onRequest', async (request) => {
    const action = request.headers.soapaction;
    if (typeof action === 'string') soapCalls.push(action.replace(/^"?.*\//, '').replace(/"$/, ''));
  });
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  const serviceUrl = `http://127.0.0.1:${(service.app.server.address() as AddressInfo).port}`;
  const box = specSecretBox(CHECKOUT_SECRET);
  const port = specTransactionService({
    service: {
      baseUrl: serviceUrl,
      namespace: service.config.soapNamespace,
      soapVersion: '1.1',
      auth: options.auth ?? { kind: 'basic', username: 'service', password: SERVICE_KEY },
      timeoutMs: 5_000,
      fetch: options.fetch,
    },
    db,
    box,
    approvedCodes: new Set(['00']),
    callLimitMs: options.callLimitMs ?? 6_000,
    now: options.now,
  });
  const checkout = await buildTestApp(
    db,
    { LOG_LEVEL: 'warn', PUBLIC_URL, ...env },
    {
      closeDatabase: true,
      ...(options.now ? { now: options.now } : {}),
      checkoutOptions: (defaults) => ({
        ...defaults,
        port,
        serviceMode: 'spec',
        signer: portSigner(port, defaults.log),
        secret: CHECKOUT_SECRET,
        threeDs: undefined,
        ...(options.staleAttemptMs ? { staleAttemptMs: options.staleAttemptMs } : {}),
      }),
    },
  );
  const merchant = await addMerchant(service, db, merchantName);
  const redirectSecret = crypto.randomBytes(32).toString('hex');
  await setSpecMerchant(
    db,
    box,
    { id: merchant.id, name: merchantName, origins: [SHOP_ORIGIN], secret: redirectSecret },
    new Date(),
  );
  const merchantClient = new TransactionServiceClient({
    baseUrl: serviceUrl,
    namespace: service.config.soapNamespace,
    username: merchant.id,
    password: merchant.key,
  });
  return {
    db,
    service,
    serviceUrl,
    checkout,
    app: checkout.app,
    core: checkout.checkout,
    merchant: { ...merchant, name: merchantName, redirectSecret },
    soapCalls,
    merchantClient,
    close: async () => {
      await checkout.close(); // closes the database too
      await service.app.close();
    },
  };
}

/** A session the service makes for invoices (CreateInvoice): its InvoiceRandomNumber is the token. */
export async function invoiceSession(
  w: SpecWorld,
  amount = '24.99',
  invoiceNumber = 'INV-1',
): Promise<string> {
  const res = await w.merchantClient.CreateInvoice({
    invoiceRequest: {
      MerchantID: w.merchant.id,
      ConvenienceFee: '0',
      ConvenienceFeePercentage: false,
      Invoices: [
        {
          InvoiceNumber: invoiceNumber,
          InvoiceAmount: amount,
          InvoiceDate: new Date().toISOString().slice(0, 10),
        },
      ],
    },
  });
  if (!res.Success || !res.InvoiceRandomNumber) throw new Error(`CreateInvoice failed: ${res.Message}`);
  return res.InvoiceRandomNumber;
}

/** A session with a ReturnUrl, made in the service's own store (how a service makes one is its own affair). */
export async function returningSession(
  w: SpecWorld,
  amount = '24.99',
  email = 'ada@example.com',
): Promise<string> {
  const merchant = await w.service.gateway.deps.merchants.get(w.db, w.merchant.id);
  if (!merchant) throw new Error('no merchant');
  const session = await w.service.gateway.deps.sessions.create(w.db, merchant, {
    amount,
    orderNumber: 'A-2001',
    email,
    returnUrl: `${SHOP_ORIGIN}/thanks?cart=9`,
  });
  return session.token;
}
