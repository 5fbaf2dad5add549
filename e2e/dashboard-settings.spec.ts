/**
 * The dashboard's Settings page in Chromium (issue 16 "Settings"): an Admin changes the brand
 * colour and the live preview (the real hosted page in a frame, a sample session that cannot be
 * paid) shows it before anything is saved, with text that stays readable on it; once saved, a new
 * checkout session's hosted page shows the colour and the radius; origins are added and removed and
 * the widget's frame-ancestors follow; a refused value is said on its field. A Viewer sees the
 * settings read-only, is offered no Save, and its PUT is refused by the server (403). axe, the
 * keyboard alone, and 320 px. The server is this spec's own (e2e/helpers/dashboard.ts).
 */
import { expect, type Page, test } from '@playwright/test';
import { createSession } from './helpers/checkout.ts';
import {
  type DashboardServer,
  enrol,
  expectAccessible,
  expectNoSidewaysScroll,
  startDashboardServer,
} from './helpers/dashboard.ts';

const PORT = Number(process.env.E2E_PORT ?? 3100) + 96;
/** The merchant's store (its registered origin), where each session returns. */
const STORE = `http://127.0.0.1:${PORT + 1}`;
let server: DashboardServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  // Four users made by the CLI, each with its password hashed: slow on a busy machine.
  test.setTimeout(300_000);
  server = await startDashboardServer(PORT, ['admin', 'origins', 'keyboard', 'links', 'viewer'], {
    admin: 'admin',
    origins: 'admin',
    links: 'admin',
    viewer: 'viewer',
  });
});
test.afterAll(async () => {
  await server?.stop();
});

interface Settings {
  brandColor: string | null;
  cornerRadius: number | null;
  origins: string[];
  logoUrl: string | null;
  termsUrl: string | null;
  privacyUrl: string | null;
  postalCodeRequired: boolean;
  receiptEmail: boolean;
}

/** The settings as the server has them, asked from the page as the page asks. */
const saved = (page: Page) =>
  page.evaluate(async () => {
    const res = await fetch('/dashboard/api/settings');
    return ((await res.json()) as { settings: Settings }).settings;
  });

/** The computed style of the preview's Pay button. */
const previewPay = (page: Page) =>
  page
    .frameLocator('[data-testid="settings-preview"]')
    .locator('.pf-pay')
    .evaluate((b) => {
      const s = getComputedStyle(b);
      return { background: s.backgroundColor, color: s.color, radius: s.borderTopLeftRadius };
    });

async function openSettings(page: Page, name: string) {
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Display name')).toHaveValue(name);
}

test('the preview follows the draft before saving; saved, a new hosted page shows it', async ({ page }) => {
  test.setTimeout(240_000);
  await enrol(page, server, server.users.admin!);
  await openSettings(page, 'Dashboard Test Store');
  const frame = page.frameLocator('[data-testid="settings-preview"]');
  // The sample session cannot be paid: its Pay button is disabled.
  await expect(frame.getByRole('button', { name: /^Pay/ })).toBeDisabled();
  await expect(frame.getByText('Dashboard Test Store').first()).toBeVisible();

  // A dark colour: white text on it; a light one: dark text (contrast by luminance).
  await page.getByLabel('Brand colour (optional)').fill('#0a7c4b');
  await page.getByLabel('Corner radius (pixels)').fill('16');
  await expect
    .poll(() => previewPay(page))
    .toEqual({
      background: 'rgb(10, 124, 75)',
      color: 'rgb(255, 255, 255)',
      radius: '16px',
    });
  await page.getByLabel('Brand colour (optional)').fill('#ffd600');
  await expect
    .poll(() => previewPay(page))
    .toMatchObject({
      background: 'rgb(255, 214, 0)',
      color: 'rgb(0, 0, 0)',
    });
  await page.getByLabel('Display name').fill('Sunny Goods');
  await expect(frame.getByText('Sunny Goods').first()).toBeVisible();
  // Nothing is saved yet.
  expect(await saved(page)).toMatchObject({ brandColor: null, cornerRadius: null });

  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByTestId('settings-saved')).toHaveText(
    'Settings saved. New checkout sessions use them.',
  );
  expect(await saved(page)).toMatchObject({ brandColor: '#ffd600', cornerRadius: 16 });

  // A new checkout session's hosted page, in a page of its own.
  const session = await createSession(
    page.request,
    { returnUrl: `${STORE}/return` },
    server.base,
    server.merchant,
  );
  const shopper = await page.context().newPage();
  await shopper.goto(`${server.base}/pay/${session.token}`);
  const pay = shopper.getByRole('button', { name: /^Pay/ });
  await expect(pay).toBeVisible();
  await expect(pay).toHaveCSS('background-color', 'rgb(255, 214, 0)');
  await expect(pay).toHaveCSS('color', 'rgb(0, 0, 0)');
  await expect(pay).toHaveCSS('border-top-left-radius', '16px');
  await expect(shopper.getByText('Sunny Goods').first()).toBeVisible();
  await shopper.close();

  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
});

