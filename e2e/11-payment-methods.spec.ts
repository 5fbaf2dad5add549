/**
 * The hosted page's other ways to pay: a 3-D Secure challenge answered inside the page, a bank
 * account (ACH), and a saved card unlocked by a one-time code read from the dev outbox.
 */
import { expect, type Page, test } from '@playwright/test';
import { createSession, futureExpiry, latestCode, merchantView } from './helpers/checkout.ts';

async function payCard(page: Page, number: string, options: { save?: boolean } = {}) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiration date').fill(futureExpiry());
  await page.getByLabel('Security code').fill('123');
  if (options.save) {
    const box = page.getByLabel('Save this card for faster checkout');
    // The shopper sees whose wallet it joins before agreeing.
    await expect(box).toHaveAccessibleDescription(/^Saved for .•••@example\.com: /);
    await box.check();
  }
  await page.getByRole('button', { name: /^Pay/ }).click();
}

test('3-D Secure: a failed challenge, then Authenticate inside the page pays', async ({ page, request }) => {
  const s = await createSession(request);
  await page.goto(`/pay/${s.token}`);
  await payCard(page, '4000000000003220');
  await expect(page.getByRole('heading', { name: 'Confirm with your bank' })).toBeVisible();
  const bank = page.frameLocator('iframe[title="Bank verification"]');
  await expect(bank.getByRole('button', { name: 'Fail authentication' })).toBeVisible();
  // The frame is as tall as the bank's page (it posts its height): no empty space under it, no scroll.
  const frame = page.locator('iframe[title="Bank verification"]');
  const bankHeight = await bank.locator('html').evaluate((html) => html.getBoundingClientRect().height);
  await expect
    .poll(async () => (await frame.evaluate((f) => (f as HTMLIFrameElement).clientHeight)) - bankHeight)
    .toBeGreaterThanOrEqual(0);
  expect((await frame.evaluate((f) => (f as HTMLIFrameElement).clientHeight)) - bankHeight).toBeLessThan(4);
  await bank.getByRole('button', { name: 'Fail authentication' }).click();
  await expect(page.getByRole('alert')).toContainText('Your bank could not verify this payment.');
  // The bank's frame that had the focus is gone: the message takes it.
  await expect(page.getByTestId('alert').locator('.pf-alert')).toBeFocused();
  expect((await merchantView(request, s.token)).status).toBe('open');

  // The details are still there: Pay again, and authenticate this time.
  await expect(page.getByLabel('Card number')).toHaveValue('4000 0000 0000 3220');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await bank.getByRole('button', { name: 'Authenticate' }).click();
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible({ timeout: 10_000 });
  const view = await merchantView(request, s.token);
  expect(view.status).toBe('paid');
  expect(view.maskedCard).toMatch(/3220$/);
});

test('3-D Secure: the answer to the authenticated pay is lost; Pay again resends it under its key, no new challenge', async ({
  page,
  request,
}) => {
  const s = await createSession(request);
  await page.goto(`/pay/${s.token}`);
  const sent: { key: string; threeDs: boolean }[] = [];
  let lost = false;
  await page.route('**/api/checkout/sessions/*/pay', async (route) => {
    const threeDs = 'threeDSecure' in JSON.parse(route.request().postData() ?? '{}');
    sent.push({ key: route.request().headers()['idempotency-key'] ?? '', threeDs });
    const res = await route.fetch();
    if (threeDs && !lost) {
      lost = true; // charged, but the page never hears it
      return route.abort('connectionreset');
    }
    return route.fulfill({ response: res });
  });
  await payCard(page, '4000000000003220');
  await page
    .frameLocator('iframe[title="Bank verification"]')
    .getByRole('button', { name: 'Authenticate' })
    .click();
  await expect(page.getByRole('alert')).toContainText(/connection/i);
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  expect(sent.map((r) => r.threeDs)).toEqual([false, true, true]);
  expect(sent[2]!.key).toBe(sent[1]!.key);
  expect((await merchantView(request, s.token)).status).toBe('paid');
});

