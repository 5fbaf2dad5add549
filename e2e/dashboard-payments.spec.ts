/**
 * The dashboard's pages for a signed-in user in Chromium (issue 15): Overview's figures and chart,
 * Payments (newest first, pages, status and method filters, Search payments by order number, last
 * four, amount and transaction id, Export CSV of every page), a payment's page with a full and a
 * partial refund, a void and a capture (each asked first, announced, and shown done), a refund by
 * keyboard alone, Settlement, and a payment link paid by a shopper on the hosted page and then
 * shown paid (an open one canceled). axe finds nothing on each page, none scrolls sideways at
 * 320 px, and the pages speak Spanish. One user, enrolled once; its session cookie is each test's.
 * The server is this spec's own (e2e/helpers/dashboard.ts): every payment on it is made here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { createSession, futureExpiry } from './helpers/checkout.ts';
import { collectErrors } from './helpers/embed.ts';
import {
  type DashboardServer,
  enrol,
  expectAccessible,
  expectNoSidewaysScroll,
  paidSale,
  soapPayment,
  startDashboardServer,
} from './helpers/dashboard.ts';

const PORT = Number(process.env.E2E_PORT ?? 3100) + 80;
const STATE = path.resolve('test-results/dashboard-payments-session.json');
let server: DashboardServer;
/** Every payment made on this spec's server (approved and declined), for the counts. */
let made = 0;

test.describe.configure({ mode: 'serial' });
test.use({ storageState: STATE });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  server = await startDashboardServer(PORT, ['owner']);
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

const nav = (page: Page) => page.getByRole('navigation', { name: 'Dashboard' });
const rows = (page: Page) => page.getByTestId('payment-row');
const dashboard = (p = '') => `${server.base}/dashboard${p}`;

/** A declined card through the checkout API (the simulator's "do not honour"). */
async function declined(page: Page): Promise<void> {
  const s = await createSession(
    page.request,
    { amount: '9.99', returnUrl: `http://127.0.0.1:${PORT + 1}/return` },
    server.base,
    server.merchant,
  );
  const res = await page.request.post(`${server.base}/api/checkout/sessions/${s.token}/pay`, {
    headers: { 'x-payframe-client': 'widget', 'idempotency-key': crypto.randomUUID() },
    data: { method: 'card', card: { number: '4000000000000002', expiry: futureExpiry(), cvv: '123' } },
  });
  expect(((await res.json()) as { status?: string }).status).toBe('declined');
  made += 1;
}

async function sale(page: Page, amount: string, overrides: Record<string, unknown> = {}) {
  const s = await paidSale(page.request, server, amount, overrides);
  made += 1;
  return s;
}

/** Tab until `target` has focus (reachable by keyboard, in the page's order). */
async function tabTo(page: Page, target: Locator, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

async function search(page: Page, text: string): Promise<void> {
  await page.getByLabel('Search payments').fill(text);
  await page.getByRole('button', { name: 'Show payments' }).click();
}

test("Overview: today's and 30 days' volume, approvals and declines, and the chart with its figures", async ({
  page,
}) => {
  await sale(page, '20.00');
  await sale(page, '30.00');
  await declined(page);
  await page.goto(dashboard());
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  for (const id of ['today', 'last-30-days']) {
    const figures = page.getByTestId(id);
    await expect(figures.getByRole('definition').nth(0)).toHaveText('$50.00');
    await expect(figures.getByRole('definition').nth(1)).toHaveText('2');
    await expect(figures.getByRole('definition').nth(2)).toHaveText('1');
  }
  // One currency: nothing to choose.
  await expect(page.getByLabel('Currency')).toHaveCount(0);
  await expect(
    page.getByRole('img', {
      name: /^Bar chart of the daily volume over the last 30 days\. Highest: \$50\.00 on /,
    }),
  ).toBeVisible();
  await page.getByText('Show the figures as a table').click();
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(31);
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);

  // Paid in euros too: the figures stay one currency's, and the other is chosen, never added in.
  await sale(page, '12.00', { currency: 'EUR' });
  await page.reload();
  const currency = page.getByLabel('Currency');
  await expect(currency).toHaveValue('USD');
  await expect(page.getByTestId('today').getByRole('definition').nth(0)).toHaveText('$50.00');
  await currency.selectOption('EUR');
  await expect(page.getByTestId('today').getByRole('definition').nth(0)).toHaveText('€12.00');
  await expect(page.getByTestId('today').getByRole('definition').nth(1)).toHaveText('1');
  await expectAccessible(page);
});