test('origins are added and removed, and the widget frame follows; a wrong value is said on its field', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await enrol(page, server, server.users.origins!);
  await openSettings(page, 'Sunny Goods');
  const store = STORE;
  const origins = page.getByTestId('origins');
  await expect(origins).toContainText(store);

  const add = async (origin: string) => {
    await page.getByLabel('Add an origin').fill(origin);
    await page.getByRole('button', { name: 'Add origin' }).click();
  };
  await add('https://shop-two.example/');
  await add('https://shop-three.example');
  await expect(origins.getByRole('listitem')).toHaveText([
    new RegExp(store.replace(/\./g, '\\.')),
    /https:\/\/shop-two\.example/,
    /https:\/\/shop-three\.example/,
  ]);
  await add('shop.example/path');
  await expect(page.getByLabel('Add an origin')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Enter an origin such as https://shop.example.')).toBeVisible();
  await page.getByRole('button', { name: 'Remove https://shop-two.example' }).click();
  await expect(origins.getByRole('listitem')).toHaveCount(2);

  // The server's refusal of a value, named on its field; nothing is saved.
  await page.getByLabel('Logo URL').fill('http://cdn.example/logo.png');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByLabel('Logo URL')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#settings-logo-url-error')).toHaveText('logoUrl must be an https URL.');
  await expect(page.getByRole('alert').filter({ hasText: 'Nothing was saved' })).toBeVisible();
  expect((await saved(page)).origins).toEqual([store]);

  await page.getByLabel('Logo URL').fill('');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByTestId('settings-saved')).toBeVisible();
  expect((await saved(page)).origins).toEqual([store, 'https://shop-three.example']);

  // The widget of a new session may be framed by the added origin, not by the removed one.
  const session = await createSession(
    page.request,
    { returnUrl: `${STORE}/return` },
    server.base,
    server.merchant,
  );
  const embed = await page.request.get(`${server.base}/pay/${session.token}?embed=1`);
  const csp = embed.headers()['content-security-policy'] ?? '';
  expect(csp).toContain(`frame-ancestors ${store} https://shop-three.example;`);
  expect(csp).not.toContain('shop-two');
});

test('by keyboard alone: a colour typed, an origin added and removed, saved', async ({ page }) => {
  test.setTimeout(240_000);
  await enrol(page, server, server.users.keyboard!);
  await page.goto(`${server.base}/dashboard/settings`);
  await expect(page.getByLabel('Display name')).toHaveValue('Sunny Goods');

  /** Tab until `target` has focus (at most 60 presses). */
  const tabTo = async (target: ReturnType<Page['getByLabel']>) => {
    for (let i = 0; i < 60; i += 1) {
      if (await target.evaluate((el) => el === document.activeElement)) return;
      await page.keyboard.press('Tab');
    }
    throw new Error('never reached by Tab');
  };
  await tabTo(page.getByLabel('Brand colour (optional)'));
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('#5b2a86');
  await expect.poll(() => previewPay(page)).toMatchObject({ background: 'rgb(91, 42, 134)' });
  await tabTo(page.getByLabel('Add an origin'));
  await page.keyboard.type('https://keys.example');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('origins')).toContainText('https://keys.example');
  await tabTo(page.getByRole('button', { name: 'Remove https://shop-three.example' }));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('origins')).not.toContainText('shop-three');
  await tabTo(page.getByRole('button', { name: 'Save settings' }));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('settings-saved')).toBeVisible();
  expect(await saved(page)).toMatchObject({
    brandColor: '#5b2a86',
    origins: [`http://127.0.0.1:${PORT + 1}`, 'https://keys.example'],
  });
});

