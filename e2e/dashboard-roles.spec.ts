/**
 * The dashboard's roles in Chromium (issue 16 "Team"): a Viewer reads a payment's page but is
 * offered no Refund, Void or Capture, and a refund it asks of the dashboard's API itself is refused
 * by the server (403 forbidden), the payment untouched; an owner on the same server sees the
 * actions. axe finds nothing on the Viewer's payment page. The server is this spec's own
 * (e2e/helpers/dashboard.ts), its users made with `payframe user create --role`.
 */
import { expect, test } from '@playwright/test';
import {
  type DashboardServer,
  enrol,
  expectAccessible,
  paidSale,
  startDashboardServer,
} from './helpers/dashboard.ts';

const PORT = Number(process.env.E2E_PORT ?? 3100) + 90;
let server: DashboardServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startDashboardServer(PORT, ['owner', 'viewer'], { viewer: 'viewer' });
});
test.afterAll(async () => {
  await server?.stop();
});

test('a Viewer sees no Refund on a payment, and its refund through the API is 403', async ({ page }) => {
  test.setTimeout(90_000);
  const sale = await paidSale(page.request, server, '25.00');
  await enrol(page, server, server.users.viewer!);
  await page.goto(`${server.base}/dashboard/payments/${sale.transactionId}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(sale.transactionId);
  await expect(page.getByText(sale.orderNumber).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Refund' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Void' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Capture' })).toHaveCount(0);
  await expectAccessible(page);

  // Hidden is not refused: the server refuses it, asked as the page would ask.
  const answer = await page.evaluate(async (id) => {
    const res = await fetch(`/dashboard/api/payments/${id}/refund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-payframe-client': 'dashboard' },
      body: JSON.stringify({ amount: '5.00' }),
    });
    return { status: res.status, body: (await res.json()) as { error?: { code?: string } } };
  }, sale.transactionId);
  expect(answer.status).toBe(403);
  expect(answer.body.error?.code).toBe('forbidden');
  const after = await page.evaluate(async (id) => {
    const res = await fetch(`/dashboard/api/payments/${id}`, {
      headers: { 'x-payframe-client': 'dashboard' },
    });
    return (await res.json()) as { payment: { refundedAmount: string }; refundable: string };
  }, sale.transactionId);
  expect(after).toMatchObject({ payment: { refundedAmount: '0.00' }, refundable: '25.00' });
});

test('an owner on the same server is offered the refund', async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext();
  const page = await context.newPage();
  const sale = await paidSale(page.request, server, '12.00');
  await enrol(page, server, server.users.owner!);
  await page.goto(`${server.base}/dashboard/payments/${sale.transactionId}`);
  await expect(page.getByRole('button', { name: 'Refund' })).toBeVisible();
  await context.close();
});