test('Payments: newest first, a page at a time, filtered by status and method, and found by the search', async ({
  page,
}) => {
  // Payments made first, then every filter and page read back: near 30 s on a busy machine.
  test.slow();
  const target = await sale(page, '17.43');
  // More than a page (25): the list has a Next. (Through SOAP: the checkout allows 30 pays a minute.)
  for (; made < 30; made++) await soapPayment(server, '1.00', 'sale');
  await page.goto(dashboard());
  await nav(page).getByRole('link', { name: 'Payments' }).click();
  await expect(page.getByRole('heading', { name: 'Payments', level: 1 })).toBeFocused();
  await expect(rows(page)).toHaveCount(25);
  await expect(page.getByTestId('payments-count')).toHaveText('Payments shown: 25');
  const ids = (await rows(page).getByRole('link').allTextContents()).map((t) =>
    BigInt(t.replace('Payment ', '')),
  );
  expect(ids).toEqual([...ids].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(rows(page)).toHaveCount(made - 25);
  await expect(page.getByRole('button', { name: 'Next' })).toHaveCount(0);
  const second = (await rows(page).getByRole('link').allTextContents()).map((t) =>
    BigInt(t.replace('Payment ', '')),
  );
  expect(second.every((id) => id < ids.at(-1)!)).toBe(true);
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(rows(page)).toHaveCount(25);
  await expect(rows(page).first().getByRole('link')).toHaveText(`Payment ${ids[0]}`);

  for (const text of [target.orderNumber, target.transactionId, '17.43']) {
    await search(page, text);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).getByRole('link')).toHaveText(`Payment ${target.transactionId}`);
  }
  await expect(page).toHaveURL(/[?&]q=17\.43/);
  await search(page, '4242');
  await expect(page.getByTestId('payments-count')).toHaveText('Payments shown: 25');
  await search(page, '');

  await page.getByLabel('Status').selectOption('Declined');
  await page.getByRole('button', { name: 'Show payments' }).click();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText('Declined');
  await page.getByLabel('Status').selectOption('');
  await page.getByLabel('Method').selectOption('Ach');
  await page.getByRole('button', { name: 'Show payments' }).click();
  await expect(page.getByText('No payments match.')).toBeVisible();
  await page.getByRole('link', { name: 'Clear filters' }).click();
  await expect(page.getByLabel('Method')).toHaveValue('');
  const today = new Date().toISOString().slice(0, 10);
  await page.getByLabel('From').fill(today);
  await page.getByLabel('To').fill(today);
  await page.getByRole('button', { name: 'Show payments' }).click();
  await expect(rows(page)).toHaveCount(25);
  await page.goto(dashboard('/payments?from=2001-01-01&to=2001-01-31'));
  await expect(page.getByText('No payments match.')).toBeVisible();
});

test('Export CSV: every page of the filtered list, with a header row', async ({ page }) => {
  await page.goto(dashboard('/payments'));
  const all = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const lines = fs
    .readFileSync((await (await all).path())!, 'utf8')
    .split(/\r?\n/)
    .filter(Boolean);
  expect(lines.length).toBe(made + 1); // more than one page (25): the export has them all
  expect(lines[0]).toMatch(/amount/i);

  await page.getByLabel('Status').selectOption('Declined');
  await page.getByRole('button', { name: 'Show payments' }).click();
  await expect(rows(page)).toHaveCount(1);
  await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', /state=Declined/);
  const declinedOnly = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const declinedLines = fs
    .readFileSync((await (await declinedOnly).path())!, 'utf8')
    .split(/\r?\n/)
    .filter(Boolean);
  expect(declinedLines).toHaveLength(2);
  expect(declinedLines[1]).toContain('Declined');
});

