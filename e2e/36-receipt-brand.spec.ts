/**
 * Issue 14 §3: the receipt names the card as the shopper knows it, brand mark and name and last
 * four ("Visa ••4242"), from the payment's typed CardBrand (never read out of the masked number):
 * fresh in the merchant's iframe, and on the hosted page when it is opened again after paying. At
 * 320 px, axe clean, light and dark screenshots attached.
 */
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo, test } from '@playwright/test';
import { createSession, futureExpiry, merchantView } from './helpers/checkout.ts';
import { DEMO, SCREENSHOTS } from './helpers/embed.ts';

async function shoot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const axe = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'])
      .analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);
    const file = path.join(SCREENSHOTS, `${name}-${scheme}.png`);
    await page.screenshot({ path: file, fullPage: true });
    await testInfo.attach(`${name}-${scheme}`, { path: file, contentType: 'image/png' });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('the hosted page’s receipt says "Visa ••4242" with its mark, at 320 px', async ({
  page,
  request,
}, testInfo) => {
  await page.setViewportSize({ width: 320, height: 800 });
  const s = await createSession(request);
  await page.goto(`/pay/${s.token}`);
  await page.getByLabel('Card number').fill('4242424242424242');
  await page.getByLabel('Expiration date').fill(futureExpiry());
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect.poll(async () => (await merchantView(request, s.token)).status).toBe('paid');

  // Opened again: the receipt, from the session the page carries.
  await page.goto(`/pay/${s.token}`);
  const card = page.getByTestId('receipt-card');
  await expect(card).toHaveText('Visa ••4242');
  await expect(card.locator('img[data-brand="visa"]')).toBeVisible();
  await expect(page.getByTestId('receipt')).not.toContainText('••••');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await shoot(page, testInfo, 'receipt-brand-320');
});

test('a fresh receipt in the merchant’s iframe says "Mastercard ••4444"', async ({ page }, testInfo) => {
  await page.goto(`${DEMO}/`);
  const frame = page.frameLocator('#embedded iframe');
  await frame.getByLabel('Card number').fill('5555555555554444');
  await frame.getByLabel('Expiration date').fill(futureExpiry());
  await frame.getByLabel('Security code').fill('123');
  await frame.getByRole('button', { name: /^Pay/ }).click();
  const card = frame.getByTestId('receipt-card');
  await expect(card).toHaveText('Mastercard ••4444');
  await expect(card.locator('img[data-brand="mastercard"]')).toBeVisible();
  await shoot(page, testInfo, 'receipt-brand-embed');
});