test('pays from a bank account (ACH)', async ({ page, request }) => {
  const s = await createSession(request);
  await page.goto(`/pay/${s.token}`);
  await page.getByRole('radio', { name: 'Bank account' }).check();
  await page.getByLabel('Routing number').fill('011000016');
  await page.getByLabel('Account number', { exact: true }).fill('000123456789');
  await page.getByLabel('Confirm account number').fill('000123456780');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.locator('#ach-routing-error')).toHaveText('Please check the routing number (9 digits).');
  await expect(page.locator('#ach-confirm-error')).toHaveText('The account numbers do not match.');
  await expect(page.locator('#ach-authorize-error')).toHaveText(
    'Please authorize the debit from your account.',
  );
  await expect(page.getByLabel('Routing number')).toBeFocused();
  await page.getByLabel('Routing number').fill('011000015');
  await page.getByLabel('Confirm account number').fill('000123456789');
  await page.getByRole('radio', { name: 'Savings' }).check();
  await expect(page.getByLabel('Name on account')).toHaveValue('Ada Lovelace');
  await page.getByLabel(/I authorize Payframe Demo Store to debit \$25\.00/).check();
  await page.getByRole('button', { name: 'Pay $25.00' }).click();
  // A bank debit is submitted, not yet successful: it settles over business days.
  await expect(page.getByRole('heading', { name: 'Payment submitted' })).toBeVisible();
  await expect(page.getByTestId('ach-timeline')).toContainText('3 to 5 business days');
  await expect(page.getByText('Payment successful')).toHaveCount(0);
  expect((await merchantView(request, s.token)).status).toBe('paid');
});

test('saved card: save it, then pay with it behind a one-time code; 5 wrong codes burn it', async ({
  page,
  request,
}) => {
  // First purchase: pay and save the card to the shopper's wallet.
  const first = await createSession(request);
  await page.goto(`/pay/${first.token}`);
  await payCard(page, '5555555555554444', { save: true });
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  // The receipt says the card was saved, and for which address (masked, as beside the checkbox).
  await expect(page.getByTestId('card-saved')).toHaveText(
    /^Your card is saved for .•••@example\.com: next time, a code sent there unlocks it\.$/,
  );

  // Second purchase, same shopper.
  const shopper = { email: first.email, firstName: 'Ada', lastName: 'Lovelace' };
  const second = await createSession(request, { shopper });
  await page.goto(`/pay/${second.token}`);
  await page.getByRole('button', { name: 'Get a code' }).click();
  await expect(page.getByRole('status')).toContainText(
    /^If .+@example\.com has saved cards, we sent a 6-digit code there\.$/,
  );
  const code = page.getByLabel('Verification code');
  await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(code).toHaveAttribute('inputmode', 'numeric');
  await expect(page.getByText(/You can ask for a new code in \d+ s/)).toBeVisible();
  const sent = await latestCode(request, first.email);

  // Five wrong codes: the fifth burns the code, even the right one no longer works.
  const wrong = sent.code === '000000' ? '111111' : '000000';
  for (let i = 0; i < 4; i++) {
    await code.fill(wrong);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.locator('#otp-code-error')).toHaveText(
      'This code is not right. Check it and try again.',
    );
    await expect(code).toBeFocused();
  }
  await code.fill(wrong);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.locator('#otp-code-error')).toHaveText(
    'This code can no longer be used. Ask for a new one.',
  );
  await code.fill(sent.code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.locator('#otp-code-error')).toHaveText(
    'This code can no longer be used. Ask for a new one.',
  );

  // A new code (offered at once after a burn) unlocks the wallet.
  await page.getByRole('button', { name: 'Send a new code' }).click();
  const fresh = await latestCode(request, first.email, sent.id);
  await page.getByLabel('Verification code').fill(fresh.code);
  await page.getByRole('button', { name: 'Verify' }).click();
  const saved = page.getByRole('radio', { name: /4444/ });
  await expect(saved).toBeChecked();
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.locator('#saved-csc-error')).toHaveText('Enter the security code.');
  await page.getByRole('textbox', { name: 'Security code' }).fill('123');
  await page.getByRole('button', { name: 'Pay $25.00' }).click();
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  const view = await merchantView(request, second.token);
  expect(view.status).toBe('paid');
  expect(view.maskedCard).toMatch(/4444$/);
});
