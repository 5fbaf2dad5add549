/**
 * Issue 14 §7: two minutes before the session expires the page says so, politely (an aria-live
 * region that was there from the start), while the shopper can still finish — not after.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { createSession } from './helpers/checkout.ts';

test('a polite warning two minutes before the end, while the typed card is still there', async ({
  page,
  request,
}) => {
  await page.clock.install();
  const s = await createSession(request);
  const minutesLeft = (Date.parse(s.expiresAt) - Date.now()) / 60_000;
  await page.goto(`/pay/${s.token}`);
  await page.getByLabel('Card number').fill('4242424242424242');
  const region = page.getByTestId('expiry-warning');
  await expect(region).toHaveAttribute('aria-live', 'polite');
  await expect(region).toBeEmpty();

  await page.clock.runFor(Math.floor((minutesLeft - 2.5) * 60_000));
  await expect(region).toBeEmpty();
  await page.clock.runFor(60_000);
  await expect(region).toHaveText(
    'This payment expires in 2 minutes. Please finish now: for your security, the card details you typed are not kept after that.',
  );
  await expect(page.getByLabel('Card number')).toHaveValue('4242 4242 4242 4242');
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
});

test('in Spanish too', { tag: '@system' }, async ({ page, request }) => {
  await page.clock.install();
  const s = await createSession(request, { locale: 'es' });
  const left = Date.parse(s.expiresAt) - Date.now();
  await page.goto(`/pay/${s.token}`);
  await expect(page.getByLabel('Número de tarjeta')).toBeVisible();
  await page.clock.runFor(left - 100_000);
  await expect(page.getByTestId('expiry-warning')).toContainText('Este pago caduca dentro de 2 minutos.');
});
