/**
 * Issue 14 §9 and §3, the merchant's checkout settings, on a server of this spec's own whose
 * merchants are set with `payframe merchant create|update` (handed to the running server):
 * - by default the hosted page goes back to the signed ReturnUrl at once after paying, and the
 *   browser's Back shows the paid session's receipt (not the form, not an error);
 * - with `--return-mode confirmation` the receipt stays until the shopper chooses "Return to …";
 * - the name on the card is asked only with `--name-on-card` (required, autocomplete cc-name), and
 *   the pay request carries it; at 320 px, keyboard only;
 * - an embedded form of a merchant that returns at once still only tells its page (success) and
 *   never navigates it.
 * axe on every screen shown; screenshots light and dark attached to the report.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo, test } from '@playwright/test';
import {
  createSession,
  type DemoMerchant,
  demoMerchant,
  futureExpiry,
  redirectSignatureValid,
} from './helpers/checkout.ts';
import { type PayframeServer, startPayframeServer } from './helpers/payframe-server.ts';

const port = Number(process.env.E2E_PORT ?? 3100) + 60;
const base = `http://127.0.0.1:${port}`;
const store = `http://127.0.0.1:${port + 1}`;

/**
 * The receipt's heading after Back: the page is \`no-store\`, so Chromium loads it again and the paid
 * session shows its receipt as "already paid"; a browser that restores it from its back/forward
 * cache shows the receipt as it was. Either is the receipt; the form or an error is not.
 */
const RECEIPT_HEADING = /^(This order has already been paid\.|Payment successful)$/;

let server: PayframeServer;
/** A merchant at the defaults (returns at once, no name on card). */
let quick: DemoMerchant;
/** A merchant that keeps the confirmation and asks for the name on the card. */
let careful: DemoMerchant;

const payframe = (...args: string[]) => server.payframe(args);

async function merchant(name: string): Promise<DemoMerchant> {
  const m = await payframe('merchant', 'create', '--name', name, '--origin', store, '--website', `${store}/`);
  return { merchantId: String(m.merchantId), transactionKey: String(m.transactionKey) };
}

async function expectNoAxeViolations(page: Page): Promise<void> {
  const axe = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
}

/** Light and dark screenshots, attached to the test's report. */
async function shoot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const file = testInfo.outputPath(`${name}-${scheme}.png`);
    await page.screenshot({ path: file, fullPage: true });
    await testInfo.attach(`${name}-${scheme}`, { path: file, contentType: 'image/png' });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function fillCard(page: Page): Promise<void> {
  await page.getByLabel('Card number').fill('4242424242424242');
  await page.getByLabel('Expiration date').fill(futureExpiry());
  await page.getByLabel('Security code').fill('123');
}

