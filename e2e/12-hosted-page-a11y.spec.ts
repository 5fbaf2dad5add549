/**
 * The hosted page for every shopper: axe-core on each screen, the whole card flow with the keyboard
 * only, 320 px without horizontal scrolling, Spanish, and screenshots of each screen in light and
 * dark, wide and narrow (test-results/screenshots/hosted-*.png).
 */
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { createSession, futureExpiry, merchantView } from './helpers/checkout.ts';

const SHOTS = path.resolve('test-results/screenshots');

/** No WCAG 2.2 A/AA violation axe can find on the page as it is now. */
async function expectAccessible(page: Page) {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(
    result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

async function expectNoHorizontalScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

/** The screen in light and dark, at 1280 and 375 px (and 320 px for the horizontal-scroll check). */
async function shoot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({
        path: path.join(SHOTS, `hosted-${name}-${scheme}-${width}.png`),
        fullPage: true,
      });
    }
    await expectAccessible(page);
  }
  await page.setViewportSize({ width: 320, height: 640 });
  await expectNoHorizontalScroll(page);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(size);
}

test(
  'every screen passes axe, fits 320 px, light and dark (form, errors, code, 3-D Secure, receipt)',
  { tag: '@system' },
  async ({ page, request }) => {
    // Every screen in two colour schemes, each scanned by axe: near 30 s on a busy machine.
    test.slow();
    // Five screens × (4 screenshots + 2 axe runs): over 30 s on a busy 2-core machine (it timed out
    // there at 6346f62 too, before issue 14's changes).
    test.setTimeout(90_000);
    const s = await createSession(request);
    await page.goto(`/pay/${s.token}`);
    await expect(page.getByLabel('Card number')).toBeVisible();
    await shoot(page, 'form');

    await page.getByRole('button', { name: /^Pay/ }).click();
    await expect(page.getByTestId('form-summary')).toHaveText('Please correct 3 fields.');
    await shoot(page, 'errors');

    await page.getByRole('radio', { name: 'Bank account' }).check();
    await expect(page.getByLabel('Routing number')).toBeVisible();
    await shoot(page, 'ach');
    await page.getByRole('radio', { name: 'Card' }).check();

    await page.getByRole('button', { name: 'Get a code' }).click();
    await expect(page.getByLabel('Verification code')).toBeVisible();
    await shoot(page, 'code');
    await page.getByRole('button', { name: 'Use another card' }).click();

    await page.getByLabel('Card number').fill('4000000000003220');
    await page.getByLabel('Expiration date').fill(futureExpiry());
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: /^Pay/ }).click();
    const bank = page.frameLocator('iframe[title="Bank verification"]');
    await expect(bank.getByRole('button', { name: 'Authenticate' })).toBeVisible();
    await shoot(page, '3ds');
    await bank.getByRole('button', { name: 'Authenticate' }).click();

    await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible({ timeout: 10_000 });
    await shoot(page, 'receipt');
  },
);

test('the whole card flow with the keyboard only', async ({ page, request }) => {
  const s = await createSession(request);
  await page.goto(`/pay/${s.token}`);
  await expect(page.getByLabel('Card number')).toBeVisible();
  const focused = () =>
    page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent || '');

  // Tab order: the way back to the store (issue 14 §1), payment method, saved cards, then the
  // card fields in reading order.
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('← Back to Payframe Demo Store');
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('method-card');
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('Get a code');
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('cc-number');
  await page.keyboard.type('4242424242424242');
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('cc-exp');
  await page.keyboard.type(futureExpiry().replace('/', ''));
  await expect(page.getByLabel('Expiration date')).toHaveValue(futureExpiry());
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('cc-csc');
  await page.keyboard.type('123');
  // No name on the card and no postal code: the demo merchant asks for neither.
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('save-card');
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('Pay $25.00');
  // A visible focus indicator on the button.
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
  expect(outline).not.toBe('none');
  await page.keyboard.press('Enter');

  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeFocused();
  // The demo merchant keeps the confirmation (issue 14 §9): no countdown, the way back is a link.
  await expect(page.getByRole('timer')).toHaveCount(0);
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('Return to Payframe Demo Store');
  expect((await merchantView(request, s.token)).status).toBe('paid');
});

test('Spanish: from the session locale, or ?locale=es', { tag: '@system' }, async ({ page, request }) => {
  const s = await createSession(request, { locale: 'es' });
  await page.goto(`/pay/${s.token}`);
  await expect(page.getByLabel('Número de tarjeta')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByTestId('amount')).toHaveText(/25,00\sUS\$/);
  await page.getByRole('button', { name: /^Pagar 25,00/ }).click();
  await expect(page.getByTestId('form-summary')).toHaveText('Corrija 3 campos.');
  await expect(page.locator('#cc-number-error')).toHaveText('Introduzca el número de tarjeta.');
  await page.getByLabel('Número de tarjeta').fill('4000000000000002');
  await page.getByLabel('Fecha de caducidad').fill(futureExpiry());
  await page.getByLabel('Código de seguridad').fill('123');
  await page.getByRole('button', { name: /^Pagar/ }).click();
  await expect(page.getByRole('alert')).toContainText('Su tarjeta fue rechazada. Use otra tarjeta.');
  await expectAccessible(page);

  const en = await createSession(request);
  await page.goto(`/pay/${en.token}?locale=es`);
  await expect(page.getByRole('radio', { name: 'Cuenta bancaria' })).toBeVisible();
});
