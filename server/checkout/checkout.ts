/**
 * The checkout server's core, without HTTP: built once from its options, used by the routes
 * (plugin.ts) and by the background work (recovery, webhook delivery, expiry announcements,
 * pruning), which every instance may run at the same time.
 */

import type { CheckoutDeps, CheckoutOptions } from './deps.ts';
import { defaultContexts } from './contexts.ts';
import { pruneKeys, releaseAbandonedKeys } from './idempotency.ts';
import { pruneOtp } from './otp.ts';
import { DEFAULT_LIMITS, MemoryRateLimiter, pruneCounters } from './rate-limit.ts';
import {
  PAY_ENDPOINT,
  RECOVERY_INTERVAL_MS,
  recoverAttempts,
  type RecoveryOptions,
  type Resolution,
} from './recovery.ts';
import { announceEndedSessions } from './session-expiry.ts';
import { deliverWebhooks } from './webhooks.ts';
import { deliverReceipts } from '../notify/receipt-queue.ts';

export interface Checkout {
  deps: CheckoutDeps;
  recoverAttempts(
    options?: Pick<RecoveryOptions, 'olderThanMs' | 'predecessorsOf'>,
  ): ReturnType<typeof recoverAttempts>;
  deliverWebhooks(): ReturnType<typeof deliverWebhooks>;
  /** Sends the receipt e-mails that are due (none without a notifier). */
  deliverReceipts(): ReturnType<typeof deliverReceipts>;
  announceEndedSessions(): Promise<number>;
  prune(): Promise<void>;
  /**
   * Recovery at once (of attempts older than `firstRecoveryOlderThanMs`, default the stale time),
   * then every job every `intervalMs`; returns a function that stops them. `predecessors`: the
   * runs also recover the attempts this instance's predecessors left (server/instance.ts) once
   * older than `deps.callLimitMs`, until a run leaves none unresolved.
   */
  startWorkers(
    intervalMs?: number,
    firstRecoveryOlderThanMs?: number,
    predecessors?: PredecessorRecovery,
  ): () => void;
}

/** The recovery of what this instance's predecessors left, as the workers go on with it. */
export interface PredecessorRecovery {
  /** This instance's id (server/instance.ts). */
  predecessorsOf: string;
  /**
   * The run the start made before serving, perhaps still going: no worker run overlaps it, and none
   * is needed when it resolved every attempt.
   */
  startRun?: Promise<Record<Resolution, number> | void>;
}

export function createCheckout(options: CheckoutOptions): Checkout {
  if (options.secret.length < 32) throw new Error('The checkout secret must be at least 32 bytes.');
  const deps: CheckoutDeps = {
    db: options.db,
    port: options.port,
    serviceMode: options.serviceMode ?? 'payframe',
    secret: options.secret,
    signer: options.signer,
    publicUrl: options.publicUrl.replace(/\/+$/, ''),
    publicOrigin: new URL(options.publicUrl).origin,
    log: options.log,
    now: options.now ?? (() => new Date()),
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    memoryLimits: new MemoryRateLimiter(),
    staleAttemptMs: options.staleAttemptMs ?? 40_000,
    webhooks: {
      timeoutMs: options.webhooks?.timeoutMs ?? 10_000,
      baseDelayMs: options.webhooks?.baseDelayMs ?? 30_000,
      maxAttempts: options.webhooks?.maxAttempts ?? 12,
      allowPrivateNetworks: options.webhooks?.allowPrivateNetworks ?? false,
    },
    contexts: { ...defaultContexts, ...options.contexts },
    threeDs: options.threeDs ?? null,
    instanceOwner: options.instanceOwner ?? null,
    callLimitMs: options.callLimitMs ?? 0,
    notifier: options.notifier ?? null,
  };
  const checkout: Checkout = {
    deps,
    recoverAttempts: (options = {}) => recoverAttempts(deps, options),
    deliverWebhooks: () => deliverWebhooks(deps),
    deliverReceipts: async () =>
      deps.notifier
        ? deliverReceipts(deps.db, { notifier: deps.notifier, log: deps.log, now: deps.now })
        : { sent: 0, retrying: 0, failed: 0 },
    announceEndedSessions: () => announceEndedSessions(deps),
    async prune() {
      await pruneKeys(deps.db, deps.now());
      await releaseAbandonedKeys(deps.db, PAY_ENDPOINT, new Date(deps.now().getTime() - deps.staleAttemptMs));
      await pruneCounters(deps.db, deps.now());
      await pruneOtp(deps.db, deps.now());
    },
    startWorkers(
      intervalMs = RECOVERY_INTERVAL_MS,
      firstRecoveryOlderThanMs?: number,
      predecessors?: PredecessorRecovery,
    ) {
      let running = false;
      let first = true;
      // Whether predecessors' attempts may be left, and whether the start's run is still going.
      let predecessorsLeft = predecessors !== undefined;
      let startRunning = predecessors?.startRun !== undefined;
      predecessors?.startRun?.then(
        (tally) => {
          startRunning = false;
          if (tally && tally.unknown === 0) predecessorsLeft = false;
        },
        () => {
          startRunning = false;
        },
      );
      const tick = async () => {
        if (running) return;
        running = true;
        try {
          const olderThanMs = first ? firstRecoveryOlderThanMs : undefined;
          first = false;
          if (predecessors && predecessorsLeft && !startRunning) {
            const tally = await checkout.recoverAttempts({
              predecessorsOf: predecessors.predecessorsOf,
              olderThanMs: deps.callLimitMs,
            });
            // Those the gateway has not decided yet (unknown) are asked about again next run; one
            // with no time it settles by waits for its turn (attempts.ts deferUndecided), and is
            // then asked by the run over every stale attempt.
            predecessorsLeft = tally.unknown > 0;
          }
          await checkout.recoverAttempts(olderThanMs === undefined ? {} : { olderThanMs });
          await checkout.announceEndedSessions();
          await checkout.deliverWebhooks();
          await checkout.deliverReceipts();
          await checkout.prune();
        } catch (err) {
          deps.log.error({ err }, 'checkout background work failed');
        } finally {
          running = false;
        }
      };
      void tick();
      const timer = setInterval(() => void tick(), intervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
  return checkout;
}
