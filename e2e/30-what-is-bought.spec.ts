/**
 * Issue 14 §4: the session's description and line items, above the amount — open on a wide screen,
 * a closed disclosure at 320 px that the keyboard opens; amounts per line in cents, never floats.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { createSession } from './helpers/checkout.ts';
import { screenshot } from './helpers/embed.ts';

const ITEMS = [
  { name: 'Wool socks', quantity: 2, unitAmount: '9.99' },
  { name: 'Gift wrap', quantity: 1, unitAmount: '5.02' },
];

test('wide: description and items above the amount, open', async ({ page, request }) => {
  await page.setViewportSize({ width: 1024, height: 800 });
  const s = await createSession(request, { description: 'Winter order', lineItems: ITEMS });
  await page.goto(`/pay/${s.token}`);
  const purchase = page.getByTestId('purchase');
  await expect(purchase.locator('summary')).toHaveText('Winter order');
  await expect(purchase).toHaveAttribute('open', '');
  await expect(purchase.getByRole('listitem')).toHaveText(['Wool socks × 2$19.98', 'Gift wrap$5.02']);
  const above = (await purchase.boundingBox())!.y < (await page.getByTestId('amount').boundingBox())!.y;
  expect(above).toBe(true);
  await expect(page.getByTestId('amount')).toHaveText('$25.00');
});

test('320 px: closed until the shopper opens it, keyboard only; axe clean', async ({ page, request }) => {
  await page.setViewportSize({ width: 320, height: 800 });
  const s = await createSession(request, { lineItems: ITEMS });
  await page.goto(`/pay/${s.token}`);
  const purchase = page.getByTestId('purchase');
  const summary = purchase.locator('summary');
  await expect(summary).toHaveText('Order summary (2 items)');
  await expect(purchase).not.toHaveAttribute('open', '');
  await expect(purchase.getByRole('listitem').first()).toBeHidden();
  for (let i = 0; i < 5 && !(await summary.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(summary).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(purchase.getByRole('listitem').first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await screenshot(page, `line-items-${scheme}-320`);
  }
});

test('in Spanish', { tag: '@system' }, async ({ page, request }) => {
  const s = await createSession(request, { lineItems: ITEMS, locale: 'es' });
  await page.goto(`/pay/${s.token}`);
  await expect(page.getByTestId('purchase').locator('summary')).toHaveText(
    'Resumen del pedido (2 artículos)',
  );
});
