/**
 * Starts Payframe in one role (config.ts `Role`): opens and migrates the database, builds the app,
 * starts the role's background jobs, listens, and shuts down gracefully on SIGTERM/SIGINT
 * (in-flight requests finish, then the database closes).
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp, buildCheckoutApp, buildGatewayApp } from './app.ts';
import type { Checkout, PredecessorRecovery } from './checkout/checkout.ts';
import { assertRoleConfig, type Config, type Role } from './config.ts';
import { type Database, describeDatabase, openDatabase } from './db/index.ts';
import { takeInstance } from './instance.ts';
import { newerMigrations } from './db/migrate.ts';
import { startDemoStore } from './demo/start-demo-store.ts';
import { type DemoMerchant, ensureDemoMerchant } from './gateway/demo-merchant.ts';
import { type Gateway, settleClaimsAtStart, startClaimSweep, startRecurringRunner } from './gateway/index.ts';
import type { ClaimSweepResult } from './gateway/payments/claim-sweep.ts';
import { startReconciliation } from './gateway/payments/reconciliation-job.ts';
import type { HealthState } from './http/health.ts';
import { createLogger } from './logger.ts';

export interface RunningServer {
  app: FastifyInstance;
  role: Role;
  url: string;
  /** Set on the first start with an empty database, when the demo is on (config.ts `demo`). */
  demo: DemoMerchant | null;
  /** The demo store on DEMO_PORT (role `all` only, the demo on). */
  demoStoreUrl: string | null;
  /** The gateway's database holds no merchant yet (and the demo made none): one must be created. */
  noMerchant: boolean;
  close(): Promise<void>;
}

export interface StartOptions {
  /**
   * Wraps the database the server opens, before anything uses it. For benchmarks that run the server
   * in-process and count its database work (server/db/counting.ts, bench/transactions.bench.ts);
   * `payframe serve` passes nothing.
   */
  wrapDatabase?: (db: Database) => Database;
  /**
   * Opens the channel the `payframe` command hands its commands over while this server holds the
   * embedded database (server/cli/handoff-server.ts); `payframe serve` passes it. Opened once the
   * server listens, closed (commands under way finish) before the database closes.
   */
  commandChannel?: (parts: {
    config: Config;
    db: Database;
    gateway: Gateway | null;
    logger: Logger;
  }) => Promise<{ close(): Promise<void> } | null>;
  /**
   * Role gateway only (`payframe serve --role gateway --spec-only`): the Transaction Service serves
   * the spec's 21 operations and no extension (app.ts `GatewayAppOptions.specOnly`).
   */
  specOnly?: boolean;
}

interface Parts {
  app: FastifyInstance;
  health: HealthState;
  gateway?: Gateway;
  checkout?: Checkout;
}

/** How long a start waits for the recovery of its predecessor's attempts before it serves anyway. */
const START_RECOVERY_MS = 5_000;

