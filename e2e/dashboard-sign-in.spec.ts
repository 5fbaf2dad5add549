/**
 * The dashboard's sign-in in Chromium (issue 15): a first sign-in enrols the TOTP second factor
 * (QR code and Setup key, Authentication code, Verify, ten recovery codes shown once), a later one
 * asks for the code (or a recovery code, once), a wrong code is refused, 10 wrong passwords lock
 * the user (the right one then fails too), the forgotten password's page, an idle session (the
 * server's clock moved past 15 minutes) returns to the sign-in saying so, and the whole walk by
 * keyboard alone; and the demo user a first start writes to DATA_DIR/demo-merchant.json signs in
 * to the demo merchant (on the server playwright.config.ts starts). axe finds nothing on each
 * page, none scrolls sideways at 320 px, and the pages speak Spanish to a Spanish browser. Codes
 * come from the setup key the page shows, made as an authenticator app makes them
 * (server/gateway/users/totp.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { totpCode } from '../server/gateway/users/totp.ts';
import { PAYFRAME_URL } from './helpers/checkout.ts';
import { laneDataDir } from './helpers/lanes.ts';
import {
  codeFor,
  type DashboardServer,
  enrol,
  expectAccessible,
  expectNoSidewaysScroll,
  fillSignIn,
  startDashboardServer,
} from './helpers/dashboard.ts';

const PORT = Number(process.env.E2E_PORT ?? 3100) + 70;
let server: DashboardServer;

test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startDashboardServer(PORT, [
    'first',
    'returning',
    'keyboard',
    'spanish',
    'idle',
    'locked',
    'signOut',
    'export',
  ]);
});
test.afterAll(async () => server?.stop());

/** Tab (or Shift+Tab) until `target` has focus: it is reachable by keyboard, in the page's order. */
async function tabTo(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab', max = 25): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(key);
  }
  await expect(target).toBeFocused();
}

