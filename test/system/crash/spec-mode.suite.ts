/**
 * Spec mode under kill -9 (issue 20), with real processes: `payframe serve --role gateway
 * --spec-only` stands for a Transaction Service that is not Payframe's, and a checkout in spec mode
 * (TRANSACTION_SERVICE_MODE=auto: its WSDL says spec) pays its CreateInvoice session. The service
 * approves and records the charge; the checkout is killed before it records it (a trigger stalls its
 * record, and the test kills it in that window), and the shopper walks away. Restarted, the checkout
 * settles the attempt its predecessor left by the history lookup alone (GetTransactionHistories,
 * the token in CustomValue1): the payment recorded once with the service's transaction id, the
 * shopper's key replaying it, and no second charge.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../../../server/config.ts';
import type { Database } from '../../../server/db/database.ts';
import { openPostgres } from '../../../server/db/postgres.ts';
import { setSpecMerchant, specSecretBox } from '../../../server/checkout/spec-merchants.ts';
import { TransactionServiceClient } from '../../../server/soap/client/transaction-service-client.ts';
import { tempDir } from '../../kit/databases.ts';
import { payRequest, randomIp } from './harness.ts';
import {
  freePort,
  randomKey,
  readDemoMerchant,
  type ServerProcess,
  sleep,
  startPayframe,
} from './servers.ts';

const adminUrl = testDatabaseUrl();
const STALLED = 'payframe-crash-spec-stalled';

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** The checkout's record of a session's payment sleeps (inside its transaction) for listed tokens. */
async function installPaymentStall(db: Database): Promise<void> {
  await db.query('create table crash_spec_stall (session_token text primary key)');
  await db.query(`create function crash_spec_stall() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from crash_spec_stall where session_token = new.session_token) then
        perform set_config('application_name', '${STALLED}', false);
        perform pg_sleep(120);
      end if;
      return new;
    end $$`);
  await db.query(
    'create trigger crash_spec_stall before insert on checkout_payments for each row execute function crash_spec_stall()',
  );
}

/** Lifts the stall and ends the sleeping backend, whose client is gone (its transaction rolls back). */
async function endPaymentStall(db: Database): Promise<void> {
  await db.query('delete from crash_spec_stall');
  await db.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [
    STALLED,
  ]);
}

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = await probe();
    if (found !== null) return found;
    await sleep(100);
  }
  throw new Error(`${what}: not within ${timeoutMs} ms`);
}

