/**
 * Runs reconciliation (reconciliation.ts) on every gateway instance — at start and every minute, one
 * check at a time — and tells what it found: a log line with the references, the gauge
 * `payframe_unreconciled_charges`, and a warning in `/readyz` (readiness stays 200: a discrepancy is
 * for a person to look at, and taking every instance out of the balancer would not mend it).
 *
 * Each instance checks the same database, so each reports the same count: alert on the maximum over
 * instances, not the sum.
 */
import type { FastifyInstance } from 'fastify';
import { Gauge } from 'prom-client';
import type { HealthState } from '../../http/health.ts';
import { metricsOf } from '../../http/metrics.ts';
import type { GatewayDeps } from '../gateway-call.ts';
import { RECONCILIATION_INTERVAL_MS, type ReconciliationReport, reconcile } from './reconciliation.ts';

/** The last check's report, shared by the job, the gauge and the health answer of one instance. */
export class ReconciliationStatus {
  last: ReconciliationReport | null = null;

  get unreconciled(): number {
    return this.last?.discrepancies.length ?? 0;
  }
}

/** The gauge and the `/readyz` warning of this app, from `status`. */
export function reportReconciliation(
  app: FastifyInstance,
  health: HealthState,
  status: ReconciliationStatus,
) {
  new Gauge({
    name: 'payframe_unreconciled_charges',
    help: 'Discrepancies the last reconciliation found between the processor, the transactions and the paid checkout sessions (0 when all agree).',
    registers: [metricsOf(app).registry],
    collect() {
      this.set(status.unreconciled);
    },
  });
  health.warnings = {
    ...health.warnings,
    reconciliation: () =>
      status.last && status.unreconciled > 0
        ? { unreconciledCharges: status.unreconciled, checkedAt: status.last.checkedAt.toISOString() }
        : null,
  };
}

export interface ReconciliationLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Checks now and every `intervalMs`; returns a function that stops and awaits a check under way. */
export function startReconciliation(
  deps: GatewayDeps,
  status: ReconciliationStatus,
  log: ReconciliationLog,
  intervalMs = RECONCILIATION_INTERVAL_MS,
): () => Promise<void> {
  let pass: Promise<void> | null = null;
  const run = () => {
    if (pass) return;
    pass = reconcile(deps, {
      onError: (err, reference) => log.error({ err, reference }, 'reconciliation: a repair failed'),
    })
      .then((report) => {
        status.last = report;
        const { repaired, discrepancies } = report;
        if (repaired && repaired.recorded.length + repaired.released.length > 0) {
          log.warn(
            { recorded: repaired.recorded, released: repaired.released },
            'reconciliation: in-doubt claims settled',
          );
        }
        // References, session and transaction ids only: nothing of a card or an account.
        if (discrepancies.length > 0) {
          log.warn(
            { unreconciled: discrepancies.length, discrepancies },
            'reconciliation: unreconciled charges',
          );
        }
      })
      .catch((err: unknown) => log.error({ err }, 'reconciliation failed'))
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
