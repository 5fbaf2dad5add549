/**
 * The dashboard's Audit log in Chromium (issue 16): after a refund made on a payment's page, the
 * log shows it with the user who made it and the address, beside the user's sign-in; filtering by
 * action narrows it to the refund; Export CSV downloads it. axe finds nothing, the page does not
 * scroll sideways at 320 px, and it speaks Spanish. A Viewer is offered no Audit log (the gateway
 * answers it to Admins and Owners only). The server is this spec's own
 * (e2e/helpers/dashboard.ts); one user, enrolled once, whose session cookie is each test's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import {
  type DashboardServer,
  enrol,
  expectAccessible,
  expectNoSidewaysScroll,
  paidSale,
  startDashboardServer,
} from './helpers/dashboard.ts';

const PORT = Number(process.env.E2E_PORT ?? 3100) + 94;
const STATE = path.resolve('test-results/dashboard-audit-session.json');
let server: DashboardServer;

test.describe.configure({ mode: 'serial' });
test.use({ storageState: STATE });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  server = await startDashboardServer(PORT, ['owner', 'viewer'], { viewer: 'viewer' });
  // In English whichever test runs first: a describe's `test.use({ locale })` reaches this context
  // when its test is the first to run (the system tier runs the Spanish one alone).
  const context = await browser.newContext({ storageState: undefined, locale: 'en-US' });
  await enrol(await context.newPage(), server, server.users.owner!);
  fs.mkdirSync(path.dirname(STATE), { recursive: true });
  await context.storageState({ path: STATE });
  await context.close();
});
test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(STATE, { force: true });
});

const dashboard = (p = '') => `${server.base}/dashboard${p}`;
const rows = (page: Page) => page.getByTestId('audit-row');

test('after a refund the audit log shows it with the user; filtered by action; exported', async ({
  page,
}) => {
  const sale = await paidSale(page.request, server, '25.00');
  await page.goto(dashboard(`/payments/${sale.transactionId}`));
  await page.getByRole('button', { name: 'Refund' }).click();
  await page.getByLabel('Refund amount').fill('10.00');
  await page.getByRole('button', { name: 'Confirm refund' }).click();
  await expect(page.getByTestId('action-result')).toHaveText('Refund of $10.00 approved.');

  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeFocused();
  const table = page.getByRole('table', { name: 'Audit events, newest first' });
  await expect(table).toBeVisible();
  const user = server.users.owner!.username;
  const refund = rows(page).first();
  await expect(refund).toContainText('operation.ProcessTransaction');
  await expect(refund).toContainText(user);
  await expect(refund).toContainText('Succeeded');
  await expect(refund).toContainText('127.0.0.1');
  await expect(refund).toContainText('refund');
  await expect(refund).toContainText(sale.transactionId);
  await expect(rows(page).filter({ hasText: 'user.login' }).first()).toContainText(user);
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);

  await page.getByLabel('Action').selectOption({ label: 'Changes to payments and links' });
  await page.getByRole('button', { name: 'Show events' }).click();
  await expect(page).toHaveURL(/\/dashboard\/audit-log\?action=operation\.$/);
  await expect(rows(page)).toHaveCount(1);
  await expect(page.getByTestId('audit-count')).toHaveText('Events shown: 1');
  await page.getByLabel('Action').selectOption({ label: 'Sign-ins' });
  await page.getByRole('button', { name: 'Show events' }).click();
  await expect(rows(page).filter({ hasText: 'operation.' })).toHaveCount(0);
  await expect(rows(page).filter({ hasText: 'user.login' }).first()).toBeVisible();

  await page.getByRole('link', { name: 'Clear filters' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('audit-log.csv');
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  expect(csv.split('\r\n')[0]).toBe('event_id,occurred_at,actor,action,outcome,origin,subject,detail');
  expect(csv).toContain(`,${user},operation.ProcessTransaction,Success,`);
});

test('the audit log in Spanish, accessible', { tag: '@system' }, async ({ page }) => {
  await page.goto(dashboard('/audit-log'));
  await page.getByLabel('Language').selectOption('es');
  await expect(page.getByRole('heading', { name: 'Registro de auditoría', level: 1 })).toBeVisible();
  await expect(
    page.getByRole('table', { name: 'Eventos de auditoría, los más recientes primero' }),
  ).toBeVisible();
  await expect(page.getByLabel('Acción')).toBeVisible();
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
});

test('a Viewer is offered no Audit log', async ({ browser }) => {
  const context = await browser.newContext({ storageState: undefined });
  const page = await context.newPage();
  await enrol(page, server, server.users.viewer!);
  const nav = page.getByRole('navigation', { name: 'Dashboard' });
  await expect(nav.getByRole('link', { name: 'Payments' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Audit log' })).toHaveCount(0);
  const res = await page.request.get(`${server.base}/dashboard/api/audit-log`);
  expect(res.status()).toBe(403);
  // Its address typed: the page says why it shows nothing.
  await page.goto(dashboard('/audit-log'));
  // The one alert with words in it (the header's sign-out and the page's export keep empty alerts
  // of their own, ready for a failure).
  await expect(page.getByRole('alert').filter({ hasText: /\S/ })).toHaveText(
    'Only an Owner or an Admin of your account can read the audit log.',
  );
  await expectAccessible(page);
  await context.close();
});