test.describe('merchant checkout settings', () => {
  // Two full payments and two navigations a test, with axe and screenshots: more than the default.
  test.describe.configure({ timeout: 90_000 });
  test.beforeAll(async () => {
    test.setTimeout(120_000); // a server start and four commands
    // Its first start makes the demo merchant (and the demo store's pages are its).
    server = await startPayframeServer({ port, prefix: 'payframe-e2e-settings-' });
    [quick, careful] = await Promise.all([merchant('Quick Return Shop'), merchant('Careful Shop')]);
    const updated = await payframe(
      'merchant', 'update', '--merchant', careful.merchantId,
      '--return-mode', 'confirmation', '--name-on-card',
    ); // prettier-ignore
    expect(updated).toMatchObject({ returnMode: 'confirmation', nameOnCardRequired: true });
    // The demo merchant keeps the confirmation by default; here it returns at once, for the embed.
    const demo = demoMerchant(server.dataDir);
    await payframe('merchant', 'update', '--merchant', demo.merchantId, '--return-mode', 'immediate');
  });
  test.afterAll(() => server?.stop());

  test('by default: back to the ReturnUrl right after paying; Back shows the receipt', async ({
    page,
    request,
  }, testInfo) => {
    const s = await createSession(request, { returnUrl: `${store}/return` }, base, quick);
    await page.goto(`${base}/pay/${s.token}`);
    // Not asked for by this merchant: no name on the card.
    await expect(page.getByLabel('Card number')).toBeVisible();
    await expect(page.getByLabel('Name on card')).toHaveCount(0);
    await fillCard(page);
    await page.getByRole('button', { name: 'Pay $25.00' }).click();

    await expect(page).toHaveURL(new RegExp(`^${store}/return\\?`));
    const q = new URL(page.url()).searchParams;
    expect(q.get('status')).toBe('succeeded');
    expect(q.get('token')).toBe(s.token);
    expect(redirectSignatureValid(page.url(), quick.transactionKey)).toBe(true);

    await page.goBack();
    await expect(page).toHaveURL(`${base}/pay/${s.token}`);
    await expect(page.getByRole('heading', { name: RECEIPT_HEADING })).toBeVisible();
    await expect(page.getByTestId('receipt')).toContainText(/••+ ?4242/);
    await expect(page.getByTestId('receipt')).toContainText(s.orderNumber);
    await expect(page.getByLabel('Card number')).toHaveCount(0);
    await expect(page.getByRole('alert')).toHaveCount(0);
    // It does not send the shopper off again; the way back is the link.
    await page.waitForTimeout(1_000);
    await expect(page).toHaveURL(`${base}/pay/${s.token}`);
    await expect(page.getByRole('link', { name: 'Return to Quick Return Shop' })).toBeVisible();
    await expectNoAxeViolations(page);
    await shoot(page, testInfo, 'return-back-to-receipt');
  });

  test('confirmation and name on card: 320 px, keyboard only', async ({ page, request }, testInfo) => {
    await page.setViewportSize({ width: 320, height: 800 });
    const s = await createSession(request, { returnUrl: `${store}/return` }, base, careful);
    const bodies: { card?: { name?: string } }[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/pay')) bodies.push(r.postDataJSON());
    });
    await page.goto(`${base}/pay/${s.token}`);
    const name = page.getByLabel('Name on card');
    await expect(name).toBeVisible();
    await expect(name).toHaveAttribute('autocomplete', 'cc-name');
    await expect(name).toHaveAttribute('required', '');
    // Prefilled from the session's shopper; emptied here to see the requirement.
    await expect(name).toHaveValue('Ada Lovelace');
    await name.fill('');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectNoAxeViolations(page);
    await shoot(page, testInfo, 'name-on-card-form-320');

    const focused = () =>
      page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent || '');
    await page.getByLabel('Card number').focus();
    await page.keyboard.type('4242424242424242');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('cc-exp');
    await page.keyboard.type(futureExpiry().replace('/', ''));
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('cc-csc');
    await page.keyboard.type('123');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('cc-name');
    // Submitted without the name: the form says so, and focus goes to the name.
    await page.keyboard.press('Enter');
    await expect(name).toBeFocused();
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#cc-name-error')).toHaveText('Enter the name on the card.');
    expect(bodies).toHaveLength(0);
    await page.keyboard.type('Grace Hopper');
    await page.keyboard.press('Enter');

    const heading = page.getByRole('heading', { name: 'Payment successful' });
    await expect(heading).toBeFocused();
    expect(bodies).toHaveLength(1);
    expect(bodies[0]?.card?.name).toBe('Grace Hopper');
    // The receipt stays: no countdown, no navigation by itself.
    await page.waitForTimeout(2_000);
    await expect(page).toHaveURL(`${base}/pay/${s.token}`);
    await expect(page.getByRole('timer')).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectNoAxeViolations(page);
    await shoot(page, testInfo, 'confirmation-receipt-320');

    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Return to Careful Shop');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`^${store}/return\\?`));
    expect(redirectSignatureValid(page.url(), careful.transactionKey)).toBe(true);
    await page.goBack();
    await expect(page.getByRole('heading', { name: RECEIPT_HEADING })).toBeVisible();
    await expect(page.getByLabel('Name on card')).toHaveCount(0);
  });

  test('an embedded form of a merchant that returns at once tells its page and stays', async ({ page }) => {
    await page.goto(`${store}/plain`);
    const frame = page.frameLocator('iframe[title="Secure payment form"]');
    await expect(frame.getByLabel('Card number')).toBeVisible();
    await expect(frame.getByLabel('Name on card')).toHaveCount(0);
    await frame.getByLabel('Card number').fill('4242424242424242');
    await frame.getByLabel('Expiration date').fill(futureExpiry());
    await frame.getByLabel('Security code').fill('123');
    await frame.getByRole('button', { name: /^Pay/ }).click();
    await expect(frame.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
    await expect(page.locator('#plain-frame-result')).toContainText(/^Paid \$\d+\.\d{2}: order /);
    await page.waitForTimeout(1_000);
    expect(page.url()).toBe(`${store}/plain`);
    expect(page.frames().map((f) => f.url())).not.toContainEqual(expect.stringContaining('/return'));
  });
});
