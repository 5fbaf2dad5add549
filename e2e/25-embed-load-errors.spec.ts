/**
 * Issue 14 §12, errors the integrator sees: the loader fires `payframe:loaderror` with a reason, and
 * warns in the console with the fix, when the checkout cannot load or cannot take a payment. An
 * unknown token is refused by the hosted page's frame-ancestors (no merchant, no registered origin:
 * the page can tell no one), so the loader reports it when no `ready` comes (`no_response`, 15 s);
 * a canceled session and a refused theme are told by the page itself (the version-2 `loaderror`
 * message). Widgets are mounted from the data attributes, as a merchant's page does.
 */
import { expect, type Page, test } from '@playwright/test';
import { createSession, merchantAuth } from './helpers/checkout.ts';
import { DEMO, PAYFRAME } from './helpers/embed.ts';

/** Records every `payframe:*` event that bubbles to the document, and the console's warnings. */
async function watch(page: Page) {
  const warnings: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning') warnings.push(m.text());
  });
  await page.goto(`${DEMO}/plain`);
  await page.waitForFunction(() => 'Payframe' in window);
  await page.evaluate(() => {
    const w = window as unknown as { seen: { name: string; id: string; detail: unknown }[] };
    w.seen = [];
    for (const name of ['ready', 'loaderror']) {
      document.addEventListener(`payframe:${name}`, (e) =>
        w.seen.push({ name, id: (e.target as HTMLElement).id, detail: (e as CustomEvent).detail }),
      );
    }
  });
  const seen = () =>
    page.evaluate(
      () => (window as unknown as { seen: { name: string; id: string; detail: unknown }[] }).seen,
    );
  return { warnings, seen };
}

/** A host with data attributes, added to the page: the loader's observer mounts it. */
async function addHost(page: Page, id: string, attributes: Record<string, string>) {
  await page.evaluate(
    ([hostId, attrs]) => {
      const host = document.createElement('div');
      host.id = hostId;
      for (const [k, v] of Object.entries(attrs)) host.setAttribute(k, v);
      document.querySelector('main')!.append(host);
    },
    [id, attributes] as const,
  );
}

test(
  'an unknown token: the frame is refused, and after 15 s loaderror no_response says what to check',
  { tag: '@system' },
  async ({ page }) => {
    test.setTimeout(60_000);
    const { warnings, seen } = await watch(page);
    const unknown = `cs_${'A'.repeat(43)}`;
    await addHost(page, 'unknown', { 'data-payframe-session': unknown });
    await expect(page.locator('#unknown iframe')).toHaveCount(1);
    await page.waitForTimeout(13_000);
    expect(await seen()).toEqual([]); // not before the timeout
    await expect
      .poll(seen, { timeout: 10_000 })
      .toEqual([{ name: 'loaderror', id: 'unknown', detail: { reason: 'no_response' } }]);
    expect(warnings).toContain(`Payframe: no answer: register ${DEMO}, check the token, the network`);
  },
);

test('an invalid theme attribute is reported (loaderror invalid_theme) and the form loads in the default look', async ({
  page,
  request,
}) => {
  const { warnings, seen } = await watch(page);
  const a = await createSession(request);
  const b = await createSession(request);
  // Valid JSON the Theme schema refuses (a colour name), and text that is not JSON at all.
  await addHost(page, 'named-colour', {
    'data-payframe-session': a.token,
    'data-payframe-theme': '{"primaryColor":"red"}',
  });
  await addHost(page, 'not-json', {
    'data-payframe-session': b.token,
    'data-payframe-theme': "{primaryColor:'#3355ff'",
  });
  await expect
    .poll(async () =>
      (await seen()).map((e) => `${e.name} ${e.id} ${JSON.stringify(e.detail ?? null)}`).sort(),
    )
    .toEqual([
      'loaderror named-colour {"reason":"invalid_theme"}',
      'loaderror not-json {"reason":"invalid_theme"}',
      'ready named-colour null',
      'ready not-json null',
    ]);
  const form = page.frameLocator('#named-colour iframe');
  await expect(form.getByRole('button', { name: /^Pay/ })).toBeVisible();
  expect(await form.locator('html').evaluate((el) => el.style.getPropertyValue('--pf-primary'))).toBe('');
  expect(warnings.filter((w) => w.startsWith('Payframe: theme refused'))).toHaveLength(2);

  // The control: a valid theme is applied and reported by no one.
  const c = await createSession(request);
  await addHost(page, 'good-theme', {
    'data-payframe-session': c.token,
    'data-payframe-theme': '{"primaryColor":"#3355ff"}',
  });
  await expect
    .poll(async () => (await seen()).filter((e) => e.id === 'good-theme').map((e) => e.name))
    .toEqual(['ready']);
  const good = page.frameLocator('#good-theme iframe');
  expect(await good.locator('html').evaluate((el) => el.style.getPropertyValue('--pf-primary'))).toBe(
    '#3355ff',
  );
});

test('a canceled session: the page says so, and the loader fires loaderror canceled', async ({
  page,
  request,
}) => {
  const { warnings, seen } = await watch(page);
  const s = await createSession(request);
  const res = await request.post(`${PAYFRAME}/v1/checkout-sessions/${s.token}/cancel`, {
    headers: { authorization: merchantAuth() },
  });
  expect(res.ok(), await res.text()).toBe(true);
  await addHost(page, 'canceled', { 'data-payframe-session': s.token });
  await expect.poll(seen).toEqual([
    { name: 'ready', id: 'canceled', detail: null }, // (a CustomEvent's detail defaults to null)
    { name: 'loaderror', id: 'canceled', detail: { reason: 'canceled' } },
  ]);
  expect(warnings).toContain('Payframe: session canceled: create a new one');
});
