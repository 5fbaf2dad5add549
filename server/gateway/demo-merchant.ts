/**
 * On first start with an empty database, a demo merchant is created so a newcomer can try every
 * flow at once (the demo store on DEMO_PORT is its registered origin), with a dashboard user. Its
 * id and key, and the user's name and password, are printed and written to
 * DATA_DIR/demo-merchant.json (mode 0600).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { MerchantStore } from './merchants/merchant-store.ts';
import { createUser } from './users/user-store.ts';

/** The demo merchant's dashboard user (docs/dashboard.md); `payframe user create` adds others. */
export const DEMO_DASHBOARD_USER = 'demo.admin';

/** An arbitrary constant naming this step among the database's advisory locks. */
const DEMO_LOCK_KEY = 7_311_542_002;

export interface DemoMerchant {
  merchantId: string;
  transactionKey: string;
  publicCode: string;
  origins: string[];
  dashboardUser: string;
  /** Random, shown once at first start; the user enrols its second factor at its first sign-in. */
  dashboardPassword: string;
}

export async function ensureDemoMerchant(
  config: Config,
  db: Database,
  merchants: MerchantStore,
): Promise<DemoMerchant | null> {
  const created = await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [DEMO_LOCK_KEY]);
    if ((await merchants.count(tx)) > 0) return null;
    const { merchant, transactionKey } = await merchants.create(tx, {
      name: 'Payframe Demo Store',
      businessName: 'Payframe Demo Store',
      origins: [`http://localhost:${config.demoPort}`, `http://127.0.0.1:${config.demoPort}`],
      threeDsEnrolled: true,
      email: 'demo@payframe.invalid',
      website: `http://localhost:${config.demoPort}`,
      // The demo keeps the receipt until the shopper returns (issue 14 §9), so a newcomer sees both
      // the receipt and the signed redirect; a merchant made otherwise returns at once.
      returnMode: 'confirmation',
    });
    // Letters and digits, 128 random bits (user-store.ts passwordProblem).
    const dashboardPassword = `pf${crypto.randomInt(10, 100)}${crypto.randomBytes(16).toString('base64url')}`;
    await createUser(tx, {
      merchantId: merchant.id,
      username: DEMO_DASHBOARD_USER,
      password: dashboardPassword,
      email: 'demo@payframe.invalid',
    });
    return {
      merchantId: merchant.id,
      transactionKey,
      publicCode: merchant.publicCode,
      origins: merchant.origins,
      dashboardUser: DEMO_DASHBOARD_USER,
      dashboardPassword,
    };
  });
  if (created) {
    fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(
      path.join(config.dataDir, 'demo-merchant.json'),
      `${JSON.stringify(created, null, 2)}\n`,
      { mode: 0o600 },
    );
  }
  return created;
}
