/**
 * Issue 14 §3 (in part): accepted brands as small SVG marks before typing, the detected brand's
 * mark while typing (and the brand in the number field's accessible description), a spinner in
 * the Pay button while paying, a quiet "Secured by Payframe" line.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { createSession, futureExpiry } from './helpers/checkout.ts';

test('brand marks before and while typing; spinner while paying; secured line (320 px)', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 320, height: 800 });
  const s = await createSession(request);
  await page.goto(`/pay/${s.token}`);
  const accepted = page.getByRole('img', {
    name: 'Accepted cards: Visa, Mastercard, American Express, Discover',
  });
  await expect(accepted).toBeVisible();
  await expect(accepted.locator('svg')).toHaveCount(4);
  await expect(page.getByTestId('secured')).toHaveText('Secured by Payframe');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  expect(
    (
      await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa']).analyze()
    ).violations.map((v) => v.id),
  ).toEqual([]);

  const number = page.getByLabel('Card number');
  await number.fill('4242');
  await expect(accepted).toHaveCount(0);
  await expect(page.locator('svg[data-brand="visa"]')).toBeVisible();
  await expect(number).toHaveAccessibleDescription('Visa');
  await number.fill('5555555555554444');
  await expect(page.locator('svg[data-brand="mastercard"]')).toBeVisible();
  await expect(number).toHaveAccessibleDescription('Mastercard');

  // A slow answer: the button shows a spinner and says it is working.
  await page.route('**/api/checkout/sessions/*/pay', async (route) => {
    const res = await route.fetch();
    await new Promise((r) => setTimeout(r, 1_000));
    await route.fulfill({ response: res });
  });
  await page.getByLabel('Expiration date').fill(futureExpiry());
  await page.getByLabel('Security code').fill('123');
  const pay = page.getByRole('button', { name: /^Pay/ });
  await pay.click();
  const busy = page.locator('button.pf-pay[data-busy="true"]');
  await expect(busy).toHaveText('Processing…');
  await expect(busy.locator('.pf-spinner')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
});

test('in Spanish', { tag: '@system' }, async ({ page, request }) => {
  const s = await createSession(request, { locale: 'es' });
  await page.goto(`/pay/${s.token}`);
  await expect(page.getByTestId('secured')).toHaveText('Protegido por Payframe');
  await expect(
    page.getByRole('img', { name: 'Tarjetas aceptadas: Visa, Mastercard, American Express, Discover' }),
  ).toBeVisible();
});
