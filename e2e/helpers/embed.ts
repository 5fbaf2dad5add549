/**
 * Helpers of the embed tests (e2e/2x-*): the demo store's address (the merchant origin that
 * playwright.config.ts starts beside this lane's Payframe: lanes.ts), paying in the checkout iframe like a shopper, and
 * the page errors a test must not see (a CSP violation shows up as a console error).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, type FrameLocator, type Page } from '@playwright/test';
import { lanePorts } from './lanes.ts';

export const PAYFRAME = `http://127.0.0.1:${lanePorts().port}`;
export const DEMO = `http://127.0.0.1:${lanePorts().demoPort}`;
export const SCREENSHOTS = path.resolve('test-results/screenshots');

/** Test card data (docs/test-cards.md): 4242… approves. */
export const APPROVED_CARD: { number: string; expiry: string; cvv: string; name?: string } = {
  number: '4242 4242 4242 4242',
  expiry: '12/34',
  cvv: '123',
};

/**
 * Fills the card form (in a checkout iframe, or the hosted page itself) and presses Pay. The name on
 * the card only when given: only a merchant that asks for it has the field (the demo's does not).
 */
export async function payByCard(frame: FrameLocator | Page, card = APPROVED_CARD): Promise<void> {
  await frame.getByLabel('Card number').fill(card.number);
  await frame.getByLabel('Expiration date').fill(card.expiry);
  await frame.getByLabel('Security code').fill(card.cvv);
  if (card.name !== undefined) await frame.getByLabel('Name on card').fill(card.name);
  await frame.getByRole('button', { name: /^Pay/ }).click();
}

/** Collects page errors and console errors (CSP violations included) for `expect(errors).toEqual([])`. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}

/** Every message a page receives, recorded from the start (to check what crosses postMessage). */
export async function recordMessages(page: Page): Promise<() => Promise<unknown[]>> {
  await page.addInitScript(() => {
    const w = window as unknown as { __payframeMessages: unknown[] };
    w.__payframeMessages = [];
    addEventListener('message', (e) => w.__payframeMessages.push({ origin: e.origin, data: e.data }));
  });
  return () =>
    page.evaluate(() => (window as unknown as { __payframeMessages: unknown[] }).__payframeMessages);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Waits until a widget's iframe has told its page it is ready (the demo page logs every event). */
export async function expectReady(page: Page, mountId: string): Promise<void> {
  await expect(page.locator('#events')).toContainText(`payframe:ready on #${mountId}`);
}
