/**
 * Issue 14 §6: saved cards show brand and last four once each (no repeated label), and each can be
 * removed from the wallet after a confirmation — keyboard only, at 320 px, axe clean.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { createSession, futureExpiry, latestCode } from './helpers/checkout.ts';

async function payAndSave(page: Page, token: string, number: string) {
  await page.goto(`/pay/${token}`);
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiration date').fill(futureExpiry());
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Save this card for faster checkout').check();
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
}

/** Unlocks the wallet on a new session; `after`: the id of the previous code, so a fresh one is read. */
async function unlock(
  page: Page,
  request: Parameters<typeof createSession>[0],
  email: string,
  after?: string,
): Promise<string> {
  const s = await createSession(request, { shopper: { email, firstName: 'Ada', lastName: 'Lovelace' } });
  await page.goto(`/pay/${s.token}`);
  await page.getByRole('button', { name: 'Get a code' }).click();
  const sent = await latestCode(request, email, after);
  await page.getByLabel('Verification code').fill(sent.code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('group', { name: 'Saved cards' })).toBeVisible();
  return sent.id;
}

test('saved cards: each said once; Remove asks first, keyboard only, at 320 px', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 320, height: 800 });
  const first = await createSession(request);
  await payAndSave(page, first.token, '4242424242424242');
  const second = await createSession(request, {
    shopper: { email: first.email, firstName: 'Ada', lastName: 'Lovelace' },
  });
  await payAndSave(page, second.token, '5555555555554444');

  const codeId = await unlock(page, request, first.email);
  const radios = page.getByRole('group', { name: 'Saved cards' }).getByRole('radio');
  await expect(radios).toHaveCount(2);
  const labels = await page.locator('.pf-saved label').allTextContents();
  const until = `expires ${futureExpiry()}`;
  expect(labels.sort()).toEqual([`Mastercard ••4444, ${until}`, `Visa ••4242, ${until}`]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);

  // Keyboard only: to the Visa's Remove, Enter; the safe answer has the focus.
  const remove = page.getByRole('button', { name: 'Remove Visa ••4242' });
  await remove.focus();
  await page.keyboard.press('Enter');
  const keep = page.getByRole('button', { name: 'Keep it' });
  await expect(keep).toBeFocused();
  await expect(page.getByRole('group', { name: 'Remove Visa ••4242 from your saved cards?' })).toBeVisible();
  expect(
    (
      await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa']).analyze()
    ).violations.map((v) => v.id),
  ).toEqual([]);
  // "Keep it" keeps it, and gives the focus back to its Remove.
  await page.keyboard.press('Enter');
  await expect(remove).toBeFocused();
  await expect(radios).toHaveCount(2);
  // Now for real.
  await page.keyboard.press('Enter');
  await expect(keep).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByRole('button', { name: 'Yes, remove it' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(radios).toHaveCount(1);
  await expect(
    page.getByRole('radio', { name: 'Mastercard ••4444, expires ' + futureExpiry() }),
  ).toBeChecked();
  await expect(
    page.getByRole('radio', { name: 'Mastercard ••4444, expires ' + futureExpiry() }),
  ).toBeFocused();

  // Gone from the wallet, not only from the page.
  await unlock(page, request, first.email, codeId);
  await expect(page.getByRole('group', { name: 'Saved cards' }).getByRole('radio')).toHaveCount(1);
  await expect(
    page.getByRole('radio', { name: 'Mastercard ••4444, expires ' + futureExpiry() }),
  ).toBeVisible();
});