export async function startServer(
  config: Config,
  logger: Logger = createLogger({ level: config.logLevel }),
  role: Role = 'all',
  options: StartOptions = {},
) {
  assertRoleConfig(config, role); // before the database: a missing variable is not a half-started server
  // The other roles hold a checkout that needs the extensions: refused rather than ignored.
  if (options.specOnly && role !== 'gateway')
    throw new Error(`--spec-only is for --role gateway only (got --role ${role}).`);
  const opened = await openDatabase(config);
  // A newer release migrated the database and this one runs beside it (a rolling upgrade).
  const newer = await newerMigrations(opened).catch(async (err: unknown) => {
    await opened.close(); // a history this build refuses (MigrationHistoryError): nothing serves
    throw err;
  });
  if (newer.length > 0) {
    logger.warn(
      { newer: newer.map((m) => `${m.version}_${m.name}`) },
      'the database holds migrations newer than this build (a newer release is rolling out); serving on',
    );
  }
  const db = options.wrapDatabase ? options.wrapDatabase(opened) : opened;
  // On PostgreSQL, which instance this is: its predecessors' claims and attempts are settled before
  // it serves (server/instance.ts). PGlite admits one process: everything there was a predecessor's.
  const instance =
    db.kind === 'pglite' || !db.holdLock
      ? null
      : await takeInstance(config.dataDir, db.holdLock.bind(db), (err) =>
          logger.error(
            { err },
            "lost the database lock on this instance's id: another process may take the id; restart this one",
          ),
        );
  if (instance && !instance.id) {
    logger.warn(
      'another process holds this DATA_DIR or its instance id: what this one leaves in flight after a crash waits for the timeouts',
    );
  }
  const instanceOwner = instance?.owner ?? null;
  logger.info({ database: describeDatabase(config), role }, 'database ready');
  let parts: Parts;
  try {
    parts =
      role === 'gateway'
        ? await buildGatewayApp({ config, db, logger, instanceOwner, specOnly: options.specOnly ?? false })
        : role === 'checkout'
          ? await buildCheckoutApp({ config, db, logger, instanceOwner })
          : await buildApp({ config, db, logger, instanceOwner });
  } catch (err) {
    await instance?.release();
    await db.close();
    throw err;
  }
  const { app, health, gateway, checkout } = parts;
  // The demo merchant lives in the gateway's database; a checkout-only instance has no merchants.
  // Only where the demo is on (development, or PAYFRAME_DEMO=1): production starts with none.
  const demo = gateway && config.demo ? await ensureDemoMerchant(config, db, gateway.deps.merchants) : null;
  if (demo) {
    logger.info(
      { merchantId: demo.merchantId },
      'demo merchant created (key in DATA_DIR/demo-merchant.json)',
    );
  }
  const noMerchant = gateway ? (await gateway.deps.merchants.count(db)) === 0 : false;
  if (noMerchant) {
    logger.info(
      { command: 'payframe merchant create --name <name> --origin <https://shop.example>' },
      'no merchant yet: create one with `payframe merchant create` (docs/deployment.md, "First merchant")',
    );
  }
  // What a crash left in flight is settled first, before this instance serves (issue 21). A PGlite
  // database admits one process (its lock file): every claim and `started` attempt in it belongs to
  // a process that is gone, so none waits for the stale time. On PostgreSQL other live instances may
  // hold some: those this instance's predecessor left are settled now, the rest once older than
  // the claim timeout or the stale time.
  const alone = db.kind === 'pglite';
  const sweepReport = {
    onSettled: ({ recorded, released, unresolved }: ClaimSweepResult) => {
      if (recorded.length + released.length + unresolved.length === 0) return;
      logger.warn({ recorded, released, unresolved }, 'stale payment claims settled');
    },
    onError: (err: unknown, reference?: string) =>
      logger.error({ err, reference }, 'payment claim sweep failed'),
  };
  if (gateway && alone) await settleClaimsAtStart(gateway.deps, sweepReport);
  const predecessorsOf = instance?.id ?? undefined;
  let predecessors: PredecessorRecovery | undefined;
  if (predecessorsOf) {
    const failed = (what: string) => (err: unknown) =>
      logger.error({ err }, `${what} failed; the timeouts settle them`);
    if (gateway) {
      await settleClaimsAtStart(gateway.deps, sweepReport, predecessorsOf).catch(
        failed("settling the claims this instance's predecessor left"),
      );
    }
    if (checkout) {
      // Bounded: a gateway that does not answer must not keep this instance from serving; the
      // workers' runs go on with what is left.
      const recovered = checkout
        .recoverAttempts({ predecessorsOf, olderThanMs: checkout.deps.callLimitMs })
        .catch(failed("recovering the attempts this instance's predecessor left"));
      predecessors = { predecessorsOf, startRun: recovered };
      await Promise.race([
        recovered,
        new Promise((resolve) => setTimeout(resolve, START_RECOVERY_MS).unref()),
      ]);
    }
  }
  // Checkout recovery, expiry announcements, webhook delivery, pruning: at once (recovery first), then
  // every 5 s, on every instance.
  const stopCheckout = checkout
    ? checkout.startWorkers(undefined, alone ? 0 : undefined, predecessors)
    : () => {};
  const stopRecurring = gateway
    ? startRecurringRunner(gateway.deps, 60_000, (err) => logger.error({ err }, 'recurring runner failed'))
    : () => {};
  // Payment claims left by a crash: settled by the gateway itself, at start and every 10 s.
  const stopClaimSweep = gateway ? startClaimSweep(gateway.deps, sweepReport) : async () => {};
  // The invariant checked: at start and every minute (payments/reconciliation-job.ts).
  const stopReconciliation = gateway
    ? startReconciliation(gateway.deps, gateway.reconciliation, logger)
    : async () => {};
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    stopRecurring();
    stopCheckout();
    await stopClaimSweep();
    await stopReconciliation();
    await app.close();
    await db.close();
    await instance?.release();
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  // A second origin that embeds the widget as a merchant would (server/demo); beside `all` only,
  // where the demo is on.
  const demoStore = role === 'all' && config.demo ? await startDemoStore(config, url, logger) : null;
  const channel = options.commandChannel
    ? await options.commandChannel({ config, db, gateway: gateway ?? null, logger })
    : null;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      health.shuttingDown = true;
      stopRecurring();
      stopCheckout();
      await channel?.close();
      await demoStore?.close();
      await app.close();
      await stopClaimSweep(); // a pass under way ends before the database closes
      await stopReconciliation();
      await instance?.release();
      await db.close();
    })();
    return closing;
  };
  return {
    app,
    role,
    url,
    close,
    demo,
    demoStoreUrl: demoStore?.url ?? null,
    noMerchant,
  } satisfies RunningServer;
}

/** Closes the server on the first SIGTERM/SIGINT; a second signal exits at once. */
export function closeOnSignals(server: RunningServer, logger: Logger): void {
  let received = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (received) process.exit(1);
    received = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