test("Terms and Privacy links, the postal code and the receipt e-mail: saved, and the payment page's footer links them", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await enrol(page, server, server.users.links!);
  await openSettings(page, 'Sunny Goods');
  const receipt = page.getByLabel('E-mail the customer a receipt after paying');
  const postal = page.getByLabel('Ask for the billing postal code (the address is checked)');
  await expect(receipt).toBeChecked();
  await expect(postal).not.toBeChecked();

  // Not https: said on its field before anything is sent.
  await page.getByLabel('Terms of sale URL (optional)').fill('http://store.example/terms');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByLabel('Terms of sale URL (optional)')).toHaveAttribute('aria-invalid', 'true');
  expect(await saved(page)).toMatchObject({ termsUrl: null });

  await page.getByLabel('Terms of sale URL (optional)').fill('https://store.example/terms');
  await page.getByLabel('Privacy policy URL (optional)').fill('https://store.example/privacy');
  await postal.check();
  await receipt.uncheck();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByTestId('settings-saved')).toBeVisible();
  expect(await saved(page)).toMatchObject({
    termsUrl: 'https://store.example/terms',
    privacyUrl: 'https://store.example/privacy',
    postalCodeRequired: true,
    receiptEmail: false,
  });
  await page.reload();
  await expect(page.getByLabel('Privacy policy URL (optional)')).toHaveValue('https://store.example/privacy');
  await expect(page.getByLabel('E-mail the customer a receipt after paying')).not.toBeChecked();

  // A new session's hosted page: the links in its footer, and the card form asks for the postal code.
  const session = await createSession(
    page.request,
    { returnUrl: `${STORE}/return` },
    server.base,
    server.merchant,
  );
  const shopper = await page.context().newPage();
  await shopper.goto(`${server.base}/pay/${session.token}`);
  const footer = shopper.getByTestId('secured');
  await expect(footer.getByRole('link', { name: 'Terms' })).toHaveAttribute(
    'href',
    'https://store.example/terms',
  );
  await expect(footer.getByRole('link', { name: 'Privacy' })).toHaveAttribute(
    'href',
    'https://store.example/privacy',
  );
  await expect(shopper.getByLabel('ZIP or postal code')).toBeVisible();
  await shopper.close();

  // Back to the defaults for the tests after this one.
  await page.getByLabel('Terms of sale URL (optional)').fill('');
  await page.getByLabel('Privacy policy URL (optional)').fill('');
  await page.getByLabel('Ask for the billing postal code (the address is checked)').uncheck();
  await page.getByLabel('E-mail the customer a receipt after paying').check();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByTestId('settings-saved')).toBeVisible();
  expect(await saved(page)).toMatchObject({ termsUrl: null, postalCodeRequired: false, receiptEmail: true });
});

test('a Viewer sees the settings read-only, no Save, and the server refuses its PUT (403)', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await enrol(page, server, server.users.viewer!);
  await openSettings(page, 'Sunny Goods');
  await expect(page.getByTestId('settings-read-only')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save settings' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add origin' })).toHaveCount(0);
  await expect(page.getByLabel('Brand colour (optional)')).toBeDisabled();
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);

  const before = await saved(page);
  const answer = await page.evaluate(async (settings) => {
    const res = await fetch('/dashboard/api/settings', {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-payframe-client': 'dashboard' },
      body: JSON.stringify({
        displayName: 'Viewer Was Here',
        website: null,
        supportEmail: null,
        logoUrl: null,
        brandColor: '#000000',
        cornerRadius: 0,
        nameOnCardRequired: false,
        returnMode: 'immediate',
        threeDSecure: false,
        methods: ['card'],
        origins: settings.origins,
      }),
    });
    return { status: res.status, body: (await res.json()) as { error?: { code?: string } } };
  }, before);
  expect(answer.status).toBe(403);
  expect(answer.body.error?.code).toBe('forbidden');
  expect(await saved(page)).toEqual(before);
});