test("a payment's page; a partial refund, then the rest, each asked first and announced", async ({
  page,
}) => {
  // A sale, two refunds and three axe scans: more than 30 s on a busy machine.
  test.slow();
  // Its session tells the merchant's webhook (nothing listens there: the delivery waits to be retried).
  const s = await sale(page, '40.00', { webhookUrl: `http://127.0.0.1:${PORT + 2}/webhooks` });
  const errors = collectErrors(page);
  const response = await page.goto(dashboard('/payments'));
  // The page's CSP: no inline script or style anywhere in the app, and nothing refused by it.
  expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'; style-src 'self'/);
  expect(response?.headers()['content-security-policy']).not.toContain('unsafe-inline');
  await search(page, s.orderNumber);
  await expect(rows(page)).toHaveCount(1);
  await rows(page).getByRole('link').click();
  await expect(page.getByRole('heading', { name: `Payment ${s.transactionId}`, level: 1 })).toBeFocused();
  const details = page.getByTestId('payment-details');
  await expect(details).toContainText('$40.00');
  await expect(details).toContainText('Approved');
  await expect(details).toContainText('Visa ending 4242');
  await expect(details).toContainText(s.orderNumber);
  await expect(details).toContainText(s.email);
  await expect(page.getByTestId('timeline')).toContainText('Approved');
  await expect(
    page.getByTestId('webhooks').getByRole('row').filter({ hasText: 'payment.succeeded' }),
  ).toHaveCount(1);
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);

  await page.getByRole('button', { name: 'Refund' }).click();
  const amount = page.getByLabel('Refund amount');
  await expect(amount).toBeFocused();
  await expect(amount).toHaveValue('40.00');
  await expectAccessible(page);
  await amount.fill('45.00');
  await page.getByRole('button', { name: 'Confirm refund' }).click();
  await expect(page.getByText('At most 40.00.').first()).toBeVisible();
  await expect(amount).toHaveAttribute('aria-invalid', 'true');
  await amount.fill('15.00');
  await page.getByRole('button', { name: 'Confirm refund' }).click();
  await expect(page.getByTestId('action-result')).toHaveText('Refund of $15.00 approved.');
  await expect(page.getByRole('heading', { name: 'Actions' })).toBeFocused();
  await expect(details).toContainText('Partially refunded');

  await page.getByRole('button', { name: 'Refund' }).click();
  await expect(amount).toHaveValue('25.00'); // what remains
  await page.getByRole('button', { name: 'Confirm refund' }).click();
  await expect(page.getByTestId('action-result')).toHaveText('Refund of $25.00 approved.');
  await expect(details).toContainText('Refunded');
  await expect(page.getByRole('button', { name: 'Refund' })).toHaveCount(0);
  await expect(page.getByTestId('timeline').getByText('Refunded')).toHaveCount(2);
  await expectAccessible(page);
  expect(errors).toEqual([]);
});

test('a refund by keyboard alone', async ({ page }) => {
  const s = await sale(page, '8.00');
  await page.goto(dashboard(`/payments/${s.transactionId}`));
  await expect(page.getByRole('heading', { name: `Payment ${s.transactionId}`, level: 1 })).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Refund' }));
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Refund amount')).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('3.00');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('action-result')).toHaveText('Refund of $3.00 approved.');
  await expect(page.getByRole('heading', { name: 'Actions' })).toBeFocused();
  await expect(page.getByTestId('payment-details')).toContainText('Partially refunded');
  // "Not now" puts the question away and focus back on the button that asked it.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Refund' })).toBeFocused();
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByRole('button', { name: 'Not now' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Refund' })).toBeFocused();
});

test('void an unsettled sale, asked first', async ({ page }) => {
  const s = await sale(page, '12.00');
  await page.goto(dashboard(`/payments/${s.transactionId}`));
  await page.getByRole('button', { name: 'Void' }).click();
  await expect(page.getByText('Void this payment of $12.00? The shopper is not charged.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Confirm void' })).toBeFocused();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Confirm void' }).click();
  await expect(page.getByTestId('action-result')).toHaveText('Payment voided.');
  await expect(page.getByTestId('payment-details')).toContainText('Voided');
  await expect(page.getByText('Nothing can be done to this payment now.')).toBeVisible();
  await expect(page.getByTestId('timeline')).toContainText('Voided');
});

test("a void's answer stays when reading the payment again fails, and Try again reads it", async ({
  page,
}) => {
  const s = await sale(page, '13.00');
  await page.goto(dashboard(`/payments/${s.transactionId}`));
  await page.getByRole('button', { name: 'Void' }).click();
  // The void goes through; the read of the payment after it meets a server error.
  let failReads = true;
  await page.route(`**/dashboard/api/payments/${s.transactionId}`, (route) =>
    failReads && route.request().method() === 'GET'
      ? route.fulfill({ status: 503, contentType: 'application/json', body: '{}' })
      : route.continue(),
  );
  await page.getByRole('button', { name: 'Confirm void' }).click();
  await expect(page.getByTestId('action-result')).toHaveText('Payment voided.');
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expectAccessible(page);
  failReads = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('payment-details')).toContainText('Voided');
  await expect(page.getByTestId('action-result')).toHaveText('Payment voided.');
});

