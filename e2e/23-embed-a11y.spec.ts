/**
 * The demo store's pages with widgets pass axe (WCAG 2.2 AA rules), the modal included; and
 * screenshots of the embed and the modal, light and dark, wide and narrow, into
 * test-results/screenshots/ for a person to look at.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { DEMO, expectReady, screenshot } from './helpers/embed.ts';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

async function axe(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

for (const [path, mounts] of [
  ['/', ['embedded']],
  ['/two', ['widget-a', 'widget-b']],
] as const) {
  test(`axe: the demo page ${path} with its widgets`, async ({ page }) => {
    await page.goto(`${DEMO}${path}`);
    for (const id of mounts) await expectReady(page, id);
    expect(await axe(page)).toEqual([]);
  });
}

test('axe: the plain iframe page', async ({ page }) => {
  await page.goto(`${DEMO}/plain`);
  await expect(page.locator('#events')).toContainText('message ready');
  expect(await axe(page)).toEqual([]);
});

test('axe: the modal, open', async ({ page }) => {
  await page.goto(`${DEMO}/`);
  await page.locator('#open-modal').click();
  await expect(page.locator('#events')).toContainText('payframe:ready on #modal');
  expect(await axe(page)).toEqual([]);
});

for (const scheme of ['light', 'dark'] as const) {
  for (const [size, viewport] of [
    ['wide', { width: 1280, height: 900 }],
    ['narrow', { width: 375, height: 740 }],
  ] as const) {
    test(`screenshots: embed and modal, ${scheme}, ${size}`, { tag: '@system' }, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await page.goto(`${DEMO}/`);
      await expectReady(page, 'embedded');
      await page.frameLocator('#embedded iframe').getByRole('button', { name: /^Pay/ }).waitFor();
      await screenshot(page, `embed-${scheme}-${size}`);
      await page.locator('#open-modal').click();
      await expect(page.locator('#events')).toContainText('payframe:ready on #modal');
      await page.frameLocator('[role=dialog] iframe').getByRole('button', { name: /^Pay/ }).waitFor();
      await page.screenshot({ path: `test-results/screenshots/modal-${scheme}-${size}.png` });
    });
  }
}
