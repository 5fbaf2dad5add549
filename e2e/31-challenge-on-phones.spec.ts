/**
 * Issue 14 §8: below 480 px the 3-D Secure challenge takes the whole viewport (a modal dialog in the
 * top layer), and the bank's buttons are in view with no scrolling inside the nested frame. Wider,
 * it stays in the page.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { createSession, futureExpiry, merchantView } from './helpers/checkout.ts';

async function startChallenge(page: Page, token: string) {
  await page.goto(`/pay/${token}`);
  await page.getByLabel('Card number').fill('4000000000003220');
  await page.getByLabel('Expiration date').fill(futureExpiry());
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByRole('heading', { name: 'Confirm with your bank' })).toBeVisible();
}

for (const [width, height] of [
  [320, 568],
  [375, 667],
] as const) {
  test(
    `${width}×${height}: the challenge fills the viewport and the bank's buttons show`,
    { tag: width === 375 ? [] : ['@system'] },
    async ({ page, request }) => {
      await page.setViewportSize({ width, height });
      const s = await createSession(request);
      await startChallenge(page, s.token);
      const dialog = page.getByRole('dialog', { name: 'Confirm with your bank' });
      await expect(dialog).toBeVisible();
      expect(await dialog.evaluate((d) => (d as HTMLDialogElement).matches(':modal'))).toBe(true);
      expect(await dialog.boundingBox()).toEqual({ x: 0, y: 0, width, height });
      await expect(page.getByRole('heading', { name: 'Confirm with your bank' })).toBeFocused();

      const frame = page.locator('iframe[title="Bank verification"]');
      const box = (await frame.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(height);
      const bank = page.frameLocator('iframe[title="Bank verification"]');
      const authenticate = bank.getByRole('button', { name: 'Authenticate' });
      await expect(authenticate).toBeVisible();
      // No scrolling inside the nested frame: its buttons are within its own viewport.
      const inside = await authenticate.evaluate((b) => {
        const r = b.getBoundingClientRect();
        return r.bottom <= window.innerHeight && r.top >= 0;
      });
      expect(inside).toBe(true);
      expect(
        (
          await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa']).analyze()
        ).violations.map((v) => v.id),
      ).toEqual([]);
      // Esc does not walk away from the bank's check.
      await page.keyboard.press('Escape');
      await expect(dialog).toBeVisible();

      await authenticate.click();
      await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible({
        timeout: 10_000,
      });
      await expect(page.getByRole('dialog')).toHaveCount(0);
      expect((await merchantView(request, s.token)).status).toBe('paid');
    },
  );
}

test('wider than 480 px, the challenge stays in the page', async ({ page, request }) => {
  await page.setViewportSize({ width: 1024, height: 800 });
  const s = await createSession(request);
  await startChallenge(page, s.token);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.locator('iframe[title="Bank verification"]')).toBeVisible();
});
