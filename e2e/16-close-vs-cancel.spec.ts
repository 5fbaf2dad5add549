/**
 * Issue 14 §1 and §10: closing is not cancelling. Closing the modal fires `payframe:cancel` with
 * `{reason: 'closed', sessionOpen: true}` and the session stays payable; the form's confirmed
 * "Cancel payment" ends it (`{reason: 'canceled', sessionOpen: false}`). The hosted page links back
 * to the store (the session's cancelUrl) before paying and on the canceled screen. The modal's own
 * words follow the form's language.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { createSession, DEMO_URL, merchantView } from './helpers/checkout.ts';
import { DEMO, payByCard, screenshot } from './helpers/embed.ts';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const axe = async (page: Page) =>
  (await new AxeBuilder({ page }).withTags(TAGS).analyze()).violations.map((v) => v.id);

/** The demo store's page, with `Payframe.open` on a session of ours; resolves with each cancel detail. */
async function openModal(page: Page, token: string) {
  await page.evaluate((session) => {
    const w = window as unknown as { cancels: unknown[]; Payframe: { open(o: object): void } };
    w.cancels = w.cancels ?? [];
    w.Payframe.open({ session, onCancel: (d: unknown) => w.cancels.push(d) });
  }, token);
}
const cancels = (page: Page) => page.evaluate(() => (window as unknown as { cancels: unknown[] }).cancels);

test('modal: closing keeps the session open, and it can be paid after reopening', async ({
  page,
  request,
}) => {
  const s = await createSession(request);
  await page.goto(`${DEMO}/`);
  await page.waitForFunction(() => 'Payframe' in window);
  await openModal(page, s.token);
  const dialog = page.getByRole('dialog', { name: 'Secure checkout' });
  await expect(dialog.frameLocator('iframe').getByLabel('Card number')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  expect(await cancels(page)).toEqual([{ reason: 'closed', sessionOpen: true }]);
  expect((await merchantView(request, s.token)).status).toBe('open');

  await openModal(page, s.token);
  await payByCard(page.frameLocator('[role=dialog] iframe'));
  await expect(page.frameLocator('[role=dialog] iframe').getByText('Payment successful')).toBeVisible();
  expect((await merchantView(request, s.token)).status).toBe('paid');
});

test('modal: "Cancel payment", confirmed, ends the session and says so', async ({ page, request }) => {
  const s = await createSession(request);
  await page.goto(`${DEMO}/`);
  await page.waitForFunction(() => 'Payframe' in window);
  await openModal(page, s.token);
  const form = page.frameLocator('[role=dialog] iframe');
  await form.getByRole('button', { name: 'Cancel payment' }).click();
  // Asked once more; the safe answer has the focus.
  await expect(form.getByRole('button', { name: 'No, continue paying' })).toBeFocused();
  expect((await merchantView(request, s.token)).status).toBe('open');
  await form.getByRole('button', { name: 'Yes, cancel the payment' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await cancels(page)).toEqual([{ reason: 'canceled', sessionOpen: false }]);
  expect((await merchantView(request, s.token)).status).toBe('canceled');
});

test(
  'modal: its words follow the form’s language (a Spanish session)',
  { tag: '@system' },
  async ({ page, request }) => {
    const s = await createSession(request, { locale: 'es' });
    await page.goto(`${DEMO}/`); // the store's page is in English
    await page.waitForFunction(() => 'Payframe' in window);
    await openModal(page, s.token);
    const dialog = page.getByRole('dialog', { name: 'Pago seguro' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Cerrar' })).toBeVisible();
    await expect(dialog.locator('iframe')).toHaveAttribute('title', 'Formulario de pago seguro');
    await expect(dialog.getByRole('button')).toHaveCount(1);
    await page.keyboard.press('Escape');
    expect(await cancels(page)).toEqual([{ reason: 'closed', sessionOpen: true }]);
  },
);

test.describe('hosted page', () => {
  for (const width of [320, 1024]) {
    test(
      `back link to the store before paying and on the canceled screen, keyboard only (${width} px)`,
      { tag: width === 320 ? [] : ['@system'] },
      async ({ page, request }) => {
        await page.setViewportSize({ width, height: 800 });
        const cancelUrl = `${DEMO_URL}/cart?from=payframe`;
        const s = await createSession(request, { cancelUrl });
        await page.goto(`/pay/${s.token}`);
        const back = page.getByRole('link', { name: 'Back to Payframe Demo Store', exact: true });
        await expect(back).toHaveAttribute('href', cancelUrl);
        await expect(back).toHaveText('← Back to Payframe Demo Store'); // the arrow is not read out
        // Before anything else: the first stop of the keyboard.
        await page.keyboard.press('Tab');
        await expect(back).toBeFocused();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

        // Keyboard only to "Cancel payment", confirmed.
        const cancel = page.getByRole('button', { name: 'Cancel payment' });
        for (let i = 0; i < 30 && !(await cancel.evaluate((el) => el === document.activeElement)); i++)
          await page.keyboard.press('Tab');
        await expect(cancel).toBeFocused();
        await page.keyboard.press('Enter');
        const no = page.getByRole('button', { name: 'No, continue paying' });
        const yes = page.getByRole('button', { name: 'Yes, cancel the payment' });
        await expect(no).toBeFocused();
        // Two real buttons, the safe answer first; side by side where they fit.
        const [noBox, yesBox] = [(await no.boundingBox())!, (await yes.boundingBox())!];
        expect(noBox.height).toBeGreaterThanOrEqual(40);
        if (width >= 1024) expect(Math.abs(noBox.y - yesBox.y)).toBeLessThan(2);
        await page.keyboard.press('Tab');
        await expect(yes).toBeFocused();
        await page.keyboard.press('Enter');

        await expect(page.getByRole('heading', { name: 'Payment canceled' })).toBeVisible();
        expect((await merchantView(request, s.token)).status).toBe('canceled');
        const again = page.getByTestId('back-to-store');
        await expect(again).toHaveText('← Back to Payframe Demo Store');
        await expect(again).toHaveAttribute('href', cancelUrl);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        expect(await axe(page)).toEqual([]);
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await screenshot(page, `canceled-${scheme}-${width}`);
        }
        // Going back does not cancel: a second session, left by its back link, is still open.
        const other = await createSession(request, { cancelUrl });
        await page.goto(`/pay/${other.token}`);
        await page.getByRole('link', { name: 'Back to Payframe Demo Store', exact: true }).click();
        await page.waitForURL(cancelUrl);
        expect((await merchantView(request, other.token)).status).toBe('open');
      },
    );
  }

  test('without a cancelUrl the link leads to the store’s home (the returnUrl’s origin)', async ({
    page,
    request,
  }) => {
    const s = await createSession(request);
    await page.goto(`/pay/${s.token}`);
    await expect(
      page.getByRole('link', { name: 'Back to Payframe Demo Store', exact: true }),
    ).toHaveAttribute('href', `${DEMO_URL}/`);
  });
});
