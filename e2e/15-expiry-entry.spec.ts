/**
 * Issue 14 §2: the expiry field takes the date as shoppers type it and as browsers fill it —
 * `12/2030`, `122030`, `12 / 30`, a paste, and `cc-exp` autofill in MM/YYYY or MM/YY — and each
 * one pays (the server reads the same forms, shared/card/expiry.ts).
 */
import { expect, type Page, test } from '@playwright/test';
import { createSession, merchantView } from './helpers/checkout.ts';

async function open(page: Page, request: Parameters<typeof createSession>[0]) {
  const s = await createSession(request);
  await page.goto(`/pay/${s.token}`);
  await page.getByLabel('Card number').fill('4242424242424242');
  await page.getByLabel('Security code').fill('123');
  return s;
}

/** What a browser's autofill does: the whole value at once, then an `input` event with no inputType. */
async function autofill(page: Page, value: string) {
  await page.locator('#cc-exp').evaluate((el: HTMLInputElement, v) => {
    el.value = v;
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }, value);
}

const WAYS: Array<[string, string, (page: Page) => Promise<void>]> = [
  ['typed 12/2030', '12/2030', (p) => p.keyboard.type('12/2030')],
  ['typed 122030', '12/2030', (p) => p.keyboard.type('122030')],
  ['typed 12 / 30', '12/30', (p) => p.keyboard.type('12 / 30')],
  ['pasted 12 / 2030', '12/2030', (p) => p.keyboard.insertText('12 / 2030')],
  ['pasted 12/30', '12/30', (p) => p.keyboard.insertText('12/30')],
  ['autofilled MM/YYYY', '12/2030', (p) => autofill(p, '12/2030')],
  ['autofilled MM/YY', '12/30', (p) => autofill(p, '12/30')],
];

for (const [name, shown, enter] of WAYS) {
  test(
    `expiry ${name} is read as December 2030 and pays`,
    { tag: name === WAYS[0]![0] ? [] : ['@system'] },
    async ({ page, request }) => {
      const s = await open(page, request);
      const exp = page.getByLabel('Expiration date');
      await exp.focus();
      await enter(page);
      await expect(exp).toHaveValue(shown);
      await exp.blur();
      await expect(exp).toHaveAttribute('aria-invalid', 'false');
      await expect(page.locator('#cc-exp-error')).toHaveText('');
      await page.getByRole('button', { name: /^Pay/ }).click();
      await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
      expect((await merchantView(request, s.token)).status).toBe('paid');
    },
  );
}

test('a past date typed in MM/YYYY is still refused as expired', async ({ page, request }) => {
  await open(page, request);
  const exp = page.getByLabel('Expiration date');
  await exp.focus();
  await page.keyboard.type('01/2020');
  await expect(exp).toHaveValue('01/2020');
  await exp.blur();
  await expect(page.locator('#cc-exp-error')).toHaveText('This card has expired.');
});
