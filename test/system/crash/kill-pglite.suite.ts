/**
 * kill -9 of a Payframe server on its embedded database under a steady stream of pays, three times
 * at random points, each time restarted on the same DATA_DIR (security-requirements.md REL-1, REL-9;
 * DESIGN.md §8). Clients retry every request that went unanswered or answered "retry" with the same
 * Idempotency-Key; afterwards every acknowledged payment is in the database, no session is charged
 * twice, and every in-doubt payment ended paid with the session's one transaction.
 */
import { describe, expect, it } from 'vitest';
import { openPglite } from '../../../server/db/pglite.ts';
import { tempDir } from '../../kit/databases.ts';
import { checkInvariants, Traffic } from './harness.ts';
import {
  readDemoMerchant,
  type ServerProcess,
  STALE_PAYMENT_SECONDS,
  sleep,
  startPayframe,
} from './servers.ts';

const KILLS = 3;
const CLIENTS = 4;

describe('kill -9 under a stream of pays (PGlite)', () => {
  it('loses no acknowledged payment and charges no session twice', { timeout: 150_000 }, async () => {
    const dataDir = tempDir('payframe-crash-');
    const env = { DATA_DIR: dataDir };
    let server: ServerProcess = await startPayframe(env);
    const port = server.port;
    const merchant = readDemoMerchant(dataDir);
    const traffic = new Traffic([server.url], merchant, CLIENTS);
    let findings;
    const finals: string[] = [];
    try {
      traffic.start();
      for (let kill = 0; kill < KILLS; kill++) {
        // A random point in the stream: 0.5–1.5 s of traffic after the (re)start (the restarts,
        // ~5–10 s each on a busy machine, are most of this test's time).
        await sleep(500 + Math.random() * 1000);
        // With a pay on its way: the kill cuts a payment mid-flight whatever the timing.
        expect(await traffic.payInFlight(server.url)).toBe(true);
        await server.kill9();
        server = await startPayframe(env, port);
        // Issue 19 §5: the payments the kill left in doubt, retried once the instance is healthy.
        const healthy = Date.now();
        const final = await traffic.inDoubtFinal(healthy, healthy + (STALE_PAYMENT_SECONDS + 12) * 1000);
        finals.push(final);
      }
      await sleep(500);
      await traffic.stop();
      // In-doubt payments resolve once their attempts are stale (then recovered, or freed to retry).
      const open = await traffic.settle(Date.now() + (STALE_PAYMENT_SECONDS + 12) * 1000);
      expect(open.map((p) => p.token)).toEqual([]);
    } finally {
      await traffic.stop();
      await server.stop();
    }
    const db = await openPglite(dataDir);
    try {
      findings = await checkInvariants(db, traffic.payments);
    } finally {
      await db.close();
    }
    expect(traffic.errors).toEqual([]);
    expect(findings.problems).toEqual([]);
    expect(findings.acknowledged).toBeGreaterThanOrEqual(10);
    // The kills landed mid-payment: some requests went unanswered and were retried.
    expect(findings.inDoubt).toBeGreaterThan(0);
    process.stdout.write(
      `kill -9 ×${KILLS} (PGlite): ${traffic.payments.length} payments, ${findings.acknowledged} acknowledged, ${findings.inDoubt} in doubt and retried; in doubt when the instance was healthy again: ${finals.join('; ')}\n`,
    );
  });
});
