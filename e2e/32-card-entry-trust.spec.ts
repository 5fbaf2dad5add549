/**
 * Trust at a glance: the networks' own marks inside the card number field — the accepted brands
 * before typing, the detected brand's while typing (and the brand in the field's accessible
 * description) — a spinner in the Pay button while paying, a quiet "Secured by Payframe" line.
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
  await expect(accepted.locator('img')).toHaveCount(4);
  // Inside the number's box, at its end; at 320 px three of them fit beside the placeholder.
  const field = (await page.getByLabel('Card number').boundingBox())!;
  const marks = (await accepted.boundingBox())!;
  expect(marks.x).toBeGreaterThan(field.x);
  expect(marks.x + marks.width).toBeLessThanOrEqual(field.x + field.width);
  expect(marks.y).toBeGreaterThanOrEqual(field.y);
  expect(marks.y + marks.height).toBeLessThanOrEqual(field.y + field.height);
  // Real SVG files of the build, not drawings in the page's script.
  const src = await accepted.locator('img[data-brand="visa"]').getAttribute('src');
  expect(src).toMatch(/^\/assets\/visa-[\w-]+\.svg$/);
  expect((await page.request.get(src!)).headers()['content-type']).toMatch(/^image\/svg\+xml/);
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
  await expect(page.locator('img[data-brand="visa"]')).toBeVisible();
  await expect(number).toHaveAccessibleDescription(/Visa$/);
  await number.fill('5555555555554444');
  await expect(page.locator('img[data-brand="mastercard"]')).toBeVisible();
  await expect(number).toHaveAccessibleDescription(/Mastercard$/);

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