describe.skipIf(!adminUrl)(
  `spec mode: a checkout killed before it records a charge settles it by the history (PostgreSQL)${adminUrl ? '' : ' (skipped: TEST_DATABASE_URL is not set)'}`,
  () => {
    let dbName: string;
    let url: string;
    let db: Database | undefined;
    const servers: ServerProcess[] = [];
    const dirs: string[] = [];

    beforeEach(async () => {
      dbName = `payframe_spec_${crypto.randomBytes(6).toString('hex')}`;
      await admin(`create database ${dbName}`);
      const u = new URL(adminUrl!);
      u.pathname = `/${dbName}`;
      url = u.toString();
    });

    afterEach(async () => {
      await Promise.all(servers.splice(0).map((s) => s.kill9()));
      await db?.close();
      for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
      await admin(`drop database if exists ${dbName} with (force)`);
    });

    function dataDir(): string {
      const dir = tempDir('payframe-spec-');
      dirs.push(dir);
      return dir;
    }

    it(
      'recorded once after the restart, with the service’s transaction, and never charged twice',
      { timeout: 150_000 },
      async () => {
        const [gatewayPort, checkoutPort] = [await freePort(), await freePort()];
        const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
        const checkoutUrl = `http://127.0.0.1:${checkoutPort}`;
        const serviceKey = crypto.randomBytes(24).toString('hex');
        const checkoutSecret = crypto.randomBytes(32);
        const gatewayEnv = {
          DATABASE_URL: url,
          DATA_DIR: dataDir(),
          CARD_ENCRYPTION_KEY: randomKey(),
          GATEWAY_SERVICE_KEY: serviceKey,
          PUBLIC_URL: gatewayUrl,
          CHECKOUT_PUBLIC_URL: checkoutUrl,
        };
        const checkoutEnv = {
          DATABASE_URL: url,
          DATA_DIR: dataDir(),
          GATEWAY_SERVICE_KEY: serviceKey,
          PUBLIC_URL: checkoutUrl,
          TRANSACTION_SERVICE_URL: gatewayUrl,
          TRANSACTION_SERVICE_MODE: 'auto',
          TRANSACTION_SERVICE_TIMEOUT_SECONDS: '4',
          CHECKOUT_SECRET: checkoutSecret.toString('hex'),
        };
        servers.push(await startPayframe(gatewayEnv, gatewayPort, ['--role', 'gateway', '--spec-only']));
        servers.push(await startPayframe(checkoutEnv, checkoutPort, ['--role', 'checkout']));
        db = await openPostgres({ url, poolSize: 2 });

        // The merchant, its spec entry on the checkout, and a session its service makes.
        const merchant = readDemoMerchant(gatewayEnv.DATA_DIR);
        const soap = new TransactionServiceClient({
          baseUrl: gatewayUrl,
          namespace: 'http://tempuri.org/',
          username: merchant.merchantId,
          password: merchant.transactionKey,
        });
        const invoice = await soap.CreateInvoice({
          invoiceRequest: {
            MerchantID: merchant.merchantId,
            ConvenienceFee: '0',
            ConvenienceFeePercentage: false,
            Invoices: [
              {
                InvoiceNumber: 'SPEC-1',
                InvoiceAmount: '15.00',
                InvoiceDate: new Date().toISOString().slice(0, 10),
              },
            ],
          },
        });
        const token = invoice.InvoiceRandomNumber!;
        const details = await soap.GetHostedPaymentDetails({ token });
        await setSpecMerchant(
          db,
          specSecretBox(checkoutSecret),
          {
            id: merchant.merchantId,
            name: details.MerchantName!,
            origins: [],
            secret: crypto.randomBytes(32).toString('hex'),
          },
          new Date(),
        );

        // The service charges and records; the checkout dies while it records.
        await installPaymentStall(db);
        await db.query('insert into crash_spec_stall values ($1)', [token]);
        const key = crypto.randomUUID();
        const pending = payRequest(checkoutUrl, token, key, randomIp());
        await waitFor('the stalled record', 30_000, async () => {
          const { rows } = await db!.query('select 1 from pg_stat_activity where application_name = $1', [
            STALLED,
          ]);
          return rows.length > 0 ? true : null;
        });
        await servers[1]!.kill9();
        expect((await pending).kind).not.toBe('answer');
        await endPaymentStall(db);
        const charged = async () =>
          (
            await soap.GetTransactionHistories({
              startDate: new Date(Date.now() - 3_600_000).toISOString(),
              endDate: new Date(Date.now() + 3_600_000).toISOString(),
              merchantID: merchant.merchantId,
            })
          ).filter((t) => t.CustomValue1 === token && t.ApprovalCode);
        expect(await charged()).toHaveLength(1);
        const { rows: none } = await db.query('select 1 from checkout_payments where session_token = $1', [
          token,
        ]);
        expect(none).toHaveLength(0);

        // Restarted, with the shopper gone: its predecessor's attempt is settled by the history.
        const restarted = Date.now();
        servers[1] = await startPayframe(checkoutEnv, checkoutPort, ['--role', 'checkout']);
        const recorded = await waitFor('the recorded payment', 60_000, async () => {
          const { rows } = await db!.query<{ transaction_id: string }>(
            'select transaction_id::text as transaction_id from checkout_payments where session_token = $1',
            [token],
          );
          return rows[0] ?? null;
        });
        const [transaction] = await charged();
        expect(recorded.transaction_id).toBe(transaction!.TransactionID);
        process.stdout.write(
          `spec mode, checkout killed mid-record: settled ${Date.now() - restarted} ms after the restart\n`,
        );

        // The shopper's key answers the payment; another pay finds it paid; the service charged once.
        const replay = await payRequest(checkoutUrl, token, key, randomIp());
        expect(replay.kind === 'answer' && replay.status).toBe(200);
        expect(replay.kind === 'answer' && JSON.parse(replay.body).status).toBe('succeeded');
        const again = await payRequest(checkoutUrl, token, crypto.randomUUID(), randomIp());
        expect(again.kind === 'answer' && JSON.parse(again.body).status).toBe('already_paid');
        expect(await charged()).toHaveLength(1);
      },
    );
  },
);
