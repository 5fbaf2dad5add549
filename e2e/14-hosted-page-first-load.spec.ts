/**
 * The hosted page renders from the session its HTML carries (shared/checkout/page-state.ts; issue 12
 * §4): no request to GET /api/checkout/sessions/:token before the form is interactive — on the
 * full page, in the merchant's iframe, for a paid session's receipt and an unknown token's "not
 * found" — and the app still asks the API when the HTML carries nothing usable.
 */
import { expect, type Page, test } from '@playwright/test';
import { createSession, futureExpiry, PAYFRAME_URL } from './helpers/checkout.ts';
import { collectErrors, DEMO, expectReady } from './helpers/embed.ts';

/** The session loads the page makes through the API (GET /api/checkout/sessions/:token, nothing below it). */
function countSessionLoads(page: Page): { count: () => number } {
  let n = 0;
  page.on('request', (r) => {
    if (r.method() === 'GET' && /\/api\/checkout\/sessions\/[^/?]+(?:\?|$)/.test(r.url())) n += 1;
  });
  return { count: () => n };
}

test('the full page is interactive without a session load through the API', async ({ page, request }) => {
  const s = await createSession(request);
  const errors = collectErrors(page);
  const loads = countSessionLoads(page);
  const response = await page.goto(`/pay/${s.token}`);
  expect(response?.headers()['content-security-policy']).not.toContain('unsafe-inline');
  const payButton = page.getByRole('button', { name: 'Pay $25.00' });
  await expect(payButton).toBeEnabled();
  await page.getByLabel('Card number').fill('4242424242424242');
  await page.getByLabel('Expiration date').fill(futureExpiry());
  await page.getByLabel('Security code').fill('123');
  expect(loads.count()).toBe(0);
  await expect(page.getByText(`Order ${s.orderNumber}`)).toBeVisible();
  await expect(page.getByLabel('Card number')).toBeVisible();
  await expect(page).toHaveTitle('Pay $25.00 · Payframe Demo Store');

  // Paying still goes through the API; the receipt comes from its answer.
  await payButton.click();
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  expect(loads.count()).toBe(0);

  // A reload after paying: the receipt, from the page's state again.
  await page.reload();
  await expect(page.getByTestId('receipt')).toContainText('Visa ••4242');
  expect(loads.count()).toBe(0);
  expect(errors).toEqual([]);
});

test("an unknown token shows 'not found' from the page's state", async ({ page }) => {
  const loads = countSessionLoads(page);
  await page.goto(`/pay/cs_${'A'.repeat(43)}`);
  await expect(page.getByTestId('not-found')).toBeVisible();
  expect(loads.count()).toBe(0);
});

test('a Spanish session renders in Spanish at once, the document saying so from the server', async ({
  page,
  request,
}) => {
  const s = await createSession(request, { locale: 'es' });
  const loads = countSessionLoads(page);
  const response = await page.goto(`/pay/${s.token}`);
  expect(await response?.text()).toContain('<html lang="es" dir="ltr">');
  await expect(page.getByRole('button', { name: /^Pagar/ })).toBeEnabled();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  expect(loads.count()).toBe(0);
});

test("the merchant's iframe (?embed=1) is ready without a session load through the API", async ({ page }) => {
  const errors = collectErrors(page);
  const loads = countSessionLoads(page);
  await page.goto(`${DEMO}/`);
  const frame = page.frameLocator('#embedded iframe');
  await expect(frame.getByRole('button', { name: /^Pay/ })).toBeEnabled();
  await frame.getByLabel('Card number').fill('4242424242424242');
  await expectReady(page, 'embedded');
  expect(loads.count()).toBe(0);
  expect(errors).toEqual([]);
});

test('without usable state in the HTML, the app loads the session from the API', async ({
  page,
  request,
}) => {
  const s = await createSession(request);
  const loads = countSessionLoads(page);
  // The page as a server that could not ask the gateway sends it: no state block.
  await page.route(`${PAYFRAME_URL}/pay/${s.token}`, async (route) => {
    const res = await route.fetch();
    const html = (await res.text()).replace(/<script type="application\/json"[^>]*>[^<]*<\/script>/, '');
    await route.fulfill({ response: res, body: html });
  });
  await page.goto(`/pay/${s.token}`);
  await expect(page.getByRole('button', { name: 'Pay $25.00' })).toBeEnabled();
  expect(loads.count()).toBe(1);

  // State for another session (or of the wrong shape) is not used either.
  await page.unroute(`${PAYFRAME_URL}/pay/${s.token}`);
  await page.route(`${PAYFRAME_URL}/pay/${s.token}`, async (route) => {
    const res = await route.fetch();
    const html = (await res.text()).replace(`"token":"${s.token}"`, `"token":"cs_${'B'.repeat(43)}"`);
    await route.fulfill({ response: res, body: html });
  });
  await page.reload();
  await expect(page.getByRole('button', { name: 'Pay $25.00' })).toBeEnabled();
  expect(loads.count()).toBe(2);
});
