/**
 * The browser tests run in two Playwright workers ("lanes"), each with a Payframe server of its own
 * (the compiled one, `npm start` with the demo asked for, PAYFRAME_DEMO=1, started by
 * playwright.config.ts): one lane's shoppers never share
 * a server's per-address limits, clock or demo merchant with the other's. Lane n's server listens
 * on E2E_PORT + 2n (3100 by default), its demo store on the port after, and its data directory is
 * `lane-n` under PAYFRAME_E2E_DATA_DIR. A spec that starts servers of its own uses E2E_PORT + 50 and
 * up, each spec its own offset (a spec runs in one lane).
 */
import path from 'node:path';

export const LANES = 2;
export const BASE_PORT = Number(process.env.E2E_PORT ?? 3100);

/** This process's lane: Playwright's TEST_PARALLEL_INDEX in a worker, 0 elsewhere. */
export const LANE = Number(process.env.TEST_PARALLEL_INDEX ?? 0) % LANES;

export function lanePorts(lane: number = LANE): { port: number; demoPort: number } {
  return { port: BASE_PORT + 2 * lane, demoPort: BASE_PORT + 2 * lane + 1 };
}

/** The data directory of a lane's server (its demo-merchant.json among its files). */
export function laneDataDir(lane: number = LANE): string {
  const root = process.env.PAYFRAME_E2E_DATA_DIR;
  if (!root) throw new Error('PAYFRAME_E2E_DATA_DIR is not set: run the tests through playwright.config.ts');
  return path.join(root, `lane-${lane}`);
}
