/**
 * Message receipt (security-requirements.md EMB-5): a widget acts only on messages from Payframe's
 * origin, from its own iframe's window, with its own instance id and a valid shape. Two widgets on
 * one page never hear each other. Also the rest of the mount API: on/off, destroy, options.
 */
import { expect, type Page, test } from '@playwright/test';
import { collectErrors, DEMO, expectReady, PAYFRAME, payByCard } from './helpers/embed.ts';

const paid = /^Paid \$24\.99: order DEMO-[0-9A-F]{8}, transaction \d+\.$/;

async function instanceOf(page: Page, mountId: string): Promise<string> {
  const src = await page.locator(`#${mountId} iframe`).getAttribute('src');
  return new URL(src!).searchParams.get('instance')!;
}

async function frameOf(page: Page, mountId: string) {
  return (await (await page.locator(`#${mountId} iframe`).elementHandle())!.contentFrame())!;
}

const success = (instance: string, extra: Record<string, unknown> = {}) => ({
  source: 'payframe',
  v: 2,
  instance,
  type: 'success',
  data: {
    transactionId: '1',
    orderNumber: 'FORGED',
    amount: '0.01',
    currency: 'USD',
    status: 'succeeded',
    ...extra,
  },
});

test('two widgets on one page: paying one fires success for that one only', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto(`${DEMO}/two`);
  await expectReady(page, 'widget-a');
  await expectReady(page, 'widget-b');
  expect(await instanceOf(page, 'widget-a')).not.toBe(await instanceOf(page, 'widget-b'));

  await payByCard(page.frameLocator('#widget-a iframe'));
  await expect(page.locator('#widget-a-result')).toHaveText(paid);
  await expect(page.locator('#events li', { hasText: 'payframe:success' })).toHaveCount(1);
  await expect(page.locator('#events')).toContainText('payframe:success on #widget-a');
  await expect(page.locator('#widget-b-result')).toHaveText('');
  expect(errors).toEqual([]);
});

test('forged messages have no effect: wrong origin, wrong window, wrong instance, wrong shape', async ({
  page,
}) => {
  const errors = collectErrors(page);
  await page.goto(`${DEMO}/two`);
  await expectReady(page, 'widget-a');
  await expectReady(page, 'widget-b');
  const b = await instanceOf(page, 'widget-b');
  const frameA = await frameOf(page, 'widget-a');
  const frameB = await frameOf(page, 'widget-b');
  const post = (from: typeof frameA, message: unknown) =>
    from.evaluate(([m, target]) => parent.postMessage(m, target), [message, DEMO] as const);

  // The store's own page (not Payframe's origin), with B's real instance id.
  await page.evaluate(([m, target]) => postMessage(m, target), [success(b), DEMO] as const);
  // Payframe's origin, but widget A's window speaking for B.
  await post(frameA, success(b));
  // B's window, another instance id.
  await post(frameB, success(await instanceOf(page, 'widget-a')));
  // B's window and id, but not the declared shape: an extra field, a number amount, another version.
  await post(frameB, success(b, { cardNumber: '4242424242424242' }));
  await post(frameB, success(b, { amount: 0.01 }));
  await post(frameB, { ...success(b), v: 1 });
  await post(frameB, { ...success(b), v: 3 });
  await page.waitForTimeout(300);
  await expect(page.locator('#events li', { hasText: 'payframe:success' })).toHaveCount(0);

  // The control: the same message from B's window with B's id and a valid shape is accepted, so
  // the refusals above are the checks at work and not a broken test.
  await post(frameB, success(b));
  await expect(page.locator('#widget-b-result')).toHaveText('Paid $0.01: order FORGED, transaction 1.');
  await expect(page.locator('#widget-a-result')).toHaveText('');
  expect(errors).toEqual([]);
});

test('Payframe.mount: options reach the iframe URL; on, off and destroy; a bad token throws', async ({
  page,
  request,
}) => {
  const { token } = (await (await request.post(`${DEMO}/api/checkout-session`)).json()) as { token: string };
  await page.goto(`${DEMO}/plain`);
  await page.waitForFunction(() => 'Payframe' in window);
  const result = await page.evaluate(async (session) => {
    const Payframe = (window as unknown as { Payframe: any }).Payframe; // eslint-disable-line @typescript-eslint/no-explicit-any
    const host = document.createElement('div');
    host.id = 'api-host';
    document.querySelector('main')!.append(host);
    const seen: string[] = [];
    const removed = () => seen.push('removed handler ran');
    const ready = new Promise<void>((resolve) => {
      const instance = Payframe.mount('#api-host', {
        session,
        locale: 'es',
        theme: { primaryColor: '#3355ff', mode: 'dark' },
        onReady: () => seen.push('onReady'),
      });
      instance.on('ready', () => seen.push('on(ready)'));
      instance.on('ready', removed).off('ready', removed);
      host.addEventListener('payframe:ready', (e) => {
        seen.push(`payframe:ready bubbles=${e.bubbles}`);
        resolve();
      });
      (window as unknown as { apiInstance: unknown }).apiInstance = instance;
    });
    await ready;
    const src = new URL(host.querySelector('iframe')!.src);
    let thrown = '';
    try {
      Payframe.mount(host, { session: 'cs_short' });
    } catch (err) {
      thrown = (err as Error).message;
    }
    (window as unknown as { apiInstance: { destroy(): void } }).apiInstance.destroy();
    return {
      seen,
      locale: src.searchParams.get('locale'),
      theme: src.searchParams.get('theme'),
      frames: host.querySelectorAll('iframe').length,
      thrown,
    };
  }, token);
  expect(result).toEqual({
    seen: ['onReady', 'on(ready)', 'payframe:ready bubbles=true'],
    locale: 'es',
    theme: '{"primaryColor":"#3355ff","mode":"dark"}',
    frames: 0,
    thrown: 'Payframe: `session` must be a checkout-session token (cs_…) from your server.',
  });
});

test('the loader takes Payframe’s origin from its own script URL, not from the page', async ({ page }) => {
  await page.goto(`${DEMO}/two`);
  const src = await page.locator('#widget-a iframe').getAttribute('src');
  expect(new URL(src!).origin).toBe(PAYFRAME);
  expect(await page.locator('script[src$="/checkout.js"]').getAttribute('src')).toBe(
    `${PAYFRAME}/checkout.js`,
  );
});

test('auto-mount follows the page: a new session on the element remounts the widget with it', async ({
  page,
}) => {
  await page.goto(`${DEMO}/`);
  await expectReady(page, 'embedded');
  const newToken = async () =>
    page.evaluate(async () => {
      const res = await fetch('/api/checkout-session', { method: 'POST' });
      return ((await res.json()) as { token: string }).token;
    });
  const token = await newToken();
  await page.evaluate((t) => {
    document.querySelector('#embedded')!.setAttribute('data-payframe-session', t);
  }, token);
  await expect(page.locator('#embedded iframe')).toHaveCount(1);
  await expect
    .poll(async () => new URL((await page.locator('#embedded iframe').getAttribute('src'))!).pathname)
    .toBe(`/pay/${token}`);
});
