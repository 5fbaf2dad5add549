/**
 * The Developers page's TransactionKey part in Chromium (issue 16): an Owner rolls the key with a
 * 1-hour overlap by keyboard alone, sees the new key once (a reload does not show it again) and
 * copies it; during the overlap a SOAP call (GetMerchantInfo through the TransactionServiceClient)
 * with the old key works, as with the new; rolling again with the overlap None stops both old keys.
 * The snippets carry the merchant's id and this server's address, never a key. A Viewer sees the
 * page without the key's part and its roll through the API is refused by the server (403). axe,
 * keyboard only, 320 px. The server is this spec's own (e2e/helpers/dashboard.ts).
 */
import { expect, type Page, test } from '@playwright/test';
import { TransactionServiceClient } from '../server/soap/client/transaction-service-client.ts';
import {
  type DashboardServer,
  enrol,
  expectAccessible,
  expectNoSidewaysScroll,
  startDashboardServer,
} from './helpers/dashboard.ts';

const PORT = Number(process.env.E2E_PORT ?? 3100) + 98;
let server: DashboardServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startDashboardServer(PORT, ['owner', 'viewer'], { viewer: 'viewer' });
});
test.afterAll(async () => {
  await server?.stop();
});

/** GetMerchantInfo over SOAP with this key: 'ok', or the HTTP status that refused it. */
async function soapWith(key: string): Promise<string> {
  const soap = new TransactionServiceClient({
    baseUrl: server.base,
    namespace: 'http://tempuri.org/',
    username: server.merchant.merchantId,
    password: key,
  });
  try {
    const info = await soap.GetMerchantInfo({ merchantID: server.merchant.merchantId });
    expect(String(info.MerchantID)).toBe(server.merchant.merchantId);
    return 'ok';
  } catch (err) {
    return String((err as { status?: number }).status ?? err);
  }
}

/** Tabs until `name`'s element has the focus (keyboard only), at most `max` presses. */
async function tabTo(page: Page, locator: ReturnType<Page['locator']>, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await locator.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('not reached by Tab');
}

/** Rolls by keyboard: Roll key…, the overlap (arrow keys in the radio group), Roll key now. */
async function rollByKeyboard(page: Page, overlap: '1 hour' | 'No time: it stops now'): Promise<string> {
  await tabTo(page, page.getByRole('button', { name: 'Roll key…' }));
  await page.keyboard.press('Enter');
  const oneHour = page.getByRole('radio', { name: '1 hour' });
  await expect(oneHour).toBeFocused();
  await expect(oneHour).toBeChecked();
  if (overlap !== '1 hour') {
    await page.keyboard.press('ArrowUp');
    await expect(page.getByRole('radio', { name: overlap })).toBeChecked();
  }
  await tabTo(page, page.getByRole('button', { name: 'Roll key now' }), 5);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Your new TransactionKey' })).toBeFocused();
  await expect(page.getByText('Copy it now: you will not see it again.')).toBeVisible();
  const key = await page.getByRole('textbox', { name: 'TransactionKey' }).inputValue();
  expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return key;
}

test('an Owner rolls the key with a 1-hour overlap: the old key works during it, the new key is shown once', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base });
  const original = server.merchant.transactionKey;
  expect(await soapWith(original)).toBe('ok');
  await enrol(page, server, server.users.owner!);
  await tabTo(page, page.getByRole('link', { name: 'Developers' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Developers', level: 1 })).toBeFocused();
  await expect(page.getByTestId('merchant-id')).toHaveText(server.merchant.merchantId);

  // The snippets: the merchant's id and this server, a placeholder for the key, never the key.
  const snippets = page.getByTestId('snippets');
  await expect(snippets.getByTestId('snippet-rest')).toContainText(`${server.base}/v1/checkout-sessions`);
  await expect(snippets.getByTestId('snippet-rest')).toContainText(
    `${server.merchant.merchantId}:YOUR_TRANSACTION_KEY`,
  );
  await expect(snippets.getByTestId('snippet-embed')).toContainText(
    `<script src="${server.base}/checkout.js" async>`,
  );
  await expect(snippets.getByTestId('snippet-redirect')).toContainText('previousSignature');
  await expect(page.getByTestId('key-last-used')).not.toHaveText('Not used yet');
  expect(await page.content()).not.toContain(original);
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);

  const rolled = await rollByKeyboard(page, '1 hour');
  expect(rolled).not.toBe(original);
  await expect(page.getByText(/The previous key keeps working until/)).toBeVisible();
  await page.getByRole('button', { name: 'Copy key' }).click();
  await expect(page.getByText('Key copied.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(rolled);
  await expect(page.getByTestId('previous-until')).toBeVisible();
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);

  // During the overlap both keys work over SOAP; the status shows the previous key's use.
  expect(await soapWith(original)).toBe('ok');
  expect(await soapWith(rolled)).toBe('ok');

  // Shown once: a reload shows the status, never the key.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Developers', level: 1 })).toBeVisible();
  await expect(page.getByTestId('previous-until')).toBeVisible();
  await expect(page.getByTestId('previous-last-used')).not.toHaveText('Not used yet');
  await expect(page.getByTestId('new-key')).toHaveCount(0);
  expect(await page.content()).not.toContain(rolled);

  // Rolled again with no overlap: both old keys stop at once, the newest works.
  const newest = await rollByKeyboard(page, 'No time: it stops now');
  await expect(page.getByText('The previous key no longer works.')).toBeVisible();
  await expect(page.getByTestId('previous-until')).toHaveCount(0);
  expect(await soapWith(original)).toBe('401');
  expect(await soapWith(rolled)).toBe('401');
  expect(await soapWith(newest)).toBe('ok');
  server.merchant.transactionKey = newest;
});

test("a Viewer sees the snippets but not the key's part, and its roll is refused by the server (403)", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await enrol(page, server, server.users.viewer!);
  await page.goto(`${server.base}/dashboard/developers`);
  await expect(page.getByTestId('merchant-id')).toHaveText(server.merchant.merchantId);
  await expect(page.getByTestId('key-owner-only')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Roll key…' })).toHaveCount(0);
  await expect(page.getByTestId('snippet-rest')).toContainText(server.merchant.merchantId);
  await expectAccessible(page);
  const answer = await page.evaluate(async () => {
    const res = await fetch('/dashboard/api/developers/key/roll', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-payframe-client': 'dashboard' },
      body: JSON.stringify({ overlap: 'None' }),
    });
    return { status: res.status, body: (await res.json()) as { error?: { code?: string } } };
  });
  expect(answer).toEqual({
    status: 403,
    body: expect.objectContaining({ error: expect.objectContaining({ code: 'forbidden' }) }),
  });
  expect(await soapWith(server.merchant.transactionKey)).toBe('ok');
});
