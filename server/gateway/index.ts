/**
 * Opens the gateway on a database: keys, vault, processor simulator, 3-D Secure sandbox, stores,
 * and the Transaction Service implementation over them.
 */
import crypto from 'node:crypto';
import type { TransactionService } from '../../shared/contract/service.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { createNotifier } from '../notify/notifier.ts';
import type { CallContext } from './port.ts';
import { createGateway } from './gateway.ts';
import type { GatewayDeps } from './gateway-call.ts';
import { MerchantStore } from './merchants/merchant-store.ts';
import {
  CLAIM_SWEEP_BATCH,
  CLAIM_SWEEP_INTERVAL_MS,
  type ClaimSweepResult,
  settleStaleClaims,
} from './payments/claim-sweep.ts';
import { ReconciliationStatus } from './payments/reconciliation-job.ts';
import { runDueSchedules } from './payments/recurring-runner.ts';
import { DatabaseLedger } from './processor/ledger.ts';
import { SimulatorProcessor } from './processor/simulator.ts';
import { CheckoutSessionStore } from './sessions/checkout-session-store.ts';
import { ThreeDsService } from './three-ds/three-ds-service.ts';
import { CardVault } from './vault/card-vault.ts';
import type { VaultKeys } from './vault/keys.ts';
import { loadVaultKeys } from './vault/rotation.ts';

export interface Gateway {
  service: TransactionService<CallContext>;
  deps: GatewayDeps;
  keys: VaultKeys;
  /** The last reconciliation's report (payments/reconciliation-job.ts). */
  reconciliation: ReconciliationStatus;
}

export async function openGateway(
  config: Config,
  db: Database,
  now: () => Date = () => new Date(),
  instanceOwner: string | null = null,
): Promise<Gateway> {
  // The configured keys with the stored lookup keys (vault/rotation.ts), so rotation keeps card ids.
  const keys = await loadVaultKeys(config, db);
  const deps: GatewayDeps = {
    db,
    merchants: new MerchantStore(keys),
    secrets: keys,
    sessions: new CheckoutSessionStore(config.sessionTtlMinutes, now),
    vault: new CardVault(keys),
    processor: new SimulatorProcessor({ ledger: new DatabaseLedger(db), now }),
    // The sandbox ACS signs CAVVs under a key derived from the vault key (it derives its own sub-key).
    threeDs: new ThreeDsService({
      secret: crypto.createHash('sha256').update(keys.fingerprintPan('payframe/3ds')).digest(),
      now,
    }),
    serviceKey: config.gatewayServiceKey,
    publicUrl: config.publicUrl,
    checkoutPublicUrl: config.checkoutPublicUrl,
    notifier: createNotifier(config, db),
    now,
    claimTimeoutMs: config.stalePaymentMs / 2,
    userIdleMinutes: config.dashboardIdleMinutes,
    instanceOwner,
  };
  return { service: createGateway(deps), deps, keys, reconciliation: new ReconciliationStatus() };
}

/** Runs the recurring runner every `intervalMs`; returns a function that stops it. */
export function startRecurringRunner(
  deps: GatewayDeps,
  intervalMs: number,
  onError: (err: unknown) => void,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    runDueSchedules(deps)
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Settles the payment claims left by attempts cut short (claim-sweep.ts): at once, then every
 * `intervalMs` (default: 10 s, or the claim timeout when shorter), one pass at a time. Returns a
 * function that stops it and resolves once a pass under way has ended, so shutdown can close the
 * database after it.
 */
export function startClaimSweep(
  deps: GatewayDeps,
  report: {
    onSettled: (result: ClaimSweepResult) => void;
    onError: (err: unknown, reference?: string) => void;
  },
  intervalMs = Math.min(CLAIM_SWEEP_INTERVAL_MS, deps.claimTimeoutMs ?? CLAIM_SWEEP_INTERVAL_MS),
): () => Promise<void> {
  let pass: Promise<void> | null = null;
  const run = () => {
    if (pass) return;
    pass = settleStaleClaims(deps, { onError: report.onError })
      .then(report.onSettled, report.onError)
      .finally(() => {
        pass = null;
      });
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await pass;
  };
}

/**
 * Settles every claim held before now, whatever its age, until none is left, before this process
 * serves: all of them at the start of the only process on the database (PGlite), or on PostgreSQL
 * those this instance's predecessors left (`predecessorsOf`: its id, server/instance.ts): no live
 * attempt holds them.
 */
export async function settleClaimsAtStart(
  deps: GatewayDeps,
  report: {
    onSettled: (result: ClaimSweepResult) => void;
    onError: (err: unknown, reference?: string) => void;
  },
  predecessorsOf?: string,
): Promise<void> {
  const since = deps.now().getTime();
  for (;;) {
    // Claims taken by this loop carry a renewed time: only those held before it started are taken.
    const result = await settleStaleClaims(deps, {
      olderThanMs: deps.now().getTime() - since,
      ...(predecessorsOf === undefined ? {} : { predecessorsOf }),
      onError: report.onError,
    });
    report.onSettled(result);
    if (result.recorded.length + result.released.length + result.unresolved.length < CLAIM_SWEEP_BATCH)
      return;
  }
}
