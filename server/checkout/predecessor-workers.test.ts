/**
 * The workers' recovery of what this instance's predecessors left (server/instance.ts,
 * server/checkout/README.md "Recovery"): it runs until a run leaves no attempt unresolved, then
 * stops; it never overlaps the run the start made before serving, and is not repeated when that
 * run resolved everything.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { databaseTargets } from '../../test/kit/databases.ts';
import type { Checkout } from './checkout.ts';
import type { Resolution } from './recovery.ts';
import { type CheckoutWorld, openCheckoutWorld } from '../../test/kit/checkout/checkout-world.ts';

type Tally = Record<Resolution, number>;

/** Counts the workers' runs (each ends with prune) and their recoveries of predecessors' attempts. */
function watch(checkout: Checkout) {
  const seen = { runs: 0, predecessorRuns: 0 };
  const recover = checkout.recoverAttempts.bind(checkout);
  checkout.recoverAttempts = (options = {}) => {
    if (options.predecessorsOf) seen.predecessorRuns++;
    return recover(options);
  };
  const prune = checkout.prune.bind(checkout);
  checkout.prune = async () => {
    await prune();
    seen.runs++;
  };
  return seen;
}

describe.each(databaseTargets())("the workers' recovery of predecessors' attempts ($name)", (target) => {
  let w: CheckoutWorld | undefined;
  let stop: (() => void) | undefined;
  afterEach(async () => {
    stop?.();
    await w?.close();
  });

  async function world() {
    w = await openCheckoutWorld(await target.open());
    w.checkout.deps.instanceOwner = 'a.second';
    return w;
  }

  it('runs once when nothing is left, not on every run after', async () => {
    const { checkout } = await world();
    const seen = watch(checkout);
    stop = checkout.startWorkers(5, undefined, { predecessorsOf: 'a' });
    await vi.waitFor(() => expect(seen.runs).toBeGreaterThanOrEqual(4), { timeout: 20_000 });
    expect(seen.predecessorRuns).toBe(1);
  });

  it("does not repeat the start's run when it resolved every attempt", async () => {
    const { checkout } = await world();
    const seen = watch(checkout);
    const startRun = Promise.resolve<Tally>({ succeeded: 1, failed: 0, unknown: 0 });
    stop = checkout.startWorkers(5, undefined, { predecessorsOf: 'a', startRun });
    await vi.waitFor(() => expect(seen.runs).toBeGreaterThanOrEqual(4), { timeout: 20_000 });
    expect(seen.predecessorRuns).toBe(0);
  });

  it("waits while the start's run goes on, and goes on after it when it left some undecided", async () => {
    const { checkout } = await world();
    const seen = watch(checkout);
    let finish: (tally: Tally) => void = () => {};
    const startRun = new Promise<Tally>((resolve) => (finish = resolve));
    stop = checkout.startWorkers(5, undefined, { predecessorsOf: 'a', startRun });
    await vi.waitFor(() => expect(seen.runs).toBeGreaterThanOrEqual(3), { timeout: 20_000 });
    expect(seen.predecessorRuns).toBe(0);
    finish({ succeeded: 0, failed: 0, unknown: 1 });
    const after = seen.runs;
    await vi.waitFor(() => expect(seen.runs).toBeGreaterThanOrEqual(after + 3), { timeout: 20_000 });
    // One run of its own, which found nothing left undecided (this database has no such attempt).
    expect(seen.predecessorRuns).toBe(1);
  });
});
