/**
 * The merchant guide ("Which origins are registered") names exactly the origins the demo merchant
 * gets on first start with the default configuration (issue 14 §13), and its checkout settings (§9).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { databaseTargets, tempDir } from '../../test/kit/databases.ts';
import { ensureDemoMerchant } from './demo-merchant.ts';
import { openGateway } from './index.ts';
import { verifyPassword } from './users/password-hash.ts';
import { findUserByName, passwordProblem } from './users/user-store.ts';

const GUIDE = fs.readFileSync(new URL('../../docs/merchant-guide.md', import.meta.url), 'utf8');

describe.each(databaseTargets())('the demo merchant’s origins ($name)', (target) => {
  let db: Database;
  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(() => db?.close());

  it('are the ones the guide names', async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: tempDir() });
    const { deps } = await openGateway(config, db);
    const demo = await ensureDemoMerchant(config, db, deps.merchants);
    expect(demo?.origins).toHaveLength(2);
    const section = GUIDE.slice(GUIDE.indexOf('**Which origins are registered.**'))
      .split('\n\n')[0]!
      .replace(/\s+/g, ' ');
    expect(section).toContain(`has exactly \`${demo!.origins[0]}\` and \`${demo!.origins[1]}\``);
    // It keeps the confirmation after paying and asks no name on the card (issue 14 §9, §3).
    const merchant = await deps.merchants.get(db, demo!.merchantId);
    expect(merchant).toMatchObject({ returnMode: 'confirmation', nameOnCardRequired: false });
    expect(GUIDE.replace(/\s+/g, ' ')).toContain(
      'The demo merchant that `npm start` creates keeps the confirmation',
    );
  });

  it('has a dashboard user whose password is written beside its key', async () => {
    const dataDir = tempDir();
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
    const other = await target.open();
    try {
      const { deps } = await openGateway(config, other);
      const demo = await ensureDemoMerchant(config, other, deps.merchants);
      expect(demo?.dashboardUser).toBe('demo.admin');
      const user = await findUserByName(other, demo!.dashboardUser);
      expect(user?.merchantId).toBe(demo!.merchantId);
      expect(await verifyPassword(demo!.dashboardPassword, user!.passwordHash)).toBe(true);
      expect(passwordProblem(demo!.dashboardPassword)).toBeNull();
      const written = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-merchant.json'), 'utf8'));
      expect(written).toMatchObject({
        dashboardUser: 'demo.admin',
        dashboardPassword: demo!.dashboardPassword,
      });
      // Only on the first start.
      expect(await ensureDemoMerchant(config, other, deps.merchants)).toBeNull();
    } finally {
      await other.close();
    }
  });
});
