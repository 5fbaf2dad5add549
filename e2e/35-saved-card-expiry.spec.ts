/**
 * Issue 14 §6: a saved card says its brand, last four and expiry once each ("Visa ••4242, expires
 * 12/30"), from the gateway's StoredCardDetail.ExpirationDate; a card that has expired by the time
 * the list is shown is marked so and cannot be chosen. At 320 px, axe clean, light and dark.
 */
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo, test } from '@playwright/test';
import { createSession, futureExpiry, latestCode, merchantView, uniqueEmail } from './helpers/checkout.ts';
import { SCREENSHOTS } from './helpers/embed.ts';

type Request = Parameters<typeof createSession>[0];

/** A session of this shopper (the demo store's ReturnUrl). */
const session = (request: Request, email: string) =>
  createSession(request, { shopper: { email, firstName: 'Ada', lastName: 'Lovelace' } });

/** Paid, as the merchant sees it (the page may have gone back to the store already). */
async function expectPaid(request: Request, token: string): Promise<void> {
  await expect.poll(async () => (await merchantView(request, token)).status).toBe('paid');
}

async function payAndSave(page: Page, request: Request, email: string, number: string, expiry: string) {
  const s = await session(request, email);
  await page.goto(`/pay/${s.token}`);
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiration date').fill(expiry);
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Save this card for faster checkout').check();
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expectPaid(request, s.token);
}

async function unlock(page: Page, request: Request, email: string): Promise<string> {
  const s = await session(request, email);
  await page.goto(`/pay/${s.token}`);
  await page.getByRole('button', { name: 'Get a code' }).click();
  const sent = await latestCode(request, email);
  await page.getByLabel('Verification code').fill(sent.code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('group', { name: 'Saved cards' })).toBeVisible();
  return s.token;
}

async function expectAxeClean(page: Page): Promise<void> {
  const axe = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
}

/** Light and dark screenshots, each checked by axe, attached to the test's report. */
async function shoot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectAxeClean(page);
    const file = path.join(SCREENSHOTS, `${name}-${scheme}.png`);
    await page.screenshot({ path: file, fullPage: true });
    await testInfo.attach(`${name}-${scheme}`, { path: file, contentType: 'image/png' });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const yy = (ahead: number) => String((new Date().getFullYear() + ahead) % 100).padStart(2, '0');

test('saved cards say brand, last four and expiry once each, at 320 px', async ({
  page,
  request,
}, testInfo) => {
  await page.setViewportSize({ width: 320, height: 800 });
  const email = uniqueEmail('expiry');
  const visaExpiry = futureExpiry(); // this month, next year
  await payAndSave(page, request, email, '4242424242424242', visaExpiry);
  await payAndSave(page, request, email, '5555555555554444', `12/${yy(5)}`);

  const token = await unlock(page, request, email);
  const labels = await page.locator('.pf-saved label').allTextContents();
  expect(labels).toEqual([`Mastercard ••4444, expires 12/${yy(5)}`, `Visa ••4242, expires ${visaExpiry}`]);
  // Once each: no second "4242", no second brand, no "ending in" name beside it.
  for (const label of labels) {
    expect(label.match(/\d{4}(?!\/)/g)).toHaveLength(1);
    expect(label).not.toContain('ending in');
  }
  const radios = page.getByRole('group', { name: 'Saved cards' }).getByRole('radio');
  await expect(radios).toHaveCount(2);
  await expect(page.getByRole('radio', { name: `Mastercard ••4444, expires 12/${yy(5)}` })).toBeChecked();
  await expect(page.getByRole('radio', { name: `Visa ••4242, expires ${visaExpiry}` })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Remove Visa ••4242' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await shoot(page, testInfo, 'saved-cards-expiry-320');

  // The chosen card pays with its CVV typed again, as before.
  const wallet = page.getByTestId('wallet');
  await wallet.getByLabel('Security code').fill('123');
  await wallet.getByRole('button', { name: /^Pay/ }).click();
  await expectPaid(request, token);
  // Its receipt names the saved card by its brand too (issue 14 §3).
  await page.goto(`/pay/${token}`);
  await expect(page.getByTestId('receipt-card')).toHaveText('Mastercard ••4444');
});

test('a card that has expired by the shopper’s clock is marked and cannot be chosen', async ({
  page,
  request,
}, testInfo) => {
  const email = uniqueEmail('expired');
  const visaExpiry = futureExpiry();
  await payAndSave(page, request, email, '4242424242424242', visaExpiry);
  await payAndSave(page, request, email, '5555555555554444', `12/${yy(5)}`);

  // Two years on in the browser: the gateway (on today's date) still lists the Visa; it has run out.
  const later = new Date();
  later.setFullYear(later.getFullYear() + 2);
  await page.clock.setFixedTime(later);
  await unlock(page, request, email);
  const visa = page.getByRole('radio', { name: `Visa ••4242, expired ${visaExpiry}` });
  await expect(visa).toBeDisabled();
  await expect(visa).not.toBeChecked();
  await expect(page.getByRole('radio', { name: `Mastercard ••4444, expires 12/${yy(5)}` })).toBeChecked();
  // It can still be removed.
  await expect(page.getByRole('button', { name: 'Remove Visa ••4242' })).toBeEnabled();
  await shoot(page, testInfo, 'saved-cards-expired');
});
