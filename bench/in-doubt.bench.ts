/**
 * Time from a restart to every in-doubt payment settled (issue 21): pays cut short between the
 * processor's approval and the gateway's record, the shoppers gone; then the server starts again on
 * the same data and the clock runs until the gateway has recorded every charge (session paid) and
 * the checkout has recorded every payment (receipt and `payment.succeeded` webhook queued).
 *
 * The real server path: `startServer` (server/server.ts, what `payframe serve` calls) in this process
 * on PGlite in a fresh DATA_DIR, with the defaults (STALE_PAYMENT_SECONDS unset); shoppers over HTTP.
 * The cut is made by wrapping the first server's database (`wrapDatabase`): its
 * `insert into transactions` fails, as if the process had died there — the processor has approved,
 * the claim and the attempt stay held. That server is then closed and a second one started.
 *
 *   node --import tsx bench/in-doubt.bench.ts [--count=5]
 *
 * Prints one JSON line. The same script run on an older commit (in a git worktree) gives the
 * "before" figure of bench/README.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/config.ts';
import type { Database, Queryable } from '../server/db/database.ts';
import { createLogger } from '../server/logger.ts';
import { startServer } from '../server/server.ts';
import { freePort } from '../test/kit/net.ts';

const count = Number(/--count=(\d+)/.exec(process.argv.join(' '))?.[1] ?? 5);
const LIMIT_MS = 240_000;

/** The database with `insert into transactions` failing while `state.cut` is set. */
function cutRecords(db: Database, state: { cut: boolean }): Database {
  const guard = (q: Queryable): Queryable => ({
    query: (sql: string, params?: readonly unknown[]) =>
      state.cut && /^\s*insert into transactions\b/i.test(sql)
        ? Promise.reject(new Error('the process died before recording the outcome'))
        : q.query(sql, params),
    exec: (sql: string) => q.exec(sql),
  });
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'transaction')
        return <T>(fn: (tx: Queryable) => Promise<T>) => target.transaction((tx) => fn(guard(tx)));
      if (prop === 'query') return guard(target).query;
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as Database;
}

async function start(dataDir: string, wrap: (db: Database) => Database) {
  const config = loadConfig({
    NODE_ENV: 'production',
    // Production makes no merchant: the demo's is the one this benchmark pays as.
    PAYFRAME_DEMO: '1',
    LOG_LEVEL: 'silent',
    TRUST_PROXY: 'true',
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    DEMO_PORT: String(await freePort()),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
  });
  return startServer(config, createLogger({ level: 'silent' }), 'all', { wrapDatabase: wrap });
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payframe-bench-doubt-'));
  const state = { cut: false };
  const first = await start(dataDir, (db) => cutRecords(db, state));
  const merchant = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-merchant.json'), 'utf8')) as {
    merchantId: string;
    transactionKey: string;
    origins: string[];
  };
  const auth = `Basic ${Buffer.from(`${merchant.merchantId}:${merchant.transactionKey}`).toString('base64')}`;
  const tokens: string[] = [];
  state.cut = true;
  for (let i = 0; i < count; i++) {
    const created = await fetch(`${first.url}/v1/checkout-sessions`, {
      method: 'POST',
      headers: {
        authorization: auth,
        'content-type': 'application/json',
        'x-forwarded-for': `10.9.0.${i + 1}`,
      },
      body: JSON.stringify({
        amount: '10.00',
        currency: 'USD',
        orderNumber: `doubt-${i}`,
        returnUrl: `${merchant.origins[0]}/return`,
        webhookUrl: `${merchant.origins[0]}/hooks`,
      }),
    });
    const { token } = (await created.json()) as { token: string };
    const paid = await fetch(`${first.url}/api/checkout/sessions/${token}/pay`, {
      method: 'POST',
      headers: {
        'x-payframe-client': 'widget',
        'content-type': 'application/json',
        'idempotency-key': `doubt-${i}-${Date.now()}`,
        'x-forwarded-for': `10.9.0.${i + 1}`,
      },
      body: JSON.stringify({
        method: 'card',
        card: { number: '4242424242424242', expiry: '12/30', cvv: '123', name: 'Ada' },
      }),
    });
    if (paid.status !== 500) throw new Error(`expected the cut pay to answer 500, got ${paid.status}`);
    tokens.push(token);
  }
  await first.close();

  const restart = performance.now();
  let db: Database | undefined;
  const second = await start(dataDir, (d) => (db = d));
  const ready = performance.now();
  let gatewayMs: number | null = null;
  let checkoutMs: number | null = null;
  while (performance.now() - restart < LIMIT_MS && checkoutMs === null) {
    const { rows } = await db!.query<{ paid: number; recorded: number; events: number }>(
      `select (select count(*)::int from checkout_sessions where token = any($1) and status = 'paid'
                 and claim_reference is null) as paid,
              (select count(*)::int from checkout_payments where session_token = any($1)) as recorded,
              (select count(*)::int from checkout_webhook_events where session_token = any($1)
                 and type = 'payment.succeeded') as events`,
      [tokens],
    );
    const r = rows[0]!;
    if (gatewayMs === null && r.paid === count) gatewayMs = performance.now() - restart;
    if (r.recorded === count && r.events === count) checkoutMs = performance.now() - restart;
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const { rows: tx } = await db!.query<{ n: number }>(
    `select count(*)::int as n from transactions t join checkout_sessions s on s.id = t.checkout_session_id
     where s.token = any($1) and t.status = 'approved'`,
    [tokens],
  );
  await second.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  const round = (ms: number | null) => (ms === null ? null : Math.round(ms));
  process.stdout.write(
    `${JSON.stringify({
      database: 'pglite',
      inDoubt: count,
      startMs: Math.round(ready - restart),
      gatewaySettledMs: round(gatewayMs),
      checkoutSettledMs: round(checkoutMs),
      approvedTransactions: tx[0]!.n,
    })}\n`,
  );
  if (checkoutMs === null || tx[0]!.n !== count) process.exitCode = 1;
}

await main();
