/**
 * The embed, as a merchant uses it (docs/merchant-guide.md "Embed the checkout"): the demo store on
 * its own origin loads /checkout.js with a script tag and a data attribute; the shopper pays inside
 * the iframe and the store's page hears `success`. Also the hosted-page link with the signed
 * redirect back to the store, and a plain iframe that listens to postMessage itself.
 */
import { expect, test } from '@playwright/test';
import {
  APPROVED_CARD,
  collectErrors,
  DEMO,
  expectReady,
  PAYFRAME,
  payByCard,
  recordMessages,
} from './helpers/embed.ts';

test('/checkout.js is served cacheable for five minutes, cross-origin, as JavaScript', async ({
  request,
}) => {
  const res = await request.get(`${PAYFRAME}/checkout.js`);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('text/javascript; charset=utf-8');
  expect(res.headers()['cache-control']).toBe('public, max-age=300');
  expect(res.headers()['cross-origin-resource-policy']).toBe('cross-origin');
});

test('script tag + data attribute: the widget mounts, the shopper pays, the store page hears success', async ({
  page,
}) => {
  const errors = collectErrors(page);
  const messages = await recordMessages(page);
  await page.goto(`${DEMO}/`);
  const iframe = page.locator('#embedded iframe');
  await expect(iframe).toHaveAttribute('title', 'Secure payment form');
  await expect(iframe).toHaveAttribute('allow', 'payment');
  const src = new URL((await iframe.getAttribute('src'))!);
  expect(src.origin).toBe(PAYFRAME);
  expect(src.pathname).toMatch(/^\/pay\/cs_[A-Za-z0-9_-]{43}$/);
  expect(src.searchParams.get('embed')).toBe('1');
  expect(src.searchParams.get('instance')).toMatch(/^[0-9a-f]{32}$/);
  expect(src.searchParams.get('origin')).toBe(DEMO);
  await expectReady(page, 'embedded');

  // The frame fits its content: no inner scroll bar, the Pay button inside the frame's box.
  const frame = page.frameLocator('#embedded iframe');
  await expect(frame.getByRole('button', { name: /^Pay/ })).toBeVisible();
  const frameHeight = await iframe.evaluate((el) => el.getBoundingClientRect().height);
  const contentHeight = await frame.locator('html').evaluate((el) => el.scrollHeight);
  expect(Math.abs(frameHeight - contentHeight)).toBeLessThanOrEqual(2);

  await payByCard(frame);
  await expect(page.locator('#embedded-result')).toHaveText(
    /^Paid \$24\.99: order DEMO-[0-9A-F]{8}, transaction \d+\.$/,
  );
  await expect(page.locator('#events')).toContainText('payframe:success on #embedded');

  // What crossed postMessage: Payframe's tagged messages only, never card data (EMB-6).
  const received = JSON.stringify(await messages());
  expect(received).toContain('"source":"payframe"');
  for (const secret of [APPROVED_CARD.number, APPROVED_CARD.number.replace(/ /g, ''), APPROVED_CARD.expiry]) {
    expect(received).not.toContain(secret);
  }
  expect(errors).toEqual([]);
});

test('the hosted page link: pay on Payframe, come back to the store, the signature verifies', async ({
  page,
}) => {
  await page.goto(`${DEMO}/`);
  await page.locator('#hosted-link').click();
  await expect(page).toHaveURL(new RegExp(`^${PAYFRAME}/pay/cs_`));
  await payByCard(page);
  await page.getByRole('link', { name: /^Return to / }).click();
  await expect(page).toHaveURL(new RegExp(`^${DEMO}/return\\?`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment verified');
  await expect(page.locator('#confirmed')).toHaveText('Payframe confirms this session is paid.');

  // The same redirect with the amount changed is refused.
  const tampered = new URL(page.url());
  tampered.searchParams.set('amount', '0.01');
  const res = await page.goto(tampered.href);
  expect(res?.status()).toBe(400);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Signature invalid');
});

test('a plain iframe: the page hears the postMessage success itself', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto(`${DEMO}/plain`);
  const frame = page.frameLocator('#plain-frame');
  await expect(page.locator('#events')).toContainText('message ready');
  await payByCard(frame);
  await expect(page.locator('#plain-frame-result')).toHaveText(
    /^Paid \$24\.99: order DEMO-[0-9A-F]{8}, transaction \d+\.$/,
  );
  expect(errors).toEqual([]);
});

test('3-D Secure inside the embed: the bank page loads in the widget on the store page and the payment completes', async ({
  page,
}) => {
  // Every ancestor is checked by frame-ancestors: the store page, the widget, then the bank page.
  const errors = collectErrors(page);
  await page.goto(`${DEMO}/`);
  await expectReady(page, 'embedded');
  const frame = page.frameLocator('#embedded iframe');
  await payByCard(frame, { ...APPROVED_CARD, number: '4000000000003220' });
  const bank = frame.frameLocator('iframe[title="Bank verification"]');
  await bank.getByRole('button', { name: 'Authenticate' }).click();
  await expect(page.locator('#embedded-result')).toHaveText(
    /^Paid \$24\.99: order DEMO-[0-9A-F]{8}, transaction \d+\.$/,
    { timeout: 10_000 },
  );
  expect(errors).toEqual([]);
});

test('pinned loader: /checkout.json names a build that Chromium runs with its integrity hash, and refuses with another', async ({
  context,
  request,
}) => {
  const manifest = (await (await request.get(`${PAYFRAME}/checkout.json`)).json()) as {
    src: string;
    integrity: string;
  };
  // A fresh page each time: the global a loaded script leaves would outlive setContent.
  const loads = async (integrity: string) => {
    const page = await context.newPage();
    await page.setContent(
      `<script src="${PAYFRAME}${manifest.src}" integrity="${integrity}" crossorigin="anonymous"></script>`,
    );
    const kind = await page.evaluate(() => typeof (window as { Payframe?: unknown }).Payframe);
    await page.close();
    return kind;
  };
  expect(await loads(manifest.integrity)).toBe('object');
  expect(await loads(`sha384-${Buffer.alloc(48).toString('base64')}`)).toBe('undefined');
});
