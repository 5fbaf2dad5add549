/**
 * Webhooks on the dashboard's Developers page in Chromium (issue 16): with a local HTTP receiver
 * (a node http server in this spec), an Owner sets the endpoint, creates a signing secret (shown
 * once), sends a test event — the receiver gets it signed with that secret, and the delivery shows
 * with status 200, its body and the receiver's answer — then resends it (the same event id again),
 * all by keyboard alone; axe finds nothing and the page does not scroll sideways at 320 px. A
 * session without a webhook URL of its own is announced to the endpoint too. The server is this
 * spec's own (e2e/helpers/dashboard.ts).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  type DashboardServer,
  enrol,
  expectAccessible,
  expectNoSidewaysScroll,
  paidSale,
  startDashboardServer,
} from './helpers/dashboard.ts';

const PORT = Number(process.env.E2E_PORT ?? 3100) + 100;
const STATE = path.resolve('test-results/dashboard-webhooks-session.json');
const ANSWER = '{"received":true}';
let server: DashboardServer;

interface Received {
  body: string;
  signature: string;
  eventId: string;
}
const received: Received[] = [];
let receiver: http.Server;
let endpoint = '';

test.describe.configure({ mode: 'serial' });
test.use({ storageState: STATE });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: String(req.headers['payframe-signature']),
        eventId: String(req.headers['payframe-event-id']),
      });
      res.setHeader('content-type', 'application/json');
      res.end(ANSWER);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/payframe/hooks`;
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
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  fs.rmSync(STATE, { force: true });
});

/** Tab until `target` has focus (reachable by keyboard, in the page's order). */
async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

function verifies(r: Received, secret: string): boolean {
  const t = /^t=(\d+),/.exec(r.signature)?.[1];
  const expected = crypto.createHmac('sha256', secret).update(`${t}.${r.body}`, 'utf8').digest('hex');
  return [...r.signature.matchAll(/v1=([0-9a-f]{64})/g)].some((m) => m[1] === expected);
}

test('set the endpoint, create a secret, send a test event and resend it, by keyboard alone', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto(`${server.base}/dashboard/developers`);
  const section = page.getByTestId('webhooks-section');
  await expect(section.getByRole('heading', { name: 'Webhooks', level: 2 })).toBeVisible();
  await expect(section.getByTestId('secret-state')).toHaveText(
    'No signing secret: webhooks are signed with your TransactionKey.',
  );

  // An address that is not https is refused at its field.
  const url = section.getByLabel('Endpoint URL');
  await tabTo(page, url);
  await page.keyboard.type('http://shop.example/hooks');
  await page.keyboard.press('Enter');
  await expect(url).toHaveAttribute('aria-invalid', 'true');
  await expect(url).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(endpoint);
  await page.keyboard.press('Enter');
  await expect(section.getByTestId('endpoint-status')).toHaveText(
    'Endpoint saved. New events are sent to it.',
  );

  const create = section.getByRole('button', { name: 'Create signing secret' });
  await tabTo(page, create);
  await page.keyboard.press('Enter');
  const newSecret = section.getByTestId('new-secret');
  await expect(newSecret.getByRole('heading', { name: 'Your new signing secret' })).toBeFocused();
  const secret = await newSecret.getByLabel('Signing secret').inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  await tabTo(page, newSecret.getByRole('button', { name: 'I have saved it' }));
  await page.keyboard.press('Enter');
  await expect(newSecret).toHaveCount(0);
  await expect(section.getByRole('button', { name: 'Roll secret' })).toBeFocused();
  await expect(section.getByTestId('secret-state')).toContainText(
    'Webhooks are signed with the secret made on',
  );

  await tabTo(page, section.getByRole('button', { name: 'Send test event' }));
  await page.keyboard.press('Enter');
  await expect(section.getByTestId('test-status')).toHaveText(
    'Test event sent. Your endpoint answered: 200.',
  );
  const detail = section.getByTestId('delivery-detail');
  await expect(detail.getByRole('heading', { name: 'Delivery of payframe.test' })).toBeFocused();
  expect(received).toHaveLength(1);
  const got = received[0]!;
  expect(JSON.parse(got.body)).toMatchObject({ type: 'payframe.test' });
  expect(verifies(got, secret)).toBe(true);
  await expect(detail.getByTestId('delivery-id')).toHaveText(got.eventId);
  await expect(detail.getByTestId('detail-code')).toHaveText('200');
  await expect(detail.getByTestId('request-body')).toHaveText(got.body);
  await expect(detail.getByTestId('response-head')).toHaveText(ANSWER);
  const row = section.getByTestId('delivery-row').first();
  await expect(row).toContainText('payframe.test');
  await expect(row.getByTestId('delivery-code')).toHaveText('200');

  await tabTo(page, detail.getByRole('button', { name: 'Resend' }));
  await page.keyboard.press('Enter');
  await expect(detail.getByTestId('resend-status')).toHaveText(
    'Sent again with the same event id. Your endpoint answered: 200.',
  );
  await expect(detail.getByTestId('detail-attempts')).toHaveText('2');
  expect(received.map((r) => r.eventId)).toEqual([got.eventId, got.eventId]);
  expect(received[1]!.body).toBe(got.body);
  expect(verifies(received[1]!, secret)).toBe(true);

  await expectAccessible(page);
  await expectNoSidewaysScroll(page);

  await tabTo(page, detail.getByRole('button', { name: 'Close' }));
  await page.keyboard.press('Enter');
  await expect(detail).toHaveCount(0);
  await expect(section.getByRole('button', { name: /^Details of payframe\.test/ }).first()).toBeFocused();
});

test('a paid session without a webhook URL of its own is announced to the endpoint and listed', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const before = received.length;
  const sale = await paidSale(page.request, server, '12.00');
  await page.goto(`${server.base}/dashboard/developers`);
  const section = page.getByTestId('webhooks-section');
  // The delivery worker runs every 5 s.
  await expect
    .poll(() => received.slice(before).map((r) => JSON.parse(r.body).type), { timeout: 20_000 })
    .toContain('payment.succeeded');
  const event = received.slice(before).find((r) => JSON.parse(r.body).type === 'payment.succeeded')!;
  expect(JSON.parse(event.body).data.transactionId).toBe(sale.transactionId);
  await page.reload();
  await expect(section.getByTestId('delivery-row').filter({ hasText: 'payment.succeeded' })).toHaveCount(1);
  await section.getByRole('button', { name: /^Details of payment\.succeeded/ }).click();
  await expect(section.getByTestId('request-body')).toContainText(sale.transactionId);
  await expect(section.getByTestId('request-body')).not.toContainText('4242424242424242');
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
});