test('capture an authorisation, asked first with what can be captured', async ({ page }) => {
  const id = await soapPayment(server, '60.00', 'auth');
  made += 1;
  await page.goto(dashboard(`/payments/${id}`));
  await expect(page.getByTestId('payment-details')).toContainText('Authorization');
  await expect(page.getByTestId('payment-details')).toContainText('Authorized');
  await page.getByRole('button', { name: 'Capture' }).click();
  await expect(page.getByLabel('Capture amount')).toHaveValue('60.00');
  await page.getByRole('button', { name: 'Confirm capture' }).click();
  await expect(page.getByTestId('action-result')).toHaveText('Capture of $60.00 approved.');
  await expect(page.getByRole('button', { name: 'Capture' })).toHaveCount(0);
  await expect(page.getByTestId('timeline')).toContainText('Captured');
  await expectAccessible(page);
});

test("another merchant's payment, like an unknown one, is not found", async ({ page }) => {
  const theirs = await soapPayment(server, '7.00', 'sale', server.otherMerchant);
  for (const id of [theirs, '999999999']) {
    await page.goto(dashboard(`/payments/${id}`));
    await expect(page.getByRole('heading', { name: 'Payment not found', level: 1 })).toBeVisible();
    await expect(page.getByTestId('payment-details')).toHaveCount(0);
  }
  await expectAccessible(page);
  await page.goto(dashboard('/nothing-here'));
  await expect(page.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible();
  await expectAccessible(page);
});

test('Settlement: what awaits, Settle now asked first, and the batch listed', async ({ page }) => {
  await page.goto(dashboard());
  await nav(page).getByRole('link', { name: 'Settlement' }).click();
  await expect(page.getByRole('heading', { name: 'Settlement', level: 1 })).toBeFocused();
  const pending = page.getByTestId('pending');
  const count = Number(await pending.getByRole('definition').first().textContent());
  expect(count).toBeGreaterThan(0);
  // The overview's euro sale awaits too: each currency's net, never one sum.
  await expect(pending.getByRole('definition').nth(1)).toHaveText(/^€12\.00 \+ \$[\d,]+\.\d{2}$/);
  await expect(page.getByText('No batches settled yet.')).toBeVisible();
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await page.getByRole('button', { name: 'Settle now' }).click();
  await expect(page.getByText(new RegExp(`^Settle now\\? Transactions: ${count}\\. Total: `))).toBeVisible();
  await page.getByRole('button', { name: 'Confirm settlement' }).click();
  await expect(page.getByTestId('settle-result')).toHaveText(
    new RegExp(`^Batch \\d+ settled\\. Transactions: ${count}\\.`),
  );
  await expect(page.getByTestId('batches').getByRole('row')).toHaveCount(2);
  await expect(page.getByText('Nothing is awaiting settlement.')).toBeVisible();
  await expectAccessible(page);
});

test('a payment link: made, paid by a shopper on the hosted page, shown paid; an open one canceled', async ({
  page,
  context,
  browser,
}) => {
  // A link made, a shopper's payment in a second page, the dashboard read again: slow on a busy machine.
  test.slow();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const errors = collectErrors(page);
  const order = `LINK-${Date.now()}`;
  await page.goto(dashboard());
  await nav(page).getByRole('link', { name: 'Payment links' }).click();
  await expect(page.getByRole('heading', { name: 'Payment links', level: 1 })).toBeFocused();
  await page.getByRole('button', { name: 'New payment link' }).click();
  await expect(page.getByLabel('Amount')).toBeFocused();
  await page.getByRole('button', { name: 'Create link' }).click();
  await expect(page.getByLabel('Amount')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Order number')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await page.getByLabel('Amount').fill('33.50');
  await page.getByLabel('Order number').fill(order);
  await page.getByLabel('Customer e-mail').fill('customer@example.com');
  await page.getByLabel('Description').fill('Two tickets');
  await page.getByLabel('Expires after').selectOption('14');
  await page.getByRole('button', { name: 'Create link' }).click();

  const created = page.getByTestId('created-link');
  await expect(page.getByRole('heading', { name: 'Payment link created.' })).toBeFocused();
  await expect(created.getByRole('img', { name: 'QR code of the payment link' })).toBeVisible();
  const url = await created.getByLabel('Link').inputValue();
  expect(url).toMatch(/\/pay\/[\w-]+$/);
  await created.getByRole('button', { name: 'Copy link' }).click();
  await expect(created.getByText('Link copied.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  const row = page.getByTestId('link-row').filter({ hasText: order });
  await expect(row.getByTestId('link-status')).toHaveText('Open');
  await expect(row).toContainText('$33.50');
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);

  // The customer pays on the hosted page, in a browser of its own.
  const shopper = await browser.newContext({ storageState: undefined });
  const pay = await shopper.newPage();
  await pay.goto(new URL(new URL(url).pathname, server.base).href);
  await pay.getByLabel('Card number').fill('4242424242424242');
  await pay.getByLabel('Expiration date').fill(futureExpiry());
  await pay.getByLabel('Security code').fill('123');
  await pay.getByRole('button', { name: 'Pay $33.50' }).click();
  await expect(pay.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  await shopper.close();
  made += 1;

  await page.reload();
  await expect(row.getByTestId('link-status')).toHaveText('Paid');
  await expect(row.getByRole('button', { name: /^Cancel/ })).toHaveCount(0);

  // A second link, canceled while open.
  const other = `LINK-${Date.now()}-2`;
  await page.getByRole('button', { name: 'New payment link' }).click();
  await page.getByLabel('Amount').fill('5.00');
  await page.getByLabel('Order number').fill(other);
  await page.getByRole('button', { name: 'Create link' }).click();
  const open = page.getByTestId('link-row').filter({ hasText: other });
  await expect(open.getByTestId('link-status')).toHaveText('Open');
  await open.getByRole('button', { name: `Cancel the link for order ${other}` }).click();
  await expect(
    open.getByText(`Cancel the link for order ${other}? The customer can no longer pay it.`),
  ).toBeVisible();
  await open.getByRole('button', { name: 'Cancel link' }).click();
  await expect(page.getByTestId('link-result')).toHaveText(`The link for order ${other} is canceled.`);
  await expect(open.getByTestId('link-status')).toHaveText('Canceled');
  await expectAccessible(page);
  expect(errors).toEqual([]); // the QR codes (data: images) and the chart within the page's CSP
});

test.describe('in Spanish', () => {
  test.use({ locale: 'es-ES' });

  test("the payments and a payment's page in Spanish", { tag: '@system' }, async ({ page }) => {
    const s = await sale(page, '11.00');
    await page.goto(dashboard('/payments'));
    await expect(page.getByRole('heading', { name: 'Pagos', level: 1 })).toBeVisible();
    await expect(page.getByLabel('Buscar pagos')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Exportar CSV' })).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel('Buscar pagos').fill(s.orderNumber);
    await page.getByRole('button', { name: 'Mostrar pagos' }).click();
    await expect(rows(page)).toHaveCount(1);
    await rows(page).getByRole('link').click();
    await expect(page.getByRole('heading', { name: `Pago ${s.transactionId}`, level: 1 })).toBeVisible();
    await expect(page.getByTestId('payment-details')).toContainText('Aprobado');
    await expect(page.getByTestId('payment-details')).toContainText('Visa terminada en 4242');
    await page.getByRole('button', { name: 'Reembolsar' }).click();
    await expect(page.getByLabel('Importe del reembolso')).toHaveValue('11.00');
    await page.getByRole('button', { name: 'Confirmar reembolso' }).click();
    await expect(page.getByTestId('action-result')).toHaveText(/^Reembolso de 11,00\sUS\$ aprobado\.$/);
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
  });
});
