/**
 * The hosted page's end states and its embed mode: an expired session (on a second server whose
 * clock the test moves: e2e/helpers/shift-clock.mjs), a canceled one, and the page inside a
 * merchant's iframe telling its parent what happens, by exact-origin postMessage only.
 */
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import {
  createSession,
  DEMO_URL,
  demoMerchant,
  futureExpiry,
  merchantView,
  PAYFRAME_URL,
} from './helpers/checkout.ts';
import { type PayframeServer, startPayframeServer } from './helpers/payframe-server.ts';

const SHOTS = path.resolve('test-results/screenshots');

test.describe('expired session', () => {
  const port = Number(process.env.E2E_PORT ?? 3100) + 50;
  let server: PayframeServer;

  test.beforeAll(async () => {
    server = await startPayframeServer({ port, prefix: 'payframe-e2e-clock-', shiftClock: true });
  });
  test.afterAll(() => server.stop());

  test('shows "expired" instead of the form, and the form turns to it too', async ({ page, request }) => {
    const merchant = demoMerchant(server.dataDir);
    const s = await createSession(request, { returnUrl: `${server.store}/return` }, server.base, merchant);
    await page.goto(`${server.base}/pay/${s.token}`);
    await expect(page.getByLabel('Card number')).toBeVisible();
    server.shiftClock(); // two hours later on the server
    await page.getByLabel('Card number').fill('4242424242424242');
    await page.getByLabel('Expiration date').fill(futureExpiry());
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: /^Pay/ }).click();
    await expect(page.getByRole('heading', { name: 'This payment link has expired' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'This payment link has expired' })).toBeVisible();
    await expect(page.getByLabel('Card number')).toHaveCount(0);
    // Nothing is due on a session that can no longer be paid (issue 14 §5).
    await expect(page.getByText('Amount due')).toHaveCount(0);
    const axe = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'])
      .analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);
    fs.mkdirSync(SHOTS, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 700 });
        await page.screenshot({
          path: path.join(SHOTS, `hosted-expired-${scheme}-${width}.png`),
          fullPage: true,
        });
      }
    }
  });
});

test('cancel: asks first, then the session can no longer be paid', async ({ page, request }) => {
  const s = await createSession(request);
  await page.goto(`/pay/${s.token}`);
  await page.getByRole('button', { name: 'Cancel payment' }).click();
  // Focus follows the question and the answer (the control that had it is replaced each time).
  await expect(page.getByRole('button', { name: 'No, continue paying' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Cancel payment' })).toBeFocused();
  await expect(page.getByLabel('Card number')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel payment' }).click();
  await page.getByRole('button', { name: 'Yes, cancel the payment' }).click();
  await expect(page.getByRole('heading', { name: 'Payment canceled' })).toBeVisible();
  expect((await merchantView(request, s.token)).status).toBe('canceled');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Payment canceled' })).toBeVisible();
});

test('embed mode: exact-origin messages to the framing page, no card data, no redirect', async ({ page }) => {
  // The demo store's plain-iframe page frames /pay/<token>?embed=1 from a registered origin.
  await page.addInitScript(() => {
    const w = window as unknown as { got: unknown[] };
    w.got = [];
    addEventListener('message', (e) => w.got.push({ origin: e.origin, data: e.data }));
  });
  await page.goto(`${DEMO_URL}/plain`);
  const frame = page.frameLocator('iframe[title="Secure payment form"]');
  await frame.getByLabel('Card number').fill('4242424242424242');
  await frame.getByLabel('Expiration date').fill(futureExpiry());
  await frame.getByLabel('Security code').fill('123');
  await frame.getByRole('button', { name: /^Pay/ }).click();
  await expect(frame.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  await expect(frame.getByRole('link', { name: /Return to/ })).toHaveCount(0);

  const got = (await page.evaluate(() => (window as unknown as { got: unknown[] }).got)) as {
    origin: string;
    data: { source: string; v: number; instance: string; type: string; data?: Record<string, unknown> };
  }[];
  const ours = got.filter((m) => m.data?.source === 'payframe');
  expect(ours.every((m) => m.origin === PAYFRAME_URL && m.data.v === 2 && m.data.instance === '')).toBe(true);
  const types = ours.map((m) => m.data.type);
  expect(types).toContain('ready');
  expect(types).toContain('resize');
  const success = ours.find((m) => m.data.type === 'success');
  expect(success?.data.data).toMatchObject({ amount: '24.99', status: 'succeeded' });
  expect(JSON.stringify(got)).not.toMatch(/4242|cvv|expiry/i);
  await page.waitForTimeout(500);
  expect(page.url()).toBe(`${DEMO_URL}/plain`);
});
