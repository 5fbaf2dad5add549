/**
 * Spec mode with real processes (issue 20; server/checkout/README.md "Spec mode"): the compiled
 * `payframe serve --role gateway --spec-only` standing in for a Transaction Service that speaks only
 * the spec's 21 operations, and `payframe serve --role checkout` in front of it with
 * TRANSACTION_SERVICE_MODE=auto (so the checkout reads the WSDL at start and must choose spec). Each
 * has its own PGlite data directory. The merchant is made on the gateway (`merchant create`) and its
 * entry on the checkout (`merchant secret set`), both before the servers start: a PGlite directory
 * admits one process at a time. Sessions come from the service itself: CreateInvoice as the merchant.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TransactionServiceClient } from '../../server/soap/client/transaction-service-client.ts';
import { freePort } from '../../server/testing/net.ts';
import { COMPILED_SERVER } from './compiled-server.ts';

const SERVICE_KEY = 'e2e-spec-mode-service-key-0123456789';
const NAMESPACE = 'http://tempuri.org/';
const START_TIMEOUT_MS = 60_000;

export interface SpecMerchantInfo {
  id: string;
  key: string;
  /** What GetHostedPaymentDetails answers as MerchantName, and the checkout's entry's name. */
  name: string;
}

export interface SpecPair {
  gatewayUrl: string;
  checkoutUrl: string;
  merchant: SpecMerchantInfo;
  /** The service as the merchant (HTTP Basic `<merchantId>:<TransactionKey>`). */
  soap: TransactionServiceClient;
  /** Everything both servers wrote, for a failure's message. */
  output(): string;
  stop(): Promise<void>;
}

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...COMPILED_SERVER, ...args, '--json'], { env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    child.stdin.end();
    child.on('exit', (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`payframe ${args.join(' ')} exited ${code}:\n${out}${err}`)),
    );
  });
}

interface Started {
  child: ChildProcess;
  out: () => string;
}

/** `payframe serve … --json`: resolves once it prints the address it listens on. */
function serve(args: string[], env: NodeJS.ProcessEnv): Promise<Started> {
  const child = spawn(process.execPath, [...COMPILED_SERVER, 'serve', ...args, '--json'], { env });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d));
  child.stderr?.on('data', (d: Buffer) => (out += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve ${args.join(' ')} did not start within ${START_TIMEOUT_MS} ms:\n${out}`));
    }, START_TIMEOUT_MS);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`serve ${args.join(' ')} exited (${code}) before listening:\n${out}`));
    };
    child.once('exit', onExit);
    const onData = () => {
      if (!/"url": "http:\/\/[^"]+"/.test(out)) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stdout?.off('data', onData);
      resolve({ child, out: () => out });
    };
    child.stdout?.on('data', onData);
  });
}

/** SIGTERM (graceful shutdown), SIGKILL after 10 s. */
async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts the pair. `shopOrigins`: the origins the checkout's entry lets embed the merchant's
 * checkout (frame-ancestors). `staleSeconds`: the checkout's STALE_PAYMENT_SECONDS.
 */
export async function startSpecPair(opts: {
  merchantName: string;
  shopOrigins: string[];
  staleSeconds?: number;
}): Promise<SpecPair> {
  const [gatewayPort, checkoutPort] = [await freePort(), await freePort()];
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const checkoutUrl = `http://127.0.0.1:${checkoutPort}`;
  const dirs = [
    fs.mkdtempSync(path.join(os.tmpdir(), 'payframe-e2e-spec-gw-')),
    fs.mkdtempSync(path.join(os.tmpdir(), 'payframe-e2e-spec-co-')),
  ];
  const common = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DATABASE_URL: '',
    GATEWAY_SERVICE_KEY: SERVICE_KEY,
  };
  const gatewayEnv = {
    ...common,
    DATA_DIR: dirs[0],
    CARD_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
    PORT: String(gatewayPort),
    PUBLIC_URL: gatewayUrl,
    CHECKOUT_PUBLIC_URL: checkoutUrl,
  };
  const checkoutEnv = {
    ...common,
    DATA_DIR: dirs[1],
    PORT: String(checkoutPort),
    PUBLIC_URL: checkoutUrl,
    TRANSACTION_SERVICE_URL: gatewayUrl,
    TRANSACTION_SERVICE_MODE: 'auto',
    CHECKOUT_SECRET: crypto.randomBytes(32).toString('hex'),
    STALE_PAYMENT_SECONDS: String(opts.staleSeconds ?? 10),
    // Every test pays from 127.0.0.1, as in playwright.config.ts.
    CHECKOUT_PAYS_PER_MINUTE_PER_IP: '1000',
  };
  const origins = opts.shopOrigins.flatMap((o) => ['--origin', o]);
  const created = JSON.parse(
    await runCli(['merchant', 'create', '--name', opts.merchantName, ...origins], {
      ...gatewayEnv,
      LOG_LEVEL: 'silent',
    }),
  ) as { merchantId: string; transactionKey: string };
  await runCli(
    ['merchant', 'secret', 'set', '--merchant', created.merchantId, '--name', opts.merchantName, ...origins],
    {
      ...checkoutEnv,
      LOG_LEVEL: 'silent',
    },
  );
  const gateway = await serve(['--role', 'gateway', '--spec-only'], gatewayEnv);
  let checkout: Started;
  try {
    checkout = await serve(['--role', 'checkout'], checkoutEnv);
  } catch (err) {
    await stopChild(gateway.child);
    throw err;
  }
  return {
    gatewayUrl,
    checkoutUrl,
    merchant: { id: created.merchantId, key: created.transactionKey, name: opts.merchantName },
    soap: new TransactionServiceClient({
      baseUrl: gatewayUrl,
      namespace: NAMESPACE,
      username: created.merchantId,
      password: created.transactionKey,
    }),
    output: () => `--- gateway\n${gateway.out()}\n--- checkout\n${checkout.out()}`,
    stop: async () => {
      await Promise.all([stopChild(checkout.child), stopChild(gateway.child)]);
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A session the service makes (CreateInvoice as the merchant): its InvoiceRandomNumber is the token. */
export async function invoiceSession(pair: SpecPair, amount: string, invoiceNumber: string): Promise<string> {
  const res = await pair.soap.CreateInvoice({
    invoiceRequest: {
      MerchantID: pair.merchant.id,
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

/** The merchant's transactions the service lists whose CustomValue1 is `token` (the adapter stamps it). */
export async function transactionsOf(pair: SpecPair, token: string) {
  const day = 86_400_000;
  const all = await pair.soap.GetTransactionHistories({
    startDate: new Date(Date.now() - day).toISOString(),
    endDate: new Date(Date.now() + day).toISOString(),
    merchantID: pair.merchant.id,
  });
  return all.filter((t) => t.CustomValue1 === token);
}
