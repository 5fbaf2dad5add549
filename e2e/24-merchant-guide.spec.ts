/**
 * The embed examples of docs/merchant-guide.md ("Embed the checkout", "Listen to events") run as
 * written: the demo store serves each `<!-- snippet: NAME-html -->` block as the page /guide/NAME
 * under its real CSP, and the `NAME-js` block as that page's /checkout-page.js. Only the two
 * placeholders change: `https://pay.example` (Payframe) and `{{SESSION_TOKEN}}` (a fresh session).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { APPROVED_CARD, collectErrors, DEMO, PAYFRAME, payByCard } from './helpers/embed.ts';

const GUIDE = fs.readFileSync(path.resolve('docs/merchant-guide.md'), 'utf8');

/** Opens example `name` as the demo store serves it (server/demo/guide-examples.ts), checking the CSP. */
async function openExample(page: Page, name: string): Promise<void> {
  expect(GUIDE).toContain(`<!-- snippet: ${name}-html -->`);
  const res = await page.goto(`${DEMO}/guide/${name}`);
  expect(res?.status()).toBe(200);
  expect(res?.headers()['content-security-policy']).toContain(`script-src 'self' ${PAYFRAME};`);
  if (GUIDE.includes(`<!-- snippet: ${name}-js -->`)) {
    await expect(page.locator('script[src="/checkout-page.js"]')).toHaveCount(1);
  }
}

const paidText = /Order DEMO-[0-9A-F]{8} is paid \(24\.99\)\.|Paid 24\.99 for order DEMO-[0-9A-F]{8}\./;

test('guide: a script tag and an element', async ({ page }) => {
  const errors = collectErrors(page);
  await openExample(page, 'embed-script-tag');
  const successes = page.evaluate(
    () =>
      new Promise((resolve) =>
        document.addEventListener('payframe:success', (e) => resolve((e as CustomEvent).detail)),
      ),
  );
  const frame = page.frameLocator('[data-payframe-session] iframe');
  await payByCard(frame);
  expect(await successes).toMatchObject({ amount: '24.99', currency: 'USD', status: 'succeeded' });
  expect(errors).toEqual([]);
});

test('guide: a decline is an error event with the currency and the decline’s family', async ({ page }) => {
  await openExample(page, 'embed-script-tag');
  const declines = page.evaluate(
    () =>
      new Promise((resolve) =>
        document.addEventListener('payframe:error', (e) => resolve((e as CustomEvent).detail)),
      ),
  );
  const frame = page.frameLocator('[data-payframe-session] iframe');
  await payByCard(frame, { ...APPROVED_CARD, number: '4000 0000 0000 9995' });
  expect(await declines).toEqual({
    code: 'declined',
    declineCode: 'insufficient_funds',
    currency: 'USD',
    message: expect.stringContaining('enough funds'),
  });
});

test('guide: Payframe.mount with callbacks', async ({ page }) => {
  const errors = collectErrors(page);
  await openExample(page, 'embed-mount');
  await expect(page.locator('#checkout-status')).toHaveText('Enter your card details.');
  const src = new URL((await page.locator('#checkout iframe').getAttribute('src'))!);
  expect(JSON.parse(src.searchParams.get('theme')!)).toEqual({
    primaryColor: '#3355ff',
    radius: 8,
    mode: 'auto',
  });
  await payByCard(page.frameLocator('#checkout iframe'));
  await expect(page.locator('#checkout-status')).toHaveText(paidText);
  expect(errors).toEqual([]);
});

test('guide: Payframe.open, closed with Esc, then paid', async ({ page }) => {
  const errors = collectErrors(page);
  await openExample(page, 'embed-open');
  await page.locator('#pay-button').click();
  await expect(page.getByRole('dialog', { name: 'Secure checkout' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.locator('#checkout-status')).toHaveText(
    'You closed the payment window. Your order is still open.',
  );
  await expect(page.locator('#pay-button')).toBeFocused();
  await page.locator('#pay-button').click();
  await payByCard(page.frameLocator('[role=dialog] iframe'));
  await expect(page.locator('#checkout-status')).toHaveText(paidText);
  expect(errors).toEqual([]);
});

test('guide: Payframe.open, canceled in the form (the session ends)', async ({ page }) => {
  const errors = collectErrors(page);
  await openExample(page, 'embed-open');
  await page.locator('#pay-button').click();
  const form = page.frameLocator('[role=dialog] iframe');
  await form.getByRole('button', { name: 'Cancel payment' }).click();
  await form.getByRole('button', { name: 'Yes, cancel the payment' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.locator('#checkout-status')).toHaveText('Payment canceled. Nothing was charged.');
  expect(errors).toEqual([]);
});

test('guide: a plain iframe and its messages', async ({ page }) => {
  const errors = collectErrors(page);
  await openExample(page, 'embed-iframe');
  await expect(page.locator('#checkout-status')).toHaveText('Enter your card details.');
  await payByCard(page.frameLocator('#payframe-checkout'));
  await expect(page.locator('#checkout-status')).toHaveText(paidText);
  expect(errors).toEqual([]);
});

test('guide: listen to events with on/off and DOM events', async ({ page }) => {
  const errors = collectErrors(page);
  await openExample(page, 'events');
  await expect(page.locator('#checkout-log li')).toHaveText(['ready']);
  await payByCard(page.frameLocator('#checkout iframe'));
  await expect(page.locator('#checkout-log li')).toHaveText([
    'ready',
    /^success: order DEMO-[0-9A-F]{8}$/,
    'payframe:success event: 24.99 (succeeded)',
  ]);
  expect(errors).toEqual([]);
});
