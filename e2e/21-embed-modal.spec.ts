/**
 * `Payframe.open()`: the checkout in a modal dialog, driven by the keyboard only — focus moves in,
 * Tab and Shift+Tab stay inside (through the cross-origin form and the one close control), Esc
 * closes with `cancel` `{reason: 'closed', sessionOpen: true}`, focus returns to the button that
 * opened it, and the page behind cannot scroll or be reached.
 */
import { expect, type Page, test } from '@playwright/test';
import { collectErrors, DEMO, payByCard } from './helpers/embed.ts';

/** What has focus in the store's page: the dialog, its close button, the iframe, or something else. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'body';
    if (el.getAttribute('role') === 'dialog') return 'dialog';
    if (el.tagName === 'IFRAME') return el.closest('[role=dialog]') ? 'iframe in dialog' : 'iframe outside';
    if (el.tagName === 'BUTTON' && el.closest('[role=dialog]'))
      return `close: ${el.getAttribute('aria-label')}`;
    return `${el.tagName.toLowerCase()}#${el.id}`;
  });
}

test('keyboard only: open, Tab and Shift+Tab stay inside, Esc closes with cancel, focus returns', async ({
  page,
}) => {
  const errors = collectErrors(page);
  await page.goto(`${DEMO}/`);
  await page.locator('#open-modal').focus();
  await page.keyboard.press('Enter');

  const dialog = page.getByRole('dialog', { name: 'Secure checkout' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  expect(await focused(page)).toBe('dialog');
  await expect(page.locator('#events')).toContainText('payframe:ready on #modal');
  // The page behind: no scrolling, out of reach (inert).
  expect(await page.evaluate(() => document.documentElement.style.overflow)).toBe('hidden');
  expect(await page.locator('main').evaluate((el) => (el as HTMLElement).inert)).toBe(true);

  // One close control (issue 14 §10), and only one: the form, then it, then round again.
  await expect(dialog.getByRole('button')).toHaveCount(1);
  await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('iframe in dialog');
  // Inside the cross-origin form, a control has focus (its first one), not just the frame.
  const form = (await (await page.locator('[role=dialog] iframe').elementHandle())!.contentFrame())!;
  const inForm = () => form.evaluate(() => document.activeElement?.tagName ?? 'none');
  expect(await inForm()).toMatch(/^(INPUT|BUTTON|SELECT|A)$/);
  const firstControl = await form.evaluate(() => document.activeElement?.outerHTML);

  // Forward through the form: focus stays in the iframe until the close control, then wraps.
  let steps = 0;
  while ((await focused(page)) === 'iframe in dialog' && steps++ < 40) await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('close: Close');
  await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('dialog');
  await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('iframe in dialog');
  expect(await form.evaluate(() => document.activeElement?.outerHTML)).toBe(firstControl);

  // Backwards: from the form's first control to the close control, then into the form at its last.
  await page.keyboard.press('Shift+Tab');
  expect(await focused(page)).toBe('close: Close');
  await page.keyboard.press('Shift+Tab');
  expect(await focused(page)).toBe('iframe in dialog');
  expect(await inForm()).toMatch(/^(INPUT|BUTTON|SELECT|A)$/);
  expect(await form.evaluate(() => document.activeElement?.outerHTML)).not.toBe(firstControl);
  await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('close: Close');

  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.locator('#modal-result')).toHaveText('Payment window closed.');
  await expect(page.locator('#events')).toContainText(
    'payframe:cancel on #modal {"reason":"closed","sessionOpen":true}',
  );
  expect(await focused(page)).toBe('button#open-modal');
  expect(await page.evaluate(() => document.documentElement.style.overflow)).toBe('');
  expect(await page.locator('main').evaluate((el) => (el as HTMLElement).inert)).toBe(false);
  expect(errors).toEqual([]);
});

test('Esc pressed inside the form closes the modal too (the form tells the page)', async ({ page }) => {
  await page.goto(`${DEMO}/`);
  await page.locator('#open-modal').click();
  const dialog = page.getByRole('dialog', { name: 'Secure checkout' });
  const form = page.frameLocator('[role=dialog] iframe');
  await form.getByLabel('Card number').focus();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.locator('#events')).toContainText('payframe:cancel on #modal');
  await expect(page.locator('#open-modal')).toBeFocused();
});

test('Esc while the payment is under way does not close the modal: the payment is not left unseen', async ({
  page,
}) => {
  // Slow the pay answer down so there is a moment to press Esc while it runs.
  await page.route('**/api/checkout/sessions/*/pay', async (route) => {
    const res = await route.fetch();
    await new Promise((r) => setTimeout(r, 1_500));
    await route.fulfill({ response: res });
  });
  await page.goto(`${DEMO}/`);
  await page.locator('#open-modal').click();
  const dialog = page.getByRole('dialog', { name: 'Secure checkout' });
  await payByCard(page.frameLocator('[role=dialog] iframe'));
  await page.keyboard.press('Escape');
  await expect(page.locator('#modal-result')).toHaveText(/^Paid \$24\.99/);
  await expect(dialog).toBeVisible();
  await expect(page.locator('#events')).not.toContainText('payframe:cancel');
});

test('pay in the modal: success reaches the callback; closing afterwards is not a cancel', async ({
  page,
}) => {
  const errors = collectErrors(page);
  await page.goto(`${DEMO}/`);
  await page.locator('#open-modal').click();
  const dialog = page.getByRole('dialog', { name: 'Secure checkout' });
  await payByCard(page.frameLocator('[role=dialog] iframe'));
  await expect(page.locator('#modal-result')).toHaveText(
    /^Paid \$24\.99: order DEMO-[0-9A-F]{8}, transaction \d+\.$/,
  );
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.locator('#modal-result')).toHaveText(/^Paid/);
  await expect(page.locator('#events')).not.toContainText('payframe:cancel');
  await expect(page.locator('#open-modal')).toBeFocused();
  expect(errors).toEqual([]);
});

test('reduced motion: the modal opens without animation', async ({ page }) => {
  // Open and count in one step: a 160 ms animation could be over before a second call looks.
  const openAndCountAnimations = () =>
    page.evaluate(() => {
      document.querySelector<HTMLButtonElement>('#open-modal')!.click();
      return document.getAnimations().length;
    });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(`${DEMO}/`);
  await page.waitForFunction(() => 'Payframe' in window);
  expect(await openAndCountAnimations()).toBe(0);
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  expect(await openAndCountAnimations()).toBeGreaterThan(0);
});
