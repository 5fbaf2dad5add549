/**
 * The page's geometry, pinned (checkout-design.md "Layout"): at 960 px and wider the order and the
 * payment side by side, Pay in view without scrolling at 1280×800 with two and with five line
 * items; below, the order folded into a bar and Pay in view at 375×740 for a card session with the
 * shopper's e-mail and two line items; at 320 px nothing wider than the screen, expiry and CVC on
 * one row, the method tabs on one line; right to left, all of it mirrored. The page is rendered on
 * the server: its form is there before any script runs. Inside a merchant's page, `layout:
 * 'fields'` shows the payment fields only, and a modal's words are the form's, in its language.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { createSession } from './helpers/checkout.ts';
import { DEMO } from './helpers/embed.ts';

const ITEMS = [
  { name: 'Merino wool sweater', quantity: 1, unitAmount: '89.00' },
  { name: 'Leather gloves', quantity: 2, unitAmount: '24.50' },
  { name: 'Wool scarf', quantity: 1, unitAmount: '35.00' },
  { name: 'Beanie', quantity: 1, unitAmount: '19.00' },
  { name: 'Socks (3 pairs)', quantity: 1, unitAmount: '12.00' },
];
const total = (n: number) =>
  (
    ITEMS.slice(0, n).reduce((sum, i) => sum + Math.round(Number(i.unitAmount) * 100) * i.quantity, 0) / 100
  ).toFixed(2);

async function expectAccessible(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

const box = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!;

for (const n of [2, 5]) {
  test(`1280×800, ${n} line items: the order and the payment side by side, Pay in view`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const s = await createSession(request, { amount: total(n), lineItems: ITEMS.slice(0, n) });
    await page.goto(`/pay/${s.token}`);
    const pay = page.getByRole('button', { name: /^Pay/ });
    await expect(pay).toBeEnabled();
    const order = await box(page, '.pf-order');
    const pane = await box(page, '.pf-pay-pane');
    // Two panes: the order on the left (the start side), the payment on the right, both from the top.
    expect(order.x).toBe(0);
    expect(Math.round(order.x + order.width)).toBeLessThanOrEqual(Math.round(pane.x));
    expect(order.width).toBeGreaterThan(500);
    expect(pane.width).toBeGreaterThan(500);
    expect(Math.abs(order.y - pane.y)).toBeLessThan(1);
    const payBox = (await pay.boundingBox())!;
    expect(payBox.y + payBox.height).toBeLessThanOrEqual(800);
    await expect(page.getByTestId('purchase').getByRole('listitem')).toHaveCount(n + 1); // the items and the total
    await expectAccessible(page);
  });
}

test('375×740, an e-mail and two line items: the order folded into a bar, Pay in view', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  const s = await createSession(request, { amount: total(2), lineItems: ITEMS.slice(0, 2) });
  expect(s.email).toBeTruthy();
  await page.goto(`/pay/${s.token}`);
  const pay = page.getByRole('button', { name: /^Pay/ });
  await expect(pay).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Details' })).toBeVisible();
  await expect(page.getByTestId('purchase')).toBeHidden();
  // One column: the order's bar above the payment.
  const order = await box(page, '.pf-order');
  const pane = await box(page, '.pf-pay-pane');
  expect(order.y + order.height).toBeLessThanOrEqual(pane.y + 1);
  const payBox = (await pay.boundingBox())!;
  expect(payBox.y + payBox.height).toBeLessThanOrEqual(740);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectAccessible(page);
  }
});

test('320×640: nothing wider than the screen, expiry and CVC on one row, the method tabs on one line', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 320, height: 640 });
  const s = await createSession(request, { lineItems: ITEMS.slice(0, 2), amount: total(2) });
  await page.goto(`/pay/${s.token}`);
  await expect(page.getByRole('button', { name: /^Pay/ })).toBeEnabled();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  const expiry = (await page.getByLabel('Expiration date').boundingBox())!;
  const cvc = (await page.getByLabel('Security code').boundingBox())!;
  expect(expiry.y).toBe(cvc.y);
  expect(expiry.height).toBe(cvc.height);
  expect(expiry.x + expiry.width).toBeLessThanOrEqual(cvc.x + 1);
  const number = (await page.getByLabel('Card number').boundingBox())!;
  // The number across the group, expiry and CVC sharing its bottom border.
  expect(Math.abs(number.x - expiry.x)).toBeLessThanOrEqual(1);
  expect(Math.abs(number.x + number.width - (cvc.x + cvc.width))).toBeLessThanOrEqual(1);
  expect(expiry.y - (number.y + number.height)).toBeLessThanOrEqual(2);
  // "Card" and "Bank account" each on one line: the tab is as tall as one line of its text.
  const tabs = page.locator('.pf-method label');
  const [card, bank] = [(await tabs.nth(0).boundingBox())!, (await tabs.nth(1).boundingBox())!];
  expect(card.height).toBe(bank.height);
  expect(bank.height).toBeLessThanOrEqual(48);
  await expectAccessible(page);
});

test('right to left (Arabic): the panes, the bar and the fields mirrored', async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const s = await createSession(request, { locale: 'ar', amount: total(2), lineItems: ITEMS.slice(0, 2) });
  await page.goto(`/pay/${s.token}`);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('button.pf-pay')).toBeEnabled();
  const order = await box(page, '.pf-order');
  const pane = await box(page, '.pf-pay-pane');
  // The order on the right (the start side in Arabic), the payment on its left.
  expect(Math.round(pane.x + pane.width)).toBeLessThanOrEqual(Math.round(order.x));
  expect(Math.round(order.x + order.width)).toBe(1280);
  // The card marks at the field's end: its left side in Arabic; the digits still read left to right.
  const numberInput = page.locator('#cc-number');
  await expect(numberInput).toHaveAttribute('dir', 'ltr');
  const field = (await numberInput.boundingBox())!;
  const marks = (await page.getByTestId('accepted-brands').boundingBox())!;
  expect(marks.x - field.x).toBeLessThan(field.x + field.width - (marks.x + marks.width));
  await expectAccessible(page);
  // The phone's bar: the merchant at the right, Details at the left.
  await page.setViewportSize({ width: 375, height: 740 });
  const details = (await page.locator('.pf-details-toggle').boundingBox())!;
  const amount = (await page.getByTestId('amount').boundingBox())!;
  expect(details.x).toBeLessThan(amount.x);
  const payBox = (await page.locator('button.pf-pay').boundingBox())!;
  expect(payBox.y + payBox.height).toBeLessThanOrEqual(740);
  await expectAccessible(page);
});

test('rendered on the server: without its script the page already shows the order and the form', async ({
  browser,
  request,
}) => {
  const s = await createSession(request, { amount: total(2), lineItems: ITEMS.slice(0, 2) });
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  await page.goto(`/pay/${s.token}`);
  await expect(page.getByTestId('amount')).toHaveText(`$${total(2)}`);
  await expect(page.getByTestId('merchant-name')).toHaveText('Payframe Demo Store');
  await expect(page.getByLabel('Card number')).toBeVisible();
  await expect(page.getByLabel('Expiration date')).toBeVisible();
  await expect(page.getByRole('button', { name: `Pay $${total(2)}` })).toBeVisible();
  await expect(page.getByTestId('purchase').getByRole('listitem')).toHaveCount(3);
  // Its CSP still allows no inline style but its own nonce'd ones.
  const res = await page.request.get(`/pay/${s.token}`);
  const csp = res.headers()['content-security-policy']!;
  expect(csp).toMatch(/style-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
  expect(csp).not.toContain('unsafe-inline');
  await context.close();
});

test("inside a merchant's page, layout 'fields': the payment fields and Pay only; a modal speaks the form's language", async ({
  page,
  request,
}) => {
  const s = await createSession(request, { lineItems: ITEMS.slice(0, 2), amount: total(2) });
  await page.goto(`${DEMO}/plain`);
  await page.waitForFunction(() => 'Payframe' in window);
  await page.evaluate((session) => {
    const host = document.createElement('div');
    host.id = 'fields-host';
    document.querySelector('main')!.append(host);
    (window as unknown as { Payframe: { mount(t: string, o: object): void } }).Payframe.mount(
      '#fields-host',
      {
        session,
        layout: 'fields',
      },
    );
  }, s.token);
  const frame = page.frameLocator('#fields-host iframe');
  await expect(frame.getByRole('button', { name: `Pay $${total(2)}` })).toBeVisible();
  await expect(frame.getByLabel('Card number')).toBeVisible();
  await expect(frame.getByTestId('order')).toHaveCount(0);
  await expect(frame.getByTestId('merchant-name')).toHaveCount(0);
  expect(await page.locator('#fields-host iframe').getAttribute('src')).toContain('layout=fields');

  // A modal of a Japanese session: its title and close button in Japanese, from the form.
  const ja = await createSession(request, { locale: 'ja' });
  await page.evaluate((session) => {
    (window as unknown as { Payframe: { open(o: object): void } }).Payframe.open({ session });
  }, ja.token);
  const dialog = page.getByRole('dialog', { name: '安全なお支払い' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: '閉じる' })).toBeVisible();
  await expect(dialog.locator('iframe')).toHaveAttribute('title', '安全なお支払いフォーム');
});
