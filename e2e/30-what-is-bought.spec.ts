/**
 * What is bought: the session's description, line items and total — in the order pane beside the
 * payment on a wide screen, behind the bar's "Details" on a narrow one, which the keyboard opens;
 * amounts per line in cents, never floats.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { createSession } from './helpers/checkout.ts';
import { screenshot } from './helpers/embed.ts';

const ITEMS = [
  { name: 'Wool socks', quantity: 2, unitAmount: '9.99' },
  { name: 'Gift wrap', quantity: 1, unitAmount: '5.02' },
];

test('wide: the order beside the payment, its items and total open', async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const s = await createSession(request, { description: 'Winter order', lineItems: ITEMS });
  await page.goto(`/pay/${s.token}`);
  const purchase = page.getByTestId('purchase');
  await expect(purchase.locator('.pf-description')).toHaveText('Winter order');
  await expect(purchase).toBeVisible();
  await expect(purchase.getByRole('listitem')).toHaveText([
    'Wool socks × 2$19.98',
    'Gift wrap$5.02',
    'Total$25.00',
  ]);
  await expect(page.getByRole('button', { name: 'Details' })).toBeHidden();
  // The order on the start side, the payment beside it.
  const order = (await page.getByTestId('order').boundingBox())!;
  const pay = (await page.getByRole('button', { name: /^Pay/ }).boundingBox())!;
  expect(order.x + order.width).toBeLessThanOrEqual(pay.x);
  await expect(page.getByTestId('amount')).toHaveText('$25.00');
});

test('320 px: a bar with the total, its details closed until the shopper opens them, keyboard only; axe clean', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 320, height: 800 });
  const s = await createSession(request, { lineItems: ITEMS });
  await page.goto(`/pay/${s.token}`);
  const purchase = page.getByTestId('purchase');
  const toggle = page.getByRole('button', { name: 'Details' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(toggle).toHaveAttribute('aria-controls', 'pf-order-details');
  await expect(purchase).toBeHidden();
  // The bar comes before the form: Pay is right below it.
  const amount = (await page.getByTestId('amount').boundingBox())!;
  const number = (await page.getByLabel('Card number').boundingBox())!;
  expect(amount.y).toBeLessThan(number.y);
  for (let i = 0; i < 5 && !(await toggle.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Enter');
  const hide = page.getByRole('button', { name: 'Hide details' });
  await expect(hide).toHaveAttribute('aria-expanded', 'true');
  await expect(purchase.getByRole('listitem').first()).toBeVisible();
  await expect(purchase.getByRole('list')).toHaveAccessibleName('Order summary (2 items)');
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
  await page.setViewportSize({ width: 375, height: 740 });
  const s = await createSession(request, { lineItems: ITEMS, locale: 'es' });
  await page.goto(`/pay/${s.token}`);
  await page.getByRole('button', { name: 'Detalles' }).click();
  await expect(page.getByTestId('purchase').getByRole('list')).toHaveAccessibleName(
    'Resumen del pedido (2 artículos)',
  );
});