/** A six-digit code no step near now makes for this key (so surely wrong). */
function wrongCode(setupKey: string): string {
  const near = new Set([-2, -1, 0, 1, 2].map((s) => codeFor(server, setupKey, s)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

test('a first sign-in enrols the second factor: QR code, Setup key, Authentication code, ten recovery codes once', async ({
  page,
}) => {
  // Sign-in, enrolment, two axe scans and a second sign-in: 12 s on a quiet machine, past 30 on a busy one.
  test.slow();
  const user = server.users.first!;
  await page.goto(`${server.base}/dashboard/payments`);
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/sign-in$/);
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);

  await fillSignIn(page, user);
  await expect(page.getByRole('heading', { name: 'Set up two-step verification' })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/second-factor$/);
  // Focus follows the page: its heading, not the Sign in button that went away.
  await expect(page.getByRole('heading', { name: 'Set up two-step verification' })).toBeFocused();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const setupKey = (await page.getByTestId('setup-key').textContent())!.trim();
  expect(setupKey).toMatch(/^[A-Z2-7]{16,}$/);
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);

  await page.getByLabel('Authentication code').fill(codeFor(server, setupKey));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: 'Save your recovery codes' })).toBeFocused();
  const codes = await page
    .getByRole('list', { name: 'Recovery codes' })
    .getByRole('listitem')
    .allTextContents();
  expect(codes).toHaveLength(10);
  expect(new Set(codes).size).toBe(10);
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);

  await page.getByRole('button', { name: 'Continue to the dashboard' }).click();
  // The page asked for before signing in is where the user lands.
  await expect(page.getByRole('heading', { name: 'Payments', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/payments$/);
  const nav = page.getByRole('navigation', { name: 'Dashboard' });
  for (const name of ['Overview', 'Payments', 'Payment links', 'Settlement']) {
    await expect(nav.getByRole('link', { name })).toBeVisible();
  }
  await expect(nav.getByRole('link', { name: 'Payments' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('button', { name: 'Sign out' })).toBeVisible();

  // Shown once: a reload after the enrolment is signed in, with no codes anywhere.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Payments', level: 1 })).toBeVisible();
  await expect(page.getByText(codes[0]!)).toHaveCount(0);
});

test('a later sign-in asks for the code: a wrong one is refused, the right one lets in; a recovery code works once', async ({
  page,
}) => {
  const user = server.users.returning!;
  const { setupKey, recoveryCodes } = await enrol(page, server, user);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
  await expect(page.getByTestId('session-ended')).toHaveCount(0);

  await fillSignIn(page, user);
  await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
  await expect(
    page.getByText('The 6-digit code your authenticator app shows, or one of your recovery codes.'),
  ).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Authentication code').fill(wrongCode(setupKey));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('That code is not valid. Check it and try again.')).toBeVisible();
  await expect(page.getByLabel('Authentication code')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Authentication code')).toBeFocused();
  await expectAccessible(page);
  // Nothing of the merchant's answers before the code: the API says the second factor is missing.
  const early = await page.request.get(`${server.base}/dashboard/api/payments`);
  expect(early.status()).toBe(403);

  // The enrolment used this step's code; each step's code is accepted once, so the next one.
  await page.getByLabel('Authentication code').fill(codeFor(server, setupKey, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await fillSignIn(page, user);
  await page.getByLabel('Authentication code').fill(recoveryCodes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await fillSignIn(page, user);
  await page.getByLabel('Authentication code').fill(recoveryCodes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('That code is not valid. Check it and try again.')).toBeVisible();
});

test('a sign-out that cannot reach the server says so, and the user stays signed in', async ({ page }) => {
  const user = server.users.signOut!;
  await enrol(page, server, user);
  await page.route('**/dashboard/api/sign-out', (route) => route.abort('internetdisconnected'));
  const nav = page.getByRole('navigation', { name: 'Dashboard' });
  await nav.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByTestId('sign-out-failed')).toHaveText(
    'You are still signed in: signing out could not reach Payframe. Try again.',
  );
  await expect(nav).toBeVisible();
  await expectAccessible(page);
  await page.unroute('**/dashboard/api/sign-out');
  await nav.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
  // The session really ended on the server: the API answers 401 to the old cookie's call.
  expect((await page.request.get(`${server.base}/dashboard/api/payments`)).status()).toBe(401);
});

test('by keyboard alone: sign in, enrol, continue, move between pages, sign out', async ({ page }) => {
  const user = server.users.keyboard!;
  await page.goto(`${server.base}/dashboard`);
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
  // The skip link is first and takes focus to the page's content.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await tabTo(page, page.getByLabel('Username'));
  await page.keyboard.type(user.username);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(user.password);
  await page.keyboard.press('Enter');

  await expect(page.getByRole('heading', { name: 'Set up two-step verification' })).toBeFocused();
  const setupKey = (await page.getByTestId('setup-key').textContent())!.trim();
  await tabTo(page, page.getByLabel('Authentication code'));
  await page.keyboard.type(codeFor(server, setupKey));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Save your recovery codes' })).toBeFocused();
  await tabTo(page, page.getByRole('button', { name: 'Continue to the dashboard' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();

  // The navigation is before the page's heading, which has focus: back up to it.
  const nav = page.getByRole('navigation', { name: 'Dashboard' });
  await tabTo(page, nav.getByRole('link', { name: 'Settlement' }), 'Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Settlement', level: 1 })).toBeFocused();
  await expect(page).toHaveURL(/\/dashboard\/settlement$/);
  await tabTo(page, nav.getByRole('button', { name: 'Sign out' }), 'Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
});

test('the forgotten password: from the sign-in page, Username and E-mail, one answer, and back', async ({
  page,
}) => {
  await page.goto(`${server.base}/dashboard/sign-in`);
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeFocused();
  await expect(page).toHaveURL(/\/dashboard\/forgot-password$/);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByLabel('Username')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Username')).toBeFocused();
  await page.getByLabel('Username').fill(server.users.first!.username);
  await page.getByLabel('E-mail').fill('someone-else@example.com');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByTestId('forgot-answer')).not.toBeEmpty();
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await page.getByRole('link', { name: 'Back to sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
});

test.describe('in Spanish', () => {
  test.use({ locale: 'es-ES' });

  test(
    'a Spanish browser gets the pages in Spanish, and the selector switches to English and stays',
    { tag: '@system' },
    async ({ page }) => {
      const user = server.users.spanish!;
      await page.goto(`${server.base}/dashboard`);
      await expect(page.getByRole('heading', { name: 'Iniciar sesión', level: 1 })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', 'es');
      await page.getByLabel('Nombre de usuario').fill(user.username);
      await page.getByLabel('Contraseña').fill(user.password);
      await page.getByRole('button', { name: 'Iniciar sesión' }).click();
      await expect(
        page.getByRole('heading', { name: 'Configurar la verificación en dos pasos' }),
      ).toBeVisible();
      await expect(page.getByText('Clave de configuración', { exact: true })).toBeVisible();
      await expectAccessible(page);
      const setupKey = (await page.getByTestId('setup-key').textContent())!.trim();
      await page.getByLabel('Código de autenticación').fill(codeFor(server, setupKey));
      await page.getByRole('button', { name: 'Verificar' }).click();
      await expect(page.getByRole('heading', { name: 'Guarde sus códigos de recuperación' })).toBeVisible();
      await page.getByRole('button', { name: 'Continuar al panel' }).click();
      await expect(page.getByRole('heading', { name: 'Resumen', level: 1 })).toBeVisible();
      const nav = page.getByRole('navigation', { name: 'Panel' });
      for (const name of ['Resumen', 'Pagos', 'Enlaces de pago', 'Liquidación']) {
        await expect(nav.getByRole('link', { name })).toBeVisible();
      }
      await expectAccessible(page);
      await expectNoSidewaysScroll(page);

      await page.getByLabel('Idioma').selectOption('en');
      await expect(
        page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Payments' }),
      ).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
    },
  );
});

test('Export CSV after the session ended returns to the sign-in instead of downloading an error', async ({
  page,
}) => {
  const user = server.users.export!;
  await enrol(page, server, user);
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Payments' }).click();
  await expect(page.getByRole('heading', { name: 'Payments', level: 1 })).toBeVisible();
  await expect(page.getByTestId('payments-count')).toHaveText(/^Payments shown: \d+$/); // read before the clock moves
  const downloads: string[] = [];
  page.on('download', (d) => downloads.push(d.suggestedFilename()));
  server.shiftClock(); // past the idle timeout
  await page.getByRole('link', { name: 'Export CSV' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
  await expect(page.getByTestId('session-ended')).toHaveText('Your session ended. Please sign in again.');
  expect(downloads).toEqual([]);
});

test('an idle session ends: after 15 minutes the next call returns to the sign-in, which says so', async ({
  page,
}) => {
  const user = server.users.idle!;
  const { setupKey } = await enrol(page, server, user);
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Payments' }).click();
  await expect(page.getByRole('heading', { name: 'Payments', level: 1 })).toBeVisible();
  // The page's list loaded before the clock moves: a read still on its way would meet the moved
  // clock and end the session before the click this test makes.
  await expect(page.getByTestId('payments-count')).toHaveText(/^Payments shown: \d+$/);
  server.shiftClock(); // two hours later on the server: past the idle timeout, within the 12 hours
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Settlement' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
  await expect(page.getByTestId('session-ended')).toHaveText('Your session ended. Please sign in again.');
  await expectAccessible(page);
  // Signed in again, the user is where it was going.
  await fillSignIn(page, user);
  await page.getByLabel('Authentication code').fill(codeFor(server, setupKey));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: 'Settlement', level: 1 })).toBeVisible();
});

test("the first start's demo user (DATA_DIR/demo-merchant.json) signs in to the demo merchant", async ({
  page,
}) => {
  // This lane's server, which playwright.config.ts starts as `npm start` does on a first start.
  const dir = laneDataDir();
  const demo = JSON.parse(fs.readFileSync(path.join(dir, 'demo-merchant.json'), 'utf8')) as {
    dashboardUser: string;
    dashboardPassword: string;
  };
  await page.goto(`${PAYFRAME_URL}/dashboard`);
  await fillSignIn(page, { username: demo.dashboardUser, password: demo.dashboardPassword });
  await expect(page.getByRole('heading', { name: 'Set up two-step verification' })).toBeVisible();
  const setupKey = (await page.getByTestId('setup-key').textContent())!.trim();
  // That server's clock is the real one (this spec's own has been moved).
  await page.getByLabel('Authentication code').fill(totpCode(setupKey, new Date()));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('button', { name: 'Continue to the dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await expect(page.getByTestId('signed-in-as')).toHaveText(`${demo.dashboardUser}, Payframe Demo Store`);
});

test('10 wrong passwords lock the user: the right password then fails too, with the same answer', async ({
  page,
}) => {
  const user = server.users.locked!;
  await page.goto(`${server.base}/dashboard/sign-in`);
  const failed = page.getByTestId('sign-in-error');
  // Each try waits for its answer (a click while one is on its way is not a second try).
  const attempt = async (password: string) => {
    const answered = page.waitForResponse((r) => r.url().endsWith('/dashboard/api/sign-in'));
    await fillSignIn(page, { ...user, password });
    expect((await answered).status()).toBe(401);
    await expect(failed).toHaveText(/The username or password is not right, or the account is locked\./);
    await expect(page.getByLabel('Password')).toHaveValue('');
  };
  for (let i = 0; i < 10; i++) await attempt(`${user.password}-wrong-${i}`);
  await attempt(user.password);
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Authentication code')).toHaveCount(0);
  await expectAccessible(page);
});
